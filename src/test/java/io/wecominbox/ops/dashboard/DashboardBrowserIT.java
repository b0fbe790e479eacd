package io.wecominbox.ops.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.ExternalContactEvents;
import io.wecominbox.testsupport.FakeWeCom;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An operator's view, end to end: the simulator plays WeCom on its real schedule (one event answered only at
 * its late retry, ~84-90 s after the first attempt, another after one retry, steady traffic, forged requests),
 * while the server sends welcomes to the simulator's API; then headless Chromium logs in to the dashboard and
 * must find every panel drawn from that data. The screenshot stays in target/dashboard.png. Takes about two
 * minutes, most of it WeCom's late retry.
 *
 * <p>The retry-span panel measures a week of callback_log, where other tests leave many quick repeats: a few
 * event keys with WeCom's whole retry pattern are written three hours back (outside the other panels'
 * windows), so its P99 is WeCom's late retry and the crm handler's 8 s test hot window is flagged.
 */
@ExtendWith(ArquillianExtension.class)
class DashboardBrowserIT {

    private static final List<EventType> STEADY = List.of(EventType.TEXT_MESSAGE, EventType.ADD_EXTERNAL_CONTACT,
            EventType.EDIT_EXTERNAL_CONTACT, EventType.EXTERNAL_CHAT_UPDATE, EventType.UPDATE_USER, EventType.UNKNOWN_EVENT);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void operatorSeesRealTrafficRetryGapsQueuesAndRejectionsOnTheDashboard() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.require().install();
        seedWeComRetryPatterns(5);

        try (WeComSimulator wecom = simulator().start()) {
            // the first three answers for this event get "lost": WeCom re-sends at +5 s, +10 s and +84-90 s
            wecom.loseNextAcks(3);
            SimEvent lateEvent = wecom.newEvent("customer", EventType.ADD_EXTERNAL_CONTACT);
            CompletableFuture<DeliveryOutcome> late = wecom.deliverAsync(lateEvent);
            // nothing else may be answered before its third attempt has lost the last of those answers
            assertTrue(Poll.until(Duration.ofSeconds(40), () -> wecom.deliveries().attempts(lateEvent.id()).size() >= 3),
                "WeCom re-sent the late event twice: " + wecom.deliveries().attempts(lateEvent.id()));
            wecom.loseNextAcks(1);
            CompletableFuture<DeliveryOutcome> once = wecom.deliverAsync(wecom.newEvent("contacts", EventType.CREATE_USER));
            // its lost first answer, then the +5 s re-send answered
            assertTrue(Poll.until(Duration.ofSeconds(40), once::isDone), "the re-sent event was answered");

            forgeRequests();
            for (int round = 0; !late.isDone(); round++) {
                wecom.send(round % 2 == 0 ? "customer" : "contacts", STEADY.get(round % STEADY.size()));
                if (round % 4 == 0) {
                    forgeRequests();
                }
                if (round < 4) {
                    wecom.send("customer", EventType.ADD_EXTERNAL_CONTACT); // a welcome for the welcome panel
                }
                if (round == 1) {
                    postExpiredWelcome(wecom);
                }
                Poll.sleep(6_000);
            }
            DeliveryOutcome lateOutcome = late.get(10, TimeUnit.SECONDS);
            assertTrue(lateOutcome.acknowledged(), "answered at the late retry: " + lateOutcome.lastStatus());
            assertEquals(4, lateOutcome.attemptCount());
            assertEquals(2, once.get(10, TimeUnit.SECONDS).attemptCount());
        }
        Http.postAsAdmin("/api/ops/probes?label=dashboard"); // some work for the probe queue
        assertTrue(Poll.until(Duration.ofSeconds(30),
                () -> Http.getAsAdmin("/api/ops/dashboard/rejections").body().contains("bad_signature")),
                "the rejection audit flushed");

        Path screenshot = StackEnv.buildDir().resolve("dashboard.png");
        Files.deleteIfExists(screenshot);
        JsonObject seen = chromium.checkDashboard(StackEnv.baseUrl() + "/dashboard/", Http.adminUser(),
                Http.adminPassword(), screenshot);
        System.out.println("[dashboard] " + seen);

        assertEquals(401, seen.getInt("anonymousStatus"), "the dashboard needs a login");
        assertEquals(200, seen.getInt("status"));
        assertEquals(0, seen.getJsonArray("consoleErrors").size(), "no script or CSP errors: " + seen.getJsonArray("consoleErrors"));
        assertEquals(0, seen.getJsonArray("foreignRequests").size(), "nothing loaded from elsewhere");
        JsonObject panels = seen.getJsonObject("panels");
        // dispositions: the handlers consumed the traffic above; cleanup: the dedup job runs every 30 s
        // nodes: this node's heartbeat row in cluster_node (every 5 s from its start)
        for (String ready : List.of("nodes", "ingest", "latency", "timeline", "dispositions", "queues", "cleanup",
                "rejections", "retryspan", "welcomes")) {
            assertEquals("ready", panels.getJsonObject(ready).getString("state"), ready + ": " + panels.getJsonObject(ready));
        }
        // reconcile passes: drawn from GET /api/ops/reconcile-runs (empty or ready, depending on the tests before)
        assertTrue(List.of("ready", "empty").contains(panels.getJsonObject("reconcile").getString("state")),
                "reconcile: " + panels.getJsonObject("reconcile"));
        assertTrue(Integer.parseInt(panels.getJsonObject("nodes").getString("rows")) >= 1, "this node is listed: "
                + panels.getJsonObject("nodes"));
        assertTrue(seen.getInt("bars") >= 3, "ingest columns: " + seen.getInt("bars"));
        assertTrue(seen.getInt("latencyPoints") >= 3, "latency points: " + seen.getInt("latencyPoints"));
        assertTrue(seen.getInt("wecomRetries") >= 4, "WeCom's retries stand out: " + seen);
        assertEquals(3, seen.getInt("retryWindows"));
        assertTrue(seen.getJsonArray("gapLabels").getValuesAs(JsonString.class).stream()
                .map(JsonString::getString).anyMatch(g -> g.matches("\\+(8[4-9]|9[0-2])s")), "the late retry: " + seen);
        List<String> queues = seen.getJsonArray("queueRows").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
        assertTrue(queues.containsAll(List.of("wecom.probe", "DLQ")), "queues: " + queues);
        assertTrue(seen.getJsonArray("rejectionReasons").toString().contains("bad_signature"));
        assertRetrySpanPanelShowsTheApisComparison(seen);
        assertWelcomePanelShowsRecentSends(seen);
        assertTrue(Files.size(screenshot) > 20_000, "a screenshot in " + screenshot);
    }

    /** The panel draws what GET /api/ops/retry-span says, and flags the crm handler's short hot window. */
    private static void assertRetrySpanPanelShowsTheApisComparison(JsonObject seen) {
        JsonObject api = json(Http.getAsAdmin("/api/ops/retry-span?period=P7D").body());
        JsonObject panel = seen.getJsonObject("retrySpan");
        assertEquals("ready", seen.getJsonObject("panels").getJsonObject("retryspan").getString("state"));
        assertEquals("MEASURED", api.getString("status"));
        assertEquals(api.getJsonNumber("p99SpanSeconds").doubleValue(), panel.getJsonNumber("p99").doubleValue(), 0.001);
        assertTrue(panel.getJsonNumber("p99").doubleValue() >= 80, "WeCom's late retry sets the P99: " + api);
        assertEquals(1, panel.getInt("impliedBands"));
        assertEquals(1, panel.getInt("p99Lines"));
        Map<String, String> apiVerdicts = api.getJsonArray("handlers").getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(h -> h.getString("handler"), h -> h.getString("verdict")));
        Map<String, JsonObject> rows = panel.getJsonArray("handlers").getValuesAs(JsonObject.class).stream()
                .collect(Collectors.toMap(h -> h.getString("handler"), Function.identity()));
        assertEquals(apiVerdicts.keySet(), rows.keySet(), "one row per handler");
        rows.forEach((handler, row) -> assertEquals(apiVerdicts.get(handler), row.getString("verdict"), handler));
        JsonObject crm = rows.get("crm");
        assertEquals("SHORTER_THAN_IMPLIED", crm.getString("verdict"), "crm runs with an 8 s hot window in the tests");
        assertEquals(1, crm.getInt("bars"));
        assertTrue(crm.getString("note").contains("shorter than implied"), crm.toString());
        assertEquals("COVERS", rows.get("welcome").getString("verdict"), "15 min covers ~4.5 min");
        List<String> warnings = panel.getJsonArray("warnings").getValuesAs(JsonString.class).stream()
                .map(JsonString::getString).toList();
        assertEquals(api.getJsonArray("warnings").size(), warnings.size());
        assertTrue(warnings.stream().anyMatch(w -> w.startsWith("crm: hot window PT8S")), "warnings: " + warnings);
    }

    /** Welcomes of the steady traffic went out through the simulator's API: their rows, latency and errcode 0. */
    private static void assertWelcomePanelShowsRecentSends(JsonObject seen) {
        assertEquals("ready", seen.getJsonObject("panels").getJsonObject("welcomes").getString("state"));
        List<JsonObject> rows = seen.getJsonArray("welcomeRows").getValuesAs(JsonObject.class);
        assertTrue(rows.stream().anyMatch(r -> r.getString("status").equals("SENT")
                && r.getString("latency").matches("\\d+ ms|\\d+\\.\\d s") && r.getString("errcode").equals("0")
                && r.getInt("latencyBars") == 1), "a sent welcome with its latency: " + rows);
        assertTrue(rows.stream().anyMatch(r -> r.getString("status").equals("EXPIRED") && r.getString("latency").equals("–")
                && r.getInt("latencyBars") == 0), "the late add shows as EXPIRED without latency: " + rows);
        for (JsonObject row : rows) {
            assertTrue(row.getString("code").length() <= 11, "codes are shortened: " + row);
        }
    }

    /**
     * Event keys delivered at 0, 5, 10 and 88 s, three hours ago, as the ingest writes them (the same seeding as
     * RetryDiagnosisIT); app "dashboard-seed" is no configured app, so nothing consumes them.
     */
    private static void seedWeComRetryPatterns(int keys) throws SQLException {
        OffsetDateTime start = OffsetDateTime.now(ZoneOffset.UTC).minusHours(3);
        double[] offsets = {0, 5, 10, 88};
        try (Connection db = StackEnv.openDatabase(); PreparedStatement insert = db.prepareStatement("""
                -- seeded history, already published: the relay must not send it to the handlers
                INSERT INTO callback_log (received_at, app, corp_id, query_string, raw_body, plaintext,
                                          event_type, event_key, attempt, outcome, published_at)
                VALUES (?, 'dashboard-seed', 'ww0', '', '', '', 'text', ?, ?, 'ENQUEUED', now())
                """)) {
            for (int k = 0; k < keys; k++) {
                String key = "dashboard-seed:msg:" + UUID.randomUUID();
                for (int i = 0; i < offsets.length; i++) {
                    insert.setObject(1, start.plusSeconds(k * 120L).plusNanos((long) (offsets[i] * 1e9)));
                    insert.setString(2, key);
                    insert.setInt(3, i + 1);
                    insert.addBatch();
                }
            }
            insert.executeBatch();
        }
    }

    private static JsonObject json(String body) {
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }

    private static WeComSimulator simulator() {
        SimulatorConfig config = SimulatorConfig.from(new Properties(), new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        // the fake API on the port the server calls, so the welcome handler's sends succeed (welcome panel)
        return WeComSimulator.builder().config(config).apiPort(FakeWeCom.apiPort()).timeScale(1.0)
                .callbackBase(URI.create(StackEnv.baseUrl() + "/wecom/callback")).build();
    }

    /** An add whose WelcomeCode's 20 s were over when it arrived: the welcome panel shows it EXPIRED. */
    private static void postExpiredWelcome(WeComSimulator wecom) {
        String code = "dash-" + UUID.randomUUID().toString().replace("-", "") + "expired";
        long createTime = Instant.now().getEpochSecond() - 25;
        wecom.welcomeCodes().register("customer", code, Instant.ofEpochSecond(createTime));
        SignedCallbacks signed = SignedCallbacks.forStackApp("customer");
        String xml = new ExternalContactEvents(signed.corpId()).xml("add_external_contact", createTime,
                ExternalContactEvents.fields("UserID", "zhangsan", "ExternalUserID", "wm-dash-late", "State", "",
                        "WelcomeCode", code));
        assertEquals(200, new CallbackClient().post("customer", signed.post(xml)).statusCode());
    }

    /** What a scanner or a misconfigured sender does: a wrong signature and an app that does not exist. */
    private static void forgeRequests() {
        CallbackClient client = new CallbackClient();
        SignedCallbacks.Wire wire = SignedCallbacks.forStackApp("customer").post("<xml><MsgType>text</MsgType></xml>");
        client.post("customer", wire.query().replaceFirst("msg_signature=[^&]+", "msg_signature=0000"), wire.body());
        client.post("no-such-app", wire.query(), wire.body());
    }
}
