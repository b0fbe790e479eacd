package io.wecominbox.ops.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.ops.metrics.JolokiaClient;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.SkipOutsideCi;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Black box: every admin URL refuses a request without (or with wrong) credentials and serves the admin.
 * The API's operations come from the server's own OpenAPI document, so a new resource is covered the day it
 * is added; the list below must stay a subset of it, so the enumeration cannot silently come back empty.
 * Also: wrong passwords lock a source out (the test server's settings: src/test/liberty/configDropins/overrides/
 * security-test.xml), and the application's broker management user may read but not change anything.
 */
@ExtendWith(ArquillianExtension.class)
class AdminSecurityIT {

    /** Operations that exist today ("METHOD path"); the OpenAPI document must list at least these. */
    private static final Set<String> KNOWN_API = Set.of(
            "POST /api/ops/probes", "GET /api/ops/probes/{id}",
            "GET /api/ops/dashboard/ingest", "GET /api/ops/dashboard/timeline", "GET /api/ops/dashboard/queues",
            "GET /api/ops/dashboard/rejections", "GET /api/ops/dashboard/consumers", "GET /api/ops/dashboard/welcomes",
            "GET /api/ops/retry-span", "GET /api/ops/handlers", "GET /api/ops/health",
            "POST /api/ops/replays", "GET /api/ops/replays", "GET /api/ops/replays/{id}",
            "DELETE /api/ops/replays/{id}", "POST /api/ops/replays/{id}/cancel",
            "POST /api/ops/reconcile-runs", "GET /api/ops/reconcile-runs", "GET /api/ops/reconcile-runs/{id}");

    /** Admin URLs outside the JSON API (the page is hidden from the OpenAPI document). */
    private static final List<String> PAGES = List.of("/dashboard", "/dashboard/", "/dashboard/index.html",
            "/dashboard/dashboard.js", "/dashboard/charts.js", "/dashboard/dashboard.css", "/dashboard/no-such-file");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void everyAdminOperationNeedsTheAdminLogin() {
        Set<String> operations = apiOperations();
        assertTrue(operations.containsAll(KNOWN_API), "OpenAPI lists " + operations);
        List<String> problems = new ArrayList<>();
        for (String operation : operations) {
            String method = operation.substring(0, operation.indexOf(' '));
            String path = operation.substring(operation.indexOf(' ') + 1).replaceAll("\\{[^}]+}", "1");
            check(problems, operation, method, path);
        }
        for (String page : PAGES) {
            check(problems, "GET " + page, "GET", page);
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void callbacksAndHealthStayPublic() {
        assertEquals(200, Http.get("/health").statusCode());
        assertEquals(200, Http.get("/health/ready").statusCode());
        HttpResponse<String> callback = Http.get("/wecom/callback/customer");
        // refused by the signature check (JSON reason), not by a login
        assertEquals(401, callback.statusCode());
        assertTrue(callback.body().contains("missing_signature"), callback.body());
        assertTrue(callback.headers().firstValue("WWW-Authenticate").isEmpty(), "no login asked for callbacks");
    }

    @Test
    void anonymousHealthSaysUpOrDownPerCheckAndOnlyTheAdminSeesDetails() {
        String health = Http.get("/health").body();
        assertTrue(health.contains("\"name\":\"ack-path\""), health);
        for (String detail : List.of("\"data\"", "host", "Exception", "127.0.0.1")) {
            assertFalse(health.contains(detail), "anonymous /health shows no " + detail + ": " + health);
        }
        HttpResponse<String> details = request("GET", "/api/ops/health", Http.basic(Http.adminUser(),
                Http.adminPassword()));
        assertEquals(200, details.statusCode(), details.body());
        assertTrue(details.body().contains("ack-path"), details.body());
    }

    @Test
    void aStateChangeFromAnotherPortOfTheSameHostIsRefused() {
        // the broker console (or any page) on the same host, another port, is another origin
        URI api = URI.create(StackEnv.baseUrl() + "/api/ops/probes?label=same-host-other-port");
        String otherPort = api.getScheme() + "://" + api.getHost() + ":" + (api.getPort() + 1);
        HttpResponse<String> answer = Http.send(Http.asAdmin(HttpRequest.newBuilder(api)
                .header("Origin", otherPort).POST(HttpRequest.BodyPublishers.noBody())));
        assertEquals(403, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("cross_site"), answer.body());
    }

    @Test
    void aStateChangeThatABrowserMarksAsCrossSiteIsRefused() {
        HttpResponse<String> answer = Http.send(Http.asAdmin(HttpRequest.newBuilder(
                        URI.create(StackEnv.baseUrl() + "/api/ops/probes?label=cross-site"))
                .header("Origin", "http://evil.example").POST(HttpRequest.BodyPublishers.noBody())));
        assertEquals(403, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("cross_site"), answer.body());
    }

    @Test
    void errorsNeverEchoTheCredentials() {
        HttpResponse<String> wrong = request("GET", "/api/ops/dashboard/queues", Http.basic(Http.adminUser(), "not-it-5e3"));
        assertEquals(401, wrong.statusCode());
        assertFalse(wrong.body().contains("not-it-5e3"));
    }

    /** The test server's wrong passwords per source before a lock (security-test.xml). */
    private static final int SOURCE_FAILURES = 5;
    /** ... and how long the lock lasts, in seconds (the same file). */
    private static final int LOCKOUT_SECONDS = 10;

    @Test
    void afterFiveWrongPasswordsFromOneSourceEvenTheRightOneIsRefusedUntilTheLockRunsOut() throws Exception {
        // loopback addresses of their own: 127.0.0.1, which every other test uses, is never locked out
        String guesser = "127.0.0.41";
        String bystander = "127.0.0.42";
        SkipOutsideCi.assumeOrFailInCi(canConnectFrom(guesser) && canConnectFrom(bystander),
                "this machine cannot connect from the loopback aliases 127.0.0.41 and .42");
        String right = Http.basic(Http.adminUser(), Http.adminPassword());
        String wrong = Http.basic(Http.adminUser(), "not-the-password-7d1");

        int wrongAnswered401 = 0;
        RawResponse answer = fromSource(guesser, "/api/ops/health", wrong);
        while (answer.status() == 401 && wrongAnswered401 < 20) {
            wrongAnswered401++;
            answer = fromSource(guesser, "/api/ops/health", wrong);
        }
        assertEquals(SOURCE_FAILURES, wrongAnswered401, "wrong passwords answered 401 before the lock");
        assertEquals(429, answer.status(), answer.toString());

        RawResponse locked = fromSource(guesser, "/api/ops/health", right);
        assertEquals(429, locked.status(), "the right password from the locked source: " + locked);
        assertTrue(locked.body().contains("locked_out"), locked.body());
        assertFalse(locked.headers().containsKey("www-authenticate"), "no challenge while locked");
        long retryAfter = Long.parseLong(locked.headers().getOrDefault("retry-after", "-1"));
        assertTrue(retryAfter >= 1 && retryAfter <= LOCKOUT_SECONDS, "Retry-After " + retryAfter);
        assertFalse(locked.body().contains("not-the-password-7d1"), "no credential echoed");

        RawResponse other = fromSource(bystander, "/api/ops/health", right);
        assertEquals(200, other.status(), "another source logs in meanwhile: " + other);

        Thread.sleep((retryAfter + 1) * 1000);
        RawResponse after = fromSource(guesser, "/api/ops/health", right);
        assertEquals(200, after.status(), "the lock ran out: " + after);
    }

    @Test
    void theApplicationsBrokerUserReadsQueueDepthsButChangesAndReadsNoMessage() throws Exception {
        String user = StackEnv.get("ARTEMIS_MONITOR_USER", "wecom-monitor");
        String password = StackEnv.get("ARTEMIS_MONITOR_PASSWORD", null);
        assertNotNull(password, "ARTEMIS_MONITOR_PASSWORD (target/stack/secrets.env)");
        URI jolokia = URI.create("http://127.0.0.1:" + BrokerConsole.livePort() + "/console/jolokia");
        String probeQueue = BrokerConsole.queueMbean("wecom.probe", "anycast", "wecom.probe");

        // what the application does: a wildcard read of attributes, here one queue's depth
        JsonObject depth = JolokiaClient.values(new JolokiaClient(jolokia, user, password).read(
                "org.apache.activemq.artemis:broker=*,component=addresses,address=\"wecom.probe\",subcomponent=queues,"
                        + "routing-type=*,queue=\"wecom.probe\"", List.of("MessageCount")));
        assertEquals(1, depth.size(), depth.toString());
        assertEquals(JsonValue.ValueType.NUMBER,
                depth.values().iterator().next().asJsonObject().get("MessageCount").getValueType(), depth.toString());

        // an operation that changes the broker, harmless if it ever ran (its filter matches no message) ...
        JsonObject removeNothing = Json.createObjectBuilder().add("type", "exec").add("mbean", probeQueue)
                .add("operation", "removeMessages(java.lang.String)")
                .add("arguments", Json.createArrayBuilder().add("wecomItNoSuchProperty = 'none'")).build();
        assertRefused(jolokia(jolokia, user, password, removeNothing), "removeMessages as " + user);
        // ... which the broker's administrator may run: the refusal is about the role, not the call
        JolokiaAnswer asAdmin = jolokia(jolokia, StackEnv.get("ARTEMIS_ADMIN_USER", "admin"),
                StackEnv.get("ARTEMIS_ADMIN_PASSWORD", ""), removeNothing);
        assertEquals(200, asAdmin.json() == null ? -1 : asAdmin.json().getInt("status", 0), "as admin: " + asAdmin);

        assertRefused(jolokia(jolokia, user, password, Json.createObjectBuilder().add("type", "exec")
                .add("mbean", BrokerConsole.brokerMbean()).add("operation", "deleteAddress(java.lang.String)")
                .add("arguments", Json.createArrayBuilder().add("wecom-it.no-such-address")).build()),
                "deleteAddress as " + user);
        // a message's body is not an attribute this user may read
        assertRefused(jolokia(jolokia, user, password, Json.createObjectBuilder().add("type", "read")
                .add("mbean", probeQueue).add("attribute", "FirstMessageAsJSON").build()),
                "FirstMessageAsJSON as " + user);
    }

    /** One Jolokia answer: the HTTP status, and the JSON body when there is one. */
    private record JolokiaAnswer(int http, JsonObject json) {
    }

    private static JolokiaAnswer jolokia(URI jolokia, String user, String password, JsonObject request) {
        HttpResponse<String> response = Http.send(HttpRequest.newBuilder(URI.create(jolokia + "/"))
                .header("Authorization", Http.basic(user, password))
                .header("Origin", "http://127.0.0.1") // Jolokia answers 403 unless the Origin is the console's host
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(request.toString())));
        assertNotNull(response, "the broker console answers");
        JsonObject json = null;
        if (response.body().strip().startsWith("{")) {
            try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
                json = reader.readObject();
            }
        }
        return new JolokiaAnswer(response.statusCode(), json);
    }

    /** Refused for want of rights: HTTP 403, or Jolokia's JSON status 403 / a SecurityException, never a result. */
    private static void assertRefused(JolokiaAnswer answer, String what) {
        int status = answer.json() == null ? answer.http() : answer.json().getInt("status", answer.http());
        String type = answer.json() == null ? "" : answer.json().getString("error_type", "");
        String error = answer.json() == null ? "" : answer.json().getString("error", "");
        assertTrue(answer.http() == 403 || status == 403 || type.contains("SecurityException")
                || error.contains("not authorized"), what + " must be refused for want of rights: " + answer);
        assertFalse(answer.json() != null && answer.json().getInt("status", 0) == 200, what + " ran: " + answer);
    }

    /** An HTTP answer read off a socket. */
    private record RawResponse(int status, Map<String, String> headers, String body) {
    }

    private static boolean canConnectFrom(String localAddress) {
        URI base = URI.create(StackEnv.baseUrl());
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * GET {@code path} from the local address {@code source} (a loopback alias), the server seeing it as the
     * client's address: java.net.http cannot choose its local address on Java 17.
     */
    private static RawResponse fromSource(String source, String path, String authorization) throws IOException {
        URI base = URI.create(StackEnv.baseUrl());
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort() + "\r\n"
                    + "Authorization: " + authorization + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            String head = end < 0 ? text : text.substring(0, end);
            String[] lines = head.split("\r\n");
            Map<String, String> headers = new HashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon > 0) {
                    headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
                }
            }
            return new RawResponse(Integer.parseInt(lines[0].split(" ")[1]), headers, end < 0 ? "" : text.substring(end + 4));
        }
    }

    private static void check(List<String> problems, String operation, String method, String path) {
        HttpResponse<String> anonymous = request(method, path, null);
        if (anonymous == null || anonymous.statusCode() != 401
                || !anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic")) {
            problems.add(operation + " without login: " + (anonymous == null ? "no answer" : anonymous.statusCode()));
        }
        HttpResponse<String> wrong = request(method, path, Http.basic(Http.adminUser(), "wrong-password"));
        if (wrong == null || wrong.statusCode() != 401) {
            problems.add(operation + " with a wrong password: " + (wrong == null ? "no answer" : wrong.statusCode()));
        }
        HttpResponse<String> admin = request(method, path, Http.basic(Http.adminUser(), Http.adminPassword()));
        int status = admin == null ? -1 : admin.statusCode();
        boolean expectedMissing = path.endsWith("/no-such-file") || path.equals("/api/ops/probes/1")
                || path.startsWith("/api/ops/replays/1") || path.equals("/api/ops/reconcile-runs/1");
        // a replay needs a JSON selection, a reconcile pass an app: the admin's empty POST gets past the login
        // and is refused as a request (415 without a JSON content type, 400 without a selection), never started
        boolean expectedInvalid = "POST".equals(method)
                && (path.equals("/api/ops/replays") || path.equals("/api/ops/reconcile-runs"));
        boolean ok = status >= 200 && status < 400 || expectedMissing && status == 404
                || expectedInvalid && (status == 400 || status == 415);
        if (!ok) {
            problems.add(operation + " as admin: " + status);
        }
    }

    private static HttpResponse<String> request(String method, String path, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(StackEnv.baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return Http.send(request);
    }

    /** "METHOD path" of every operation under /api in the server's OpenAPI document. */
    private static Set<String> apiOperations() {
        HttpResponse<String> document = Http.get("/openapi?format=JSON");
        assertNotNull(document);
        assertEquals(200, document.statusCode());
        Set<String> operations = new TreeSet<>();
        try (JsonReader reader = Json.createReader(new StringReader(document.body()))) {
            JsonObject paths = reader.readObject().getJsonObject("paths");
            paths.forEach((path, item) -> {
                if (path.startsWith("/api/")) {
                    item.asJsonObject().keySet().stream()
                            .filter(k -> Set.of("get", "put", "post", "delete", "patch", "head", "options").contains(k))
                            .forEach(k -> operations.add(k.toUpperCase() + " " + path));
                }
            });
        }
        return operations;
    }
}
