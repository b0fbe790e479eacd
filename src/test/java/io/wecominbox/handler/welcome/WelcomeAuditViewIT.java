package io.wecominbox.handler.welcome;

import static io.wecominbox.testsupport.ExternalContactEvents.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.ExternalContactEvents;
import io.wecominbox.testsupport.FakeWeComExtension;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The DBA's view welcome_audit (V32) on rows the real stack wrote: WeCom (the simulator) delivers welcome
 * events, retries included, the welcome handler sends through the simulator's API, and the view must give
 * one row per WelcomeCode that says how often it came, whether one welcome went out, and how late.
 */
@ExtendWith(ArquillianExtension.class)
class WelcomeAuditViewIT {

    private static final String APP = "customer";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final FakeWeComExtension WECOM = new FakeWeComExtension();

    private final SignedCallbacks signed = SignedCallbacks.forStackApp(APP);
    private final ExternalContactEvents events = new ExternalContactEvents(signed.corpId());

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void aWelcomeDeliveredThreeTimesByPlatformRetriesIsOneRowThreeDeliveriesSentOnce() throws Exception {
        WECOM.simulator().loseNextAcks(2); // WeCom re-sends the same event twice (time scale 0.05: +0.25 s, +0.5 s)
        SimEvent event = WECOM.simulator().newEvent(APP, EventType.ADD_EXTERNAL_CONTACT);
        DeliveryOutcome delivery = WECOM.simulator().deliver(event);
        assertEquals(3, delivery.attemptCount());
        String key = APP + ":" + EventKeys.keyOf(WeComEvent.parse(event.xml()));
        awaitOutcome(event.welcomeCode());
        // the dedup's verdicts on the two repeats are written about a second after the fact
        assertTrue(Poll.until(WAIT, () -> Sql.count("SELECT duplicates_absorbed FROM welcome_audit"
            + " WHERE welcome_code = ?", event.welcomeCode()) == 2), "two repeats absorbed by dedup");

        assertEquals(1, Sql.count("SELECT count(*) FROM welcome_audit WHERE welcome_code = ?", event.welcomeCode()));
        Map<String, Object> row = auditRow(event.welcomeCode());
        assertEquals(key, row.get("event_key"));
        assertEquals(3L, row.get("deliveries"));
        assertEquals("SENT", row.get("status"));
        assertEquals(1, row.get("successful_sends"));
        assertEquals(true, row.get("sent_once"));
        assertEquals(0, row.get("errcode"));
        assertEquals(1, WECOM.simulator().successfulWelcomeSends(event.welcomeCode()), "the simulator saw one welcome");
        OffsetDateTime first = (OffsetDateTime) row.get("first_delivered_at");
        OffsetDateTime last = (OffsetDateTime) row.get("last_delivered_at");
        assertTrue(last.isAfter(first), first + " .. " + last);
        long latency = (Long) row.get("latency_ms");
        assertTrue(latency >= 0 && latency < 20_000, "in time: " + latency + " ms");
        OffsetDateTime createdAt = (OffsetDateTime) row.get("event_created_at");
        OffsetDateTime sentAt = (OffsetDateTime) row.get("sent_at");
        // latency_ms is computed from our clock's instant; sent_at is stored with microseconds: ±1 ms
        assertEquals(Duration.between(createdAt, sentAt).toMillis(), latency, 1, "latency is CreateTime to the send");
    }

    @Test
    void aWelcomeThatArrivesAfterItsWindowShowsExpiredAndNoSend() throws Exception {
        String code = newCode();
        long createTime = Instant.now().getEpochSecond() - 25; // the code's 20 s are over when it arrives
        post(code, createTime);

        awaitOutcome(code);
        Map<String, Object> row = auditRow(code);
        assertEquals("EXPIRED", row.get("status"));
        assertEquals(1L, row.get("deliveries"));
        assertEquals(0, row.get("successful_sends"));
        assertEquals(false, row.get("sent_once"));
        assertNull(row.get("latency_ms"));
        assertNull(row.get("sent_at"));
        assertNull(row.get("errcode"), "no call was made");
        assertTrue((Long) row.get("first_delivery_delay_ms") >= 25_000, "it came " + row.get("first_delivery_delay_ms") + " ms late");
        assertEquals(0, WECOM.simulator().successfulWelcomeSends(code));
    }

    @Test
    void aWelcomeDeliveredWithoutARecordedOutcomeShowsNotRecordedWithItsCode() throws Exception {
        // as the ingest writes a delivery whose message no handler has committed yet (no JMS message here)
        String code = newCode();
        long createTime = Instant.now().getEpochSecond() - 3;
        String xml = events.xml("add_external_contact", createTime, fields("UserID", "lisi",
            "ExternalUserID", "wm-audit-" + code.substring(3, 12), "State", "", "WelcomeCode", code));
        String key = APP + ":" + EventKeys.keyOf(WeComEvent.parse(xml));
        try (Connection db = StackEnv.openDatabase(); PreparedStatement insert = db.prepareStatement("""
                -- seeded history, already published: the relay must not send it to the handlers
                INSERT INTO callback_log (received_at, app, corp_id, query_string, raw_body, plaintext, msg_type,
                                          event_type, change_type, event_key, event_created_at, attempt, outcome, published_at)
                VALUES (now(), ?, ?, '', '', ?, 'event', 'change_external_contact', 'add_external_contact', ?, ?, 1,
                        'ENQUEUED', now())
                """)) {
            insert.setString(1, APP);
            insert.setString(2, signed.corpId());
            insert.setString(3, xml);
            insert.setString(4, key);
            insert.setObject(5, OffsetDateTime.ofInstant(Instant.ofEpochSecond(createTime), ZoneOffset.UTC));
            insert.executeUpdate();
        }

        Map<String, Object> row = auditRow(code);
        assertEquals("NOT_RECORDED", row.get("status"));
        assertEquals(key, row.get("event_key"));
        assertEquals("lisi", row.get("user_id"));
        assertEquals(1L, row.get("deliveries"));
        assertEquals(false, row.get("sent_once"));
        assertNull(row.get("recorded_at"));
    }

    // ---- helpers --------------------------------------------------------------------------------------

    private void post(String code, long createTime) {
        WECOM.simulator().welcomeCodes().register(APP, code, Instant.ofEpochSecond(createTime));
        String xml = events.xml("add_external_contact", createTime, fields("UserID", "zhangsan",
            "ExternalUserID", "wm" + code.substring(3, 20), "State", "", "WelcomeCode", code));
        assertEquals(200, new CallbackClient().post(APP, signed.post(xml)).statusCode());
    }

    private static String newCode() {
        return "it-" + UUID.randomUUID().toString().replace("-", "") + "audit";
    }

    private static void awaitOutcome(String code) {
        assertTrue(Poll.until(WAIT, () -> Sql.count("SELECT count(*) FROM welcome_send_log WHERE welcome_code = ?",
            code) == 1), "no welcome_send_log row for the code within " + WAIT);
    }

    /** The view's row for the code, column name → value (exactly one row). */
    private static Map<String, Object> auditRow(String code) throws SQLException {
        try (Connection db = StackEnv.openDatabase();
             PreparedStatement query = db.prepareStatement("SELECT * FROM welcome_audit WHERE welcome_code = ?")) {
            query.setString(1, code);
            try (ResultSet rs = query.executeQuery()) {
                assertTrue(rs.next(), "a welcome_audit row for " + code);
                Map<String, Object> row = new HashMap<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    Object value = rs.getObject(i);
                    if (rs.getMetaData().getColumnTypeName(i).equals("timestamptz") && value != null) {
                        value = rs.getObject(i, OffsetDateTime.class);
                    }
                    row.put(rs.getMetaData().getColumnLabel(i), value);
                }
                assertFalse(rs.next(), "one row per code");
                return row;
            }
        }
    }
}
