package io.wecominbox.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.handler.HandlerRoute;
import io.wecominbox.ops.metrics.JolokiaClient;
import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.testsupport.ChildProcess;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.testsupport.HandlersInCode;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docs/deploy.md, followed by src/stack/deploy-check.sh on a broker from `artemis create` and a Liberty
 * server from `server create` with only the documented pieces; then signed callbacks in, effects out. Runs in
 * its own Failsafe execution (deploy-check), after the other server-owning suites, beside the stack's
 * PostgreSQL.
 */
@Tag("deploy")
class DeployCheckIT {

    private static final Path DIR = StackEnv.buildDir().resolve("deploy-check");
    private static final int HTTP_PORT = port("DEPLOY_HTTP_PORT", 9089);
    private static final int HTTPS_PORT = port("DEPLOY_HTTPS_PORT", 9449);
    private static final int SIM_API_PORT = port("DEPLOY_SIM_API_PORT", 9098);
    private static final int CONSOLE_PORT = port("DEPLOY_CONSOLE_PORT", 8169);

    @BeforeAll
    static void prepare() throws Exception {
        script("prepare");
    }

    @AfterAll
    static void stop() throws Exception {
        script("stop");
    }

    @Test
    void withTheDatabasePasswordFileMissingTheServerStopsNamingIt() throws Exception {
        // fails unless the server exited by itself, its log naming DB_PASSWORD (the file is put back after)
        script("start", "--without", "db.password");
        String line = Files.readAllLines(serverDir().resolve("logs/messages.log")).stream()
                .filter(l -> l.contains("WeCom Inbox stops the server")).findFirst().orElseThrow();
        assertTrue(line.contains("not set: DB_PASSWORD"), line);
        assertFalse(line.contains("BROKER_PASSWORD"), "only the missing secret is named (the others are files): " + line);
        assertFalse(line.contains("KEYSTORE_PASSWORD") || line.contains("ADMIN_PASSWORD"),
                "an admin's server lists no secrets of its own for the application to check: " + line);
        assertFalse(line.contains(secrets().get("BROKER_PASSWORD")), "no secret's value in the log");
        assertThrows(IOException.class, () -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + HTTP_PORT + "/health/ready")).build(), HttpResponse.BodyHandlers.ofString()),
                "nothing answers on the server's port");
    }

    @Test
    void theDocumentedDeploymentTakesSignedCallbacksAndEveryHandlerActs() throws Exception {
        script("start");
        try (WeComSimulator wecom = simulator()) {
            get("/health/ready");
            // each handler's route: an operator's detail, read by the server as the read-only management user
            String ready = getAsAdmin("/api/ops/health");
            for (HandlerRoute route : HandlersInCode.routes()) {
                assertTrue(ready.contains("\"" + route.handler() + "\":\"routed\""), route.handler() + ": " + ready);
            }
            // the admin login over plain HTTP: refused before any login prompt (docs/deploy.md, "The admin login")
            HttpResponse<String> plain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + HTTP_PORT + "/api/ops/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(403, plain.statusCode(), plain.body());
            assertTrue(plain.body().contains("tls_required"), plain.body());
            assertTrue(plain.headers().firstValue("WWW-Authenticate").isEmpty(), "no Basic challenge over plain HTTP");

            DeliveryOutcome added = wecom.send("customer", EventType.ADD_EXTERNAL_CONTACT);
            DeliveryOutcome text = wecom.send("customer", EventType.TEXT_MESSAGE);
            assertTrue(added.acknowledged() && text.acknowledged(), "WeCom got success for both");

            assertTrue(Poll.until(Duration.ofSeconds(60), () -> wecom.apiCalls().successfulWelcomeSends() == 1),
                    "welcome sent once through the WeCom API: " + wecom.statusLine());
            assertTrue(Poll.until(Duration.ofSeconds(60), () -> wecom.calls(WeComApiPaths.MESSAGE_SEND) >= 1),
                    "the bot replied through the WeCom API: " + wecom.statusLine());
            assertTrue(Poll.until(Duration.ofSeconds(60), () -> count("SELECT count(*) FROM external_contact") >= 1
                    && count("SELECT count(*) FROM conversation_message") >= 1), "contact and conversation rows");
            assertEquals(2, count("SELECT count(DISTINCT event_key) FROM callback_log"), "both deliveries kept");
            // crm takes both the add and the text message and publishes one normalized event each
            assertTrue(Poll.until(Duration.ofSeconds(60), () -> crmOutbound() == 2), "crm.outbound: " + crmOutbound());

            // the operator's side: TLS with the keystore password, the admin login, our metrics
            HttpResponse<String> metrics = Http.sendTls(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                    + HTTPS_PORT + "/metrics?scope=application"))
                    .header("Authorization", Http.basic("admin", secrets().get("ADMIN_PASSWORD"))));
            assertEquals(200, metrics == null ? -1 : metrics.statusCode(), "metrics over TLS with the admin login");
            assertTrue(metrics.body().contains("wecom_deliveries_total"), "the ingest's counter is there");
        } finally {
            script("stop-server");
        }
    }

    private static WeComSimulator simulator() {
        SimulatorConfig config = SimulatorConfig.from(new Properties(),
                new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        return WeComSimulator.builder().config(config).apiPort(SIM_API_PORT).timeScale(0.05)
                .callbackBase(URI.create("http://127.0.0.1:" + HTTP_PORT + "/wecom/callback")).build().start();
    }

    /** The check's server, in the Liberty it unpacked for itself (never the build's). */
    private static Path serverDir() {
        return DIR.resolve("wlp/usr/servers/" + System.getenv().getOrDefault("DEPLOY_LIBERTY_SERVER", "wecomDeployCheck"));
    }

    private static void script(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", StackEnv.stackScript("deploy-check.sh").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = ChildProcess.sharingOutput(command);
        builder.environment().putAll(StackEnv.wecomEnvironment());
        builder.environment().put("WECOM_BUILD_DIR", StackEnv.buildDir().toString());
        Process process = builder.start();
        if (!process.waitFor(600, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("deploy-check.sh " + String.join(" ", args) + " timed out");
        }
        assertEquals(0, process.exitValue(), "deploy-check.sh " + String.join(" ", args) + " (its output above)");
    }

    private static Map<String, String> secrets() throws IOException {
        Map<String, String> values = new HashMap<>();
        for (String line : Files.readAllLines(DIR.resolve("secrets.env"))) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return values;
    }

    private static long count(String sql) {
        String url = "jdbc:postgresql://" + StackEnv.get("DB_HOST", "127.0.0.1") + ":" + StackEnv.get("DB_PORT", "5432")
                + "/" + System.getenv().getOrDefault("DEPLOY_DB_NAME", "wecom_deploy_check_test");
        try (Connection c = DriverManager.getConnection(url,
                System.getenv().getOrDefault("DEPLOY_DB_USER", "wecom_deploy"), secrets().get("DB_PASSWORD"));
             Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        } catch (SQLException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long crmOutbound() {
        try {
            JolokiaClient jolokia = new JolokiaClient(URI.create("http://127.0.0.1:" + CONSOLE_PORT + "/console/jolokia"),
                    "admin", secrets().get("ARTEMIS_ADMIN_PASSWORD"));
            var values = JolokiaClient.values(jolokia.read("org.apache.activemq.artemis:broker=*,component=addresses,"
                    + "address=\"crm.outbound\",subcomponent=queues,routing-type=*,queue=\"crm.outbound\"",
                    List.of("MessageCount")));
            return values.values().stream().mapToLong(v -> v.asJsonObject().getJsonNumber("MessageCount").longValue())
                    .sum();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + HTTP_PORT + path)), path);
    }

    /** Over TLS, as an operator reaches the admin API. */
    private static String getAsAdmin(String path) throws IOException {
        HttpResponse<String> response = Http.sendTls(HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                + HTTPS_PORT + path)).header("Authorization", Http.basic("admin", secrets().get("ADMIN_PASSWORD"))));
        assertEquals(200, response == null ? -1 : response.statusCode(), path);
        return response.body();
    }

    private static String send(HttpRequest.Builder request, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(request.build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return response.body();
    }

    private static int port(String name, int fallback) {
        return Integer.parseInt(System.getenv().getOrDefault(name, Integer.toString(fallback)));
    }
}
