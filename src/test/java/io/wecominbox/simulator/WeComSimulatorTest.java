package io.wecominbox.simulator;

import com.sun.net.httpserver.HttpServer;
import io.wecominbox.crypto.EncodingAesKeys;
import io.wecominbox.crypto.WeComCrypto;
import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.DeliveryStatus;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.scenario.Scenario;
import io.wecominbox.simulator.scenario.ScenarioFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The facade against a naive app (no dedup) that decrypts callbacks and sends a welcome for each code. */
class WeComSimulatorTest {

    private static final WeComApp APP = new WeComApp("customer", "wwcorp123", "tokenXYZ",
            EncodingAesKeys.generate(), "1000002", "secretXYZ");

    private HttpServer naiveApp;
    private WeComSimulator sim;
    private final List<String> decrypted = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        naiveApp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        naiveApp.setExecutor(Executors.newCachedThreadPool());
        naiveApp.createContext("/wecom/callback/customer", exchange -> {
            try (exchange) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                int status = handleCallback(exchange.getRequestURI().getRawQuery(), body) ? 200 : 400;
                byte[] out = "success".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, out.length);
                try (OutputStream os = exchange.getResponseBody()) {
                    os.write(out);
                }
            }
        });
        naiveApp.start();
        sim = WeComSimulator.builder().app(APP)
                .callbackBase(URI.create("http://127.0.0.1:" + naiveApp.getAddress().getPort() + "/wecom/callback"))
                .timeScale(0.01).ackTimeout(Duration.ofSeconds(2)).seed(1).build().start();
    }

    @AfterEach
    void stop() {
        sim.close();
        naiveApp.stop(0);
    }

    /** Verifies, decrypts and, when the event has a WelcomeCode, sends a welcome: no dedup at all. */
    private boolean handleCallback(String rawQuery, String body) {
        try {
            Map<String, String> q = new HashMap<>();
            for (String pair : rawQuery.split("&")) {
                String[] kv = pair.split("=", 2);
                q.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
            }
            Matcher m = Pattern.compile("<Encrypt><!\\[CDATA\\[(.*)]]></Encrypt>").matcher(body);
            if (!m.find()) return false;
            WeComCrypto crypto = new WeComCrypto(APP.token(), APP.encodingAesKey(), APP.corpId());
            String xml = crypto.verifyAndDecrypt(q.get("msg_signature"), q.get("timestamp"), q.get("nonce"), m.group(1));
            decrypted.add(xml);
            Matcher code = Pattern.compile("<WelcomeCode><!\\[CDATA\\[(.*?)]]>").matcher(xml);
            if (code.find()) {
                sendWelcome(code.group(1));
            }
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private void sendWelcome(String code) throws Exception {
        String tokenJson = http.send(HttpRequest.newBuilder(sim.apiBaseUrl().resolve(WeComApiPaths.GET_TOKEN
                + "?corpid=wwcorp123&corpsecret=secretXYZ")).build(), HttpResponse.BodyHandlers.ofString()).body();
        String token = jakarta.json.Json.createReader(new StringReader(tokenJson)).readObject().getString("access_token");
        http.send(HttpRequest.newBuilder(sim.apiBaseUrl().resolve(WeComApiPaths.SEND_WELCOME_MSG + "?access_token=" + token))
                .POST(HttpRequest.BodyPublishers.ofString("{\"welcome_code\":\"" + code + "\",\"text\":{\"content\":\"hi\"}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void sentEventArrivesDecryptableAndIsAcknowledgedOnce() {
        DeliveryOutcome outcome = sim.send("customer", EventType.ADD_EXTERNAL_CONTACT);

        assertTrue(outcome.acknowledged());
        assertEquals(1, outcome.attemptCount());
        assertEquals(List.of(outcome.event().xml()), decrypted);
        assertEquals(1, sim.successfulWelcomeSends(outcome.event().welcomeCode()));
        assertEquals(1, sim.calls(WeComApiPaths.SEND_WELCOME_MSG));
    }

    @Test
    void lostAckMakesTheAppSeeTheEventTwiceButTheWelcomeIsSentOnlyOnce() {
        sim.loseNextAcks(1);

        DeliveryOutcome outcome = sim.send("customer", EventType.ADD_EXTERNAL_CONTACT);

        assertEquals(List.of(DeliveryStatus.LOST_ACK, DeliveryStatus.ACKED),
                outcome.attempts().stream().map(a -> a.status()).toList());
        assertEquals(2, decrypted.size());
        assertEquals(2, sim.calls(WeComApiPaths.SEND_WELCOME_MSG), "the naive app tried twice");
        assertEquals(1, sim.successfulWelcomeSends(outcome.event().welcomeCode()));
        assertEquals(1, sim.apiCalls().countWithErrcode(WeComApiPaths.SEND_WELCOME_MSG, 41051));
    }

    @Test
    void injectedApiFaultHitsTheNextCallOnly() {
        sim.injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SYSTEM_BUSY, 1);

        DeliveryOutcome first = sim.send("customer", EventType.ADD_EXTERNAL_CONTACT);
        DeliveryOutcome second = sim.send("customer", EventType.ADD_EXTERNAL_CONTACT);

        assertEquals(0, sim.successfulWelcomeSends(first.event().welcomeCode()), "the naive app does not retry");
        assertEquals(1, sim.successfulWelcomeSends(second.event().welcomeCode()));
    }

    @Test
    void sendManyDeliversConcurrentlyAndCountsEveryAttempt() {
        List<DeliveryOutcome> outcomes = sim.send("customer", EventType.TEXT_MESSAGE, 20);

        assertEquals(20, outcomes.size());
        assertTrue(outcomes.stream().allMatch(DeliveryOutcome::acknowledged));
        assertEquals(20, sim.deliveries().events());
        assertEquals(20, sim.deliveries().acknowledgedEvents());
        assertTrue(sim.ackLatencyP99().compareTo(sim.ackLatencyP50()) >= 0);
        assertTrue(sim.statusLine().startsWith("events=20 deliveries=20 retries=0 acked=20"), sim.statusLine());
    }

    @Test
    void scenarioRunsAtItsRateAndMemberCreationSendsTwoCallbacks() throws Exception {
        Properties p = new Properties();
        p.load(new StringReader("rate=40\nduration=250ms\nmix.create_user=1\n"));
        Scenario scenario = ScenarioFiles.parse("burst", p);

        ScenarioResult result = sim.runScenario(scenario);

        assertEquals(20, result.callbacks(), "10 member creations, two callbacks each");
        assertEquals(20, result.acknowledged());
        assertTrue(result.elapsed().compareTo(Duration.ofMillis(200)) >= 0, "paced at the scenario's rate");
    }

    @Test
    void controlEndpointReportsDeliveriesAndTakesPlatformFaults() throws Exception {
        HttpResponse<String> fault = http.send(HttpRequest.newBuilder(sim.apiBaseUrl().resolve("/sim/faults"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"side\":\"platform\",\"loseNextAcks\":1}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, fault.statusCode());

        sim.send("customer", EventType.TEXT_MESSAGE);

        String deliveries = http.send(HttpRequest.newBuilder(sim.apiBaseUrl().resolve("/sim/deliveries")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        var json = jakarta.json.Json.createReader(new StringReader(deliveries)).readObject();
        assertEquals(2, json.getInt("attempts"));
        assertEquals(1, json.getInt("retries"));
        assertEquals(1, json.getJsonObject("byStatus").getInt("LOST_ACK"));
    }

    @Test
    void apiOnlySimulatorRefusesToSendCallbacks() {
        try (WeComSimulator apiOnly = WeComSimulator.builder().app(APP).build().start()) {
            assertThrows(IllegalStateException.class, () -> apiOnly.send("customer", EventType.TEXT_MESSAGE));
            assertTrue(apiOnly.apiBaseUrl().getPort() > 0);
        }
    }
}
