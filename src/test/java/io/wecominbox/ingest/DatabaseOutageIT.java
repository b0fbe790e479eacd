package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Readiness;
import io.wecominbox.testsupport.SkipOutsideCi;
import io.wecominbox.testsupport.StackEnv;
import io.wecominbox.testsupport.StackScripts;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * From outside the server: PostgreSQL refuses the application (its role may not log in, its sessions are
 * ended: what a stopped server looks like to the pools) while WeCom keeps delivering. The deliveries are
 * kept in the broker and answered 200; with the broker down as well the answer is 503, fast; when the
 * database is back every delivery is in callback_log with its original receipt time and is processed once.
 */
@ExtendWith(ArquillianExtension.class)
class DatabaseOutageIT {

    /** Generous on a loaded machine; WeCom's own limit is 5 s. */
    private static final long MAX_ANSWER_MILLIS = 4000;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();

    @Test
    void withThePostgresqlDownDeliveriesAreKeptInTheBrokerAndWrittenOnceWhenItReturns() throws Exception {
        SkipOutsideCi.assumeOrFailInCi(StackScripts.stackOwnsBroker(), "the broker is not one the stack started");
        String prefix = "96" + System.nanoTime();
        String role = StackEnv.get("DB_USER", "wecom");
        List<Integer> statuses = new ArrayList<>();
        int events = 30;
        OffsetDateTime before;
        refuseLogins(role, true);
        try {
            for (int i = 0; i < events; i++) {
                SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(prefix + i, "while the database is away"));
                statuses.add(timedPost(wire));
                if (i % 10 == 0) { // WeCom's retry of the same event
                    statuses.add(timedPost(wire));
                }
                Thread.sleep(50);
            }
            assertEquals(0, count("SELECT count(*) FROM callback_log WHERE event_key LIKE ?", prefix), "nothing stored yet");
            String details = Readiness.awaitDetails(d -> d.contains("wecom.ingest.pending"));
            String ready = Readiness.await(r -> r.body().contains(Readiness.ACK_PATH_UP)).body();
            assertTrue(ready.contains(Readiness.ACK_PATH_UP) && details.contains("wecom.ingest.pending"),
                "the ACK path accepts through the broker: " + ready + " / " + details);

            StackScripts.run("artemis.sh", "stop");
            try {
                long started = System.nanoTime();
                HttpResponse<String> both = client.post("customer",
                    wecom.post(SampleEvents.textMessage(prefix + "x", "nowhere to keep it")));
                long millis = (System.nanoTime() - started) / 1_000_000;
                assertEquals(503, both.statusCode(), "database and broker down: WeCom must retry");
                assertTrue(millis < MAX_ANSWER_MILLIS, "answered in " + millis + " ms");
                String bothDown = Readiness.await(r -> r.body().contains(Readiness.ACK_PATH_DOWN)).body();
                assertTrue(bothDown.contains(Readiness.ACK_PATH_DOWN), "nowhere to keep a callback: the ACK path is down: "
                    + bothDown);
            } finally {
                StackScripts.run("artemis.sh", "start");
            }
            before = OffsetDateTime.now();
        } finally {
            refuseLogins(role, false);
        }
        assertEquals(List.of(200), statuses.stream().distinct().toList(), "every delivery acknowledged: " + statuses);
        int deliveries = events + (events + 9) / 10;
        assertTrue(Poll.until(Duration.ofSeconds(120), () -> count(
                "SELECT count(*) FROM callback_log WHERE event_key LIKE ? AND parked_id IS NOT NULL", prefix) == deliveries),
            "the drainer wrote every kept delivery once: " + count("SELECT count(*) FROM callback_log WHERE event_key LIKE ?", prefix));
        assertEquals(0, count("SELECT count(*) FROM callback_log WHERE event_key LIKE ? AND received_at > '" + before + "'",
            prefix), "received_at is the arrival, not the drain");
        assertEquals(List.of(1, 2), attempts(prefix + "0"), "a retry kept in the broker is attempt 2");
        assertTrue(Poll.until(Duration.ofSeconds(120), () -> count(
                "SELECT count(*) FROM conversation_message WHERE msg_id LIKE ?", prefix) == events),
            "every event processed: " + count("SELECT count(*) FROM conversation_message WHERE msg_id LIKE ?", prefix));
        assertTrue(Poll.holdsFor(Duration.ofSeconds(5), () -> count("SELECT count(*) FROM callback_log WHERE event_key"
            + " LIKE ?", prefix) == deliveries), "no delivery written twice");
    }

    private int timedPost(SignedCallbacks.Wire wire) {
        long started = System.nanoTime();
        int status = client.post("customer", wire).statusCode();
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < MAX_ANSWER_MILLIS, "answered in " + millis + " ms");
        return status;
    }

    /** What a stopped server is to the pools: no new session for the app's role, the current ones ended. */
    private static void refuseLogins(String role, boolean refuse) throws SQLException {
        try (Connection admin = StackEnv.openDatabaseAsAdmin(); Statement s = admin.createStatement()) {
            s.execute("ALTER ROLE \"" + role.replace("\"", "\"\"") + "\" " + (refuse ? "NOLOGIN" : "LOGIN"));
            if (refuse) {
                try (PreparedStatement end = admin.prepareStatement(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ?")) {
                    end.setString(1, role);
                    end.execute();
                }
            }
        }
    }

    private static long count(String sql, String prefix) {
        try (Connection c = StackEnv.openDatabaseAsAdmin(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, (sql.contains("msg_id") ? "" : "customer:msg:") + prefix + "%");
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Integer> attempts(String msgId) throws SQLException {
        try (Connection c = StackEnv.openDatabaseAsAdmin(); PreparedStatement s = c.prepareStatement(
                "SELECT attempt FROM callback_log WHERE event_key = ? ORDER BY attempt")) {
            s.setString(1, "customer:msg:" + msgId);
            List<Integer> attempts = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    attempts.add(rs.getInt(1));
                }
            }
            return attempts;
        }
    }
}
