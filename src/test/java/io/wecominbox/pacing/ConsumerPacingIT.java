package io.wecominbox.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.SampleEvents;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.ingest.HeldWriters;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.BrokerPublisher;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.FakeWeComExtension;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Deadlines decide the order. The callback path is put under pressure exactly (the test deployment's
 * {@code HoldCommits} holds both group-commit writers, and a delivery waits behind them), then a backlog of crm
 * records and a new customer's welcome code arrive on their handlers' queues: the welcome goes out while the
 * pressure lasts, the crm consumer holds back, and once the callbacks are fast again the records catch up, each
 * once. Read through {@code /metrics} (the pressure gauge, the yield timer) and the simulator's call log.
 */
@ExtendWith(ArquillianExtension.class)
class ConsumerPacingIT {

    private static final String APP = "customer";
    private static final int RECORDS = 100;
    private static final int HOLD_MILLIS = 30_000;

    @RegisterExtension
    static final FakeWeComExtension WECOM = new FakeWeComExtension();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private final HeldWriters writers = new HeldWriters(APP);

    @Test
    void underCallbackPressureAWelcomeGoesOutWhileTheCrmBacklogWaitsThenCatchesUp() throws Exception {
        String base = "21" + System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> stalled = new ArrayList<>(writers.holdBoth(base, HOLD_MILLIS));
        stalled.add(writers.post(base + "3", "waits behind the held writers"));
        assertTrue(Poll.until(Duration.ofSeconds(20), () -> gauge("wecom_pacing_pressure") == 1.0),
            "the node sees its callback path under pressure");
        double crmYields = yields("crm");

        List<String> crmKeys = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            String msgId = base + "9" + i;
            String key = APP + ":msg:" + msgId;
            crmKeys.add(key);
            BrokerPublisher.sendText("wecom.handler.crm", Map.of("app", APP, "eventType", "text", "eventKey", key,
                "callbackLogId", "0", "attempt", "1"), SampleEvents.textMessage(msgId, "record " + i));
        }
        SimEvent add = WECOM.simulator().newEvent(APP, EventType.ADD_EXTERNAL_CONTACT);
        WeComEvent parsed = WeComEvent.parse(add.xml());
        BrokerPublisher.sendText("wecom.handler.welcome", Map.of("app", APP, "eventType", parsed.typeName(),
            "changeType", parsed.changeType(), "eventKey", APP + ":" + EventKeys.keyOf(parsed), "callbackLogId", "0",
            "attempt", "1", "createTime", Long.toString(parsed.createTime())), add.xml());

        assertTrue(Poll.until(Duration.ofSeconds(20), () -> WECOM.simulator().successfulWelcomeSends(add.welcomeCode())
            == 1), "the welcome is sent although the callbacks are under pressure");
        assertEquals(1.0, gauge("wecom_pacing_pressure"), "... while the pressure still lasts");
        assertEquals(2, HeldWriters.held(), "... and the writers are still held");
        assertTrue(Poll.until(Duration.ofSeconds(10), () -> yields("crm") > crmYields),
            "the crm consumer held back meanwhile (a wait is counted when it ends, after 5 s at most)");
        assertEquals(2, HeldWriters.held(), "... all of it while the writers were held");
        assertEquals(0.0, yields("welcome"), "the welcome consumer never holds back");

        for (CompletableFuture<HttpResponse<String>> answer : stalled) {
            answer.get(); // the stalled deliveries are answered (503 after the commit bound) whatever came after
        }
        HeldWriters.awaitReleased();
        assertTrue(Poll.until(Duration.ofSeconds(120), () -> Sql.count(
                "SELECT count(*) FROM handler_dedup WHERE handler = 'crm' AND event_key = ANY(?)",
                (Object) crmKeys.toArray(String[]::new)) == RECORDS),
            "the crm backlog catches up once the callbacks are fast again: " + BrokerConsole.countMessages(
                "wecom.handler.crm", "") + " left on its queue");
        assertTrue(Poll.until(Duration.ofSeconds(20), () -> gauge("wecom_pacing_pressure") == 0.0),
            "and the pressure is gone");
    }

    /** The count of the handler's yield timer: how many times its consumer held back; 0 before the first. */
    private static double yields(String handler) {
        return value(scrape(), "wecom_pacing_yield_seconds_count{", "handler=\"" + handler + "\"");
    }

    private static double gauge(String name) {
        return value(scrape(), name + "{");
    }

    private static double value(String metrics, String prefix, String... labels) {
        return metrics.lines().filter(l -> l.startsWith(prefix) && List.of(labels).stream().allMatch(l::contains))
            .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private static String scrape() {
        HttpResponse<String> response = Http.sendTls(Http.asAdmin(HttpRequest.newBuilder(
            Http.tlsUri("/metrics?scope=application")).GET()));
        assertNotNull(response, "the server answers over TLS");
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }
}
