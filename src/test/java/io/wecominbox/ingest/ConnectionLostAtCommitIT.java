package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import java.time.Duration;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The database connection dies at the exact commit, as a PostgreSQL restart makes it (the test deployment's
 * {@code LoseConnectionAtCommit} switch, keyed on a marker in the message): first at the group commit, so the
 * delivery is kept in the broker and answered, then at the first drain of it, whose rollback then fails on the
 * dead connection too. No sleep races the machine: the faults land on the commits that carry the marker.
 */
@ExtendWith(ArquillianExtension.class)
class ConnectionLostAtCommitIT {

    private static final String MARKER = "CHAOS_LOSE_CONNECTION_AT_COMMIT";
    private static final String ROWS = "SELECT count(*) FROM callback_log WHERE event_key = ?";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();

    @Test
    void anAcknowledgedDeliveryIsWrittenOnceAfterItsDrainLostTheConnectionAtCommit() {
        String msgId = "23" + System.nanoTime();
        String key = "customer:msg:" + msgId;

        int status = client.post("customer", wecom.post(SampleEvents.textMessage(msgId, MARKER + " at both commits")))
            .statusCode();
        assertEquals(200, status, "the group commit lost its connection: the broker keeps the delivery, WeCom gets 200");

        // Before the fix the failed drain's receipt stayed pending on the pooled session: the delivery was either
        // stuck there or acknowledged by the next commit on that session, and never written.
        assertParkedAndWrittenOnce(key, Duration.ofSeconds(60), "after its first drain lost the connection");
        assertTrue(Poll.until(Duration.ofSeconds(60),
                () -> Sql.count("SELECT count(*) FROM conversation_message WHERE msg_id = ?", msgId) == 1),
            "processed once by the conversation handler");
        assertTrue(Poll.until(Duration.ofSeconds(30),
                () -> BrokerConsole.countMessages("wecom.ingest.pending", "") == 0),
            "nothing left waiting in wecom.ingest.pending");
    }

    @Test
    void aParkedDeliveryIsNeverDeadLetteredHoweverOftenItsDrainFails() {
        String msgId = "24" + System.nanoTime();
        String key = "customer:msg:" + msgId;
        // the group commit, then eleven drains: more than the 10 delivery attempts of the wecom.# default
        int status = client.post("customer", wecom.post(SampleEvents.textMessage(msgId, MARKER + "*12 drains fail")))
            .statusCode();
        assertEquals(200, status, "kept in the broker and acknowledged");

        // The drainer waits 2 s after each failure: ~25 s. Before wecom.ingest.pending had its own address
        // setting, the 10th failed drain moved the delivery to DLQ.wecom.ingest.pending, which nothing reads.
        assertParkedAndWrittenOnce(key, Duration.ofSeconds(90), "after its drain failed 11 times");
    }

    /** The parked delivery of {@code key} gets its callback_log row within {@code bound}, and only one. */
    private static void assertParkedAndWrittenOnce(String key, Duration bound, String when) {
        boolean written = Poll.until(bound, () -> Sql.count(ROWS + " AND parked_id IS NOT NULL", key) == 1);
        assertTrue(written, "the parked delivery has its callback_log row " + when + ": rows=" + Sql.count(ROWS, key)
            + " waiting in wecom.ingest.pending=" + BrokerConsole.countMessages("wecom.ingest.pending", ""));
        assertTrue(Poll.holdsFor(Duration.ofSeconds(3), () -> Sql.count(ROWS, key) == 1),
            "written once: " + Sql.count(ROWS, key));
    }

    @Test
    void aDeliveryWhoseCommitWentThroughBeforeTheConnectionWasLostKeepsOneRow() {
        String msgId = "25" + System.nanoTime();
        String key = "customer:msg:" + msgId;
        // the group commit commits, then the connection is lost before its answer: the outcome is unknown to us,
        // so the delivery is also kept in the broker; the drainer must find the committed row and skip the copy
        int status = client.post("customer", wecom.post(SampleEvents.textMessage(msgId,
            "CHAOS_LOSE_CONNECTION_AFTER_COMMIT, outcome unknown"))).statusCode();
        assertEquals(200, status, "acknowledged: kept in the broker as well");
        assertTrue(Poll.until(Duration.ofSeconds(60),
                () -> BrokerConsole.countMessages("wecom.ingest.pending", "") == 0),
            "the drainer took the kept copy");
        assertTrue(Poll.holdsFor(Duration.ofSeconds(5), () -> Sql.count(ROWS, key) == 1),
            "one delivery, one row (before: the committed row and the drained copy): " + Sql.count(ROWS, key));
        assertTrue(Poll.until(Duration.ofSeconds(60),
                () -> Sql.count("SELECT count(*) FROM conversation_message WHERE msg_id = ?", msgId) == 1),
            "processed once by the conversation handler");
    }
}
