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
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
 * then headless Chromium logs in to the dashboard and must find every panel drawn from that data. The
 * screenshot stays in target/dashboard.png. Takes about two minutes, most of it WeCom's late retry.
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

        try (WeComSimulator wecom = simulator().start()) {
            // the first three answers for this event get "lost": WeCom re-sends at +5 s, +10 s and +84-90 s
            wecom.loseNextAcks(3);
            CompletableFuture<DeliveryOutcome> late = wecom.deliverAsync(wecom.newEvent("customer", EventType.ADD_EXTERNAL_CONTACT));
            Poll.sleep(12_000); // nothing else may be answered before its third attempt
            wecom.loseNextAcks(1);
            CompletableFuture<DeliveryOutcome> once = wecom.deliverAsync(wecom.newEvent("contacts", EventType.CREATE_USER));
            Poll.sleep(7_000);

            forgeRequests();
            for (int round = 0; !late.isDone(); round++) {
                wecom.send(round % 2 == 0 ? "customer" : "contacts", STEADY.get(round % STEADY.size()));
                if (round % 4 == 0) {
                    forgeRequests();
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
        for (String ready : List.of("ingest", "latency", "timeline", "dispositions", "queues", "cleanup", "rejections")) {
            assertEquals("ready", panels.getJsonObject(ready).getString("state"), ready + ": " + panels.getJsonObject(ready));
        }
        assertTrue(seen.getInt("bars") >= 3, "ingest columns: " + seen.getInt("bars"));
        assertTrue(seen.getInt("latencyPoints") >= 3, "latency points: " + seen.getInt("latencyPoints"));
        assertTrue(seen.getInt("wecomRetries") >= 4, "WeCom's retries stand out: " + seen);
        assertEquals(3, seen.getInt("retryWindows"));
        assertTrue(seen.getJsonArray("gapLabels").getValuesAs(JsonString.class).stream()
                .map(JsonString::getString).anyMatch(g -> g.matches("\\+(8[4-9]|9[0-2])s")), "the late retry: " + seen);
        List<String> queues = seen.getJsonArray("queueRows").getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
        assertTrue(queues.containsAll(List.of("wecom.probe", "DLQ")), "queues: " + queues);
        assertTrue(seen.getJsonArray("rejectionReasons").toString().contains("bad_signature"));
        assertTrue(Files.size(screenshot) > 20_000, "a screenshot in " + screenshot);
    }

    private static WeComSimulator simulator() {
        SimulatorConfig config = SimulatorConfig.from(new Properties(), new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        return WeComSimulator.builder().config(config).apiPort(0).timeScale(1.0)
                .callbackBase(URI.create(StackEnv.baseUrl() + "/wecom/callback")).build();
    }

    /** What a scanner or a misconfigured sender does: a wrong signature and an app that does not exist. */
    private static void forgeRequests() {
        CallbackClient client = new CallbackClient();
        SignedCallbacks.Wire wire = SignedCallbacks.forStackApp("customer").post("<xml><MsgType>text</MsgType></xml>");
        client.post("customer", wire.query().replaceFirst("msg_signature=[^&]+", "msg_signature=0000"), wire.body());
        client.post("no-such-app", wire.query(), wire.body());
    }
}
