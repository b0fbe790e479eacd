package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.callbacklog.CallbackLogInsert;
import io.wecominbox.event.SampleEvents;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Readiness;
import io.wecominbox.testsupport.SkipOutsideCi;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * From outside the server: when the database cannot take the row the ingest answers 503 well inside WeCom's
 * 5 s and the failed attempt leaves nothing behind (the retry is attempt 1); when the broker is gone it keeps
 * answering 200, and what it stored is published and processed once when the broker is back.
 */
@ExtendWith(ArquillianExtension.class)
class CallbackOutageIT {

    /** WeCom waits 5 s; leave it room for the network. */
    private static final long MAX_ANSWER_MILLIS = 4000;
    private static final Duration OUTAGE = Duration.ofSeconds(60);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();

    @Test
    void aKeyLockedInTheDatabaseAnswers503FastAndTheRetryIsAttemptOne() throws Exception {
        String msgId = "91" + System.nanoTime();
        String key = "customer:msg:" + msgId;
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, "locked"));
        try (Connection holder = StackEnv.openDatabase()) {
            // What an in-doubt XA branch of an earlier delivery would hold until recovery resolves it.
            try (PreparedStatement lock = holder.prepareStatement("SELECT pg_advisory_lock(?, hashtext(?))")) {
                lock.setInt(1, CallbackLogInsert.LOCK_NAMESPACE);
                lock.setString(2, key);
                lock.execute();
            }
            assertUnavailableFast(wire);
        }
        assertEquals(0, attempts(key).size(), "nothing written by the failed attempt");
        assertEquals(200, client.post("customer", wire).statusCode());
        assertEquals(List.of(1), attempts(key));
    }

    @Test
    void aMinuteWithoutTheBrokerUnderLoadIsAcknowledgedInFullAndEveryEventRunsOnceWhenItReturns() throws Exception {
        SkipOutsideCi.assumeOrFailInCi(run("artemis.sh", "status").contains("running"),
            "the broker was not started by the stack script");
        String prefix = "94" + System.nanoTime();
        List<String> statuses = new ArrayList<>();
        int sent = 0;
        run("artemis.sh", "stop");
        try {
            assertTrue(Poll.until(Duration.ofSeconds(10), () -> !brokerListening()), "broker stopped");
            long until = System.nanoTime() + OUTAGE.toNanos();
            while (System.nanoTime() < until) {
                String msgId = prefix + sent++;
                SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, "during the outage"));
                statuses.add(Integer.toString(client.post("customer", wire).statusCode()));
                if (sent % 10 == 0) { // WeCom's retry of the same event, as after a lost answer
                    statuses.add(Integer.toString(client.post("customer", wire).statusCode()));
                }
                Thread.sleep(40);
            }
            HttpResponse<String> ready = Readiness.await(Readiness.statusAndBody(503, Readiness.ACK_PATH_UP));
            assertEquals(503, ready.statusCode(), "the pipeline is not whole: " + ready.body());
            assertTrue(ready.body().contains(Readiness.ACK_PATH_UP), "readiness says the ACK path accepts: "
                + ready.body());
            assertTrue(unpublished(prefix) > 0, "the rows wait for the broker");
        } finally {
            run("artemis.sh", "start");
        }
        int events = sent;
        assertEquals(List.of("200"), statuses.stream().distinct().toList(), "every delivery acknowledged");
        assertTrue(Poll.until(Duration.ofSeconds(120), () -> unpublished(prefix) == 0),
            "the backlog drains by itself once the broker is back");
        assertTrue(Poll.until(Duration.ofSeconds(120), () -> conversationRows(prefix) == events),
            "every event reached its handler: " + conversationRows(prefix) + " of " + events);
        assertEquals(events + events / 10, Sql.count("SELECT count(*) FROM callback_log WHERE event_key LIKE ?",
            "customer:msg:" + prefix + "%"), "every delivery kept, retries included");
        // The conversation handler keeps no dedup record and one row per MsgId (its primary key), so neither
        // table can show a message run twice; its dispositions can: one per delivery it committed, with the
        // callback_log row it came from. Each row is published once, so each must have exactly one (two: a
        // row published twice, or a message redelivered after its commit). Written about a second later.
        assertTrue(Poll.until(Duration.ofSeconds(60), () -> deliveriesNotProcessedOnce(prefix) == 0),
            "every delivery processed once by the conversation handler: " + deliveriesNotProcessedOnce(prefix)
                + " of " + (events + events / 10) + " callback_log rows with no or several conversation dispositions");
        assertTrue(Poll.holdsFor(Duration.ofSeconds(3), () -> deliveriesNotProcessedOnce(prefix) == 0),
            "and none processed again later: " + deliveriesNotProcessedOnce(prefix));
    }

    /** callback_log rows of this run that the conversation handler did not commit exactly once. */
    private static long deliveriesNotProcessedOnce(String prefix) {
        String keys = "customer:msg:" + prefix + "%";
        return Sql.count("SELECT count(*) FROM callback_log c LEFT JOIN (SELECT callback_log_id, count(*) AS runs"
            + " FROM handler_disposition WHERE handler = 'conversation' AND event_key LIKE ? GROUP BY callback_log_id)"
            + " d ON d.callback_log_id = c.callback_log_id WHERE c.event_key LIKE ? AND coalesce(d.runs, 0) <> 1",
            keys, keys);
    }

    private static long unpublished(String prefix) {
        return Sql.count("SELECT count(*) FROM callback_log WHERE event_key LIKE ? AND published_at IS NULL",
            "customer:msg:" + prefix + "%");
    }

    private static long conversationRows(String prefix) {
        return Sql.count("SELECT count(*) FROM conversation_message WHERE msg_id LIKE ?", prefix + "%");
    }


    private void assertUnavailableFast(SignedCallbacks.Wire wire) {
        long start = System.nanoTime();
        HttpResponse<String> response = client.post("customer", wire);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(503, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"error\":\"unavailable\""), response.body());
        assertTrue(millis < MAX_ANSWER_MILLIS, "answered in " + millis + " ms");
    }

    private static List<Integer> attempts(String key) throws SQLException {
        try (Connection c = StackEnv.openDatabase();
             PreparedStatement s = c.prepareStatement(
                     "SELECT attempt FROM callback_log WHERE event_key = ? ORDER BY attempt")) {
            s.setString(1, key);
            List<Integer> attempts = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    attempts.add(rs.getInt(1));
                }
            }
            return attempts;
        }
    }

    private static boolean brokerListening() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(StackEnv.get("BROKER_HOST", "127.0.0.1"),
                    Integer.parseInt(StackEnv.get("BROKER_PORT", "61616"))), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String run(String script, String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", StackEnv.stackScript(script).toString(), command)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS));
        return output;
    }
}
