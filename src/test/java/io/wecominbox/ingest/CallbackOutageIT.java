package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
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
 * From outside the server: when the database cannot take the row or the broker is gone, the ingest answers
 * 503 well inside WeCom's 5 s, and the failed attempt leaves nothing behind (the retry is attempt 1).
 */
@ExtendWith(ArquillianExtension.class)
class CallbackOutageIT {

    /** WeCom waits 5 s; leave it room for the network. */
    private static final long MAX_ANSWER_MILLIS = 4000;

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
                lock.setInt(1, DeliveryRecorder.LOCK_NAMESPACE);
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
    void brokerDownAnswers503FastAndRecoversWhenItIsBack() throws Exception {
        assumeTrue(run("artemis.sh", "status").contains("running"), "the broker was not started by the stack script");
        String msgId = "92" + System.nanoTime();
        String key = "customer:msg:" + msgId;
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, "no broker"));
        try {
            run("artemis.sh", "stop");
            assertTrue(Poll.until(Duration.ofSeconds(10), () -> !brokerListening()), "broker stopped");
            assertUnavailableFast(wire);
            assertUnavailableFast(wire);
            assertEquals(0, attempts(key).size(), "the row rolled back with the send");
        } finally {
            run("artemis.sh", "start");
        }
        // Pooled connections to the old broker are purged on first failure; give the pool a few tries.
        assertTrue(Poll.until(Duration.ofSeconds(60), () -> client.post("customer",
                wecom.post(SampleEvents.textMessage("93" + System.nanoTime(), "probe"))).statusCode() == 200),
                "deliveries succeed again once the broker is back");
        assertEquals(200, client.post("customer", wire).statusCode());
        assertEquals(List.of(1), attempts(key));
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
