package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testhooks.HoldCommits;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The group commit's writers are both held at their commit (the test deployment's {@code HoldCommits}, keyed on a
 * marker), so a delivery behind them waits; once it has waited longer than {@code wecom.ingest.shed-after-millis}
 * (1 s), the next one is refused at once with 503 {@code ingest_behind} instead of queueing for a slow 503, and
 * WeCom's re-send after the stall is stored as usual. The order of events is forced, never raced: each step waits
 * for the state the last one made (held writers counted in PostgreSQL, an answer received).
 */
@ExtendWith(ArquillianExtension.class)
class WritersBehindIT {

    private static final String ROWS = "SELECT count(*) FROM callback_log WHERE event_key = ?";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();

    @Test
    void behindByMoreThanTheShedBoundANodeRefusesANewDeliveryAtOnceAndStoresItsResend() throws Exception {
        String base = "21" + System.nanoTime();
        // one held delivery per writer, the second sent once the first writer is held, so each takes one
        CompletableFuture<HttpResponse<String>> first = post(base + "1", "CHAOS_HOLD_COMMIT*15000 first writer");
        awaitHeld(1);
        CompletableFuture<HttpResponse<String>> second = post(base + "2", "CHAOS_HOLD_COMMIT*15000 second writer");
        awaitHeld(2);

        // Queued behind the held writers; its 503 after the commit bound (2.5 s) proves it waited longer than 1 s
        // at the head of the queue, where it stays until a writer is free again.
        HttpResponse<String> queued = post(base + "3", "queued behind").get();
        assertEquals(503, queued.statusCode(), queued.body());
        assertEquals(2, held(), "both writers still held");

        HttpResponse<String> shed = post(base + "4", "refused early").get();
        assertEquals(503, shed.statusCode(), shed.body());
        assertTrue(shed.body().contains("\"ingest_behind\""), "a reason the operator can tell apart: " + shed.body());
        assertEquals("1", shed.headers().firstValue("Retry-After").orElse(""));
        assertEquals(2, held(), "refused while both writers were still held");
        assertEquals(0, Sql.count(ROWS, "customer:msg:" + base + "4"), "nothing of the refused delivery is stored");

        // The held commits go through at the end of the stall: those two rows are there, answered 503 or not.
        first.get();
        second.get();
        assertTrue(Poll.until(Duration.ofSeconds(60), () -> held() == 0), "the held writers commit at the end of"
            + " their stall: still held " + held());
        assertEquals(1, Sql.count(ROWS, "customer:msg:" + base + "1"));
        assertEquals(1, Sql.count(ROWS, "customer:msg:" + base + "2"));

        // WeCom re-sends the refused delivery 5 s later: stored once, as its first attempt
        HttpResponse<String> resent = post(base + "4", "refused early").get();
        assertEquals(200, resent.statusCode(), resent.body());
        assertEquals(1, Sql.count(ROWS, "customer:msg:" + base + "4"));
    }

    private CompletableFuture<HttpResponse<String>> post(String msgId, String content) {
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, content));
        return CompletableFuture.supplyAsync(() -> client.post("customer", wire));
    }

    /** The writers held at their commit right now, counted in PostgreSQL. */
    private static long held() {
        return Sql.count(HoldCommits.HELD_WRITERS);
    }

    private static void awaitHeld(int writers) {
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> held() >= writers),
            writers + " writer(s) held at their commit: " + held());
    }
}
