package io.wecominbox.handler.welcome;

import static io.wecominbox.testsupport.ExternalContactEvents.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.simulator.api.ApiCall;
import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.WeComApiPaths;
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
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Black box on the real stack: WeCom (the simulator in this JVM) delivers add_external_contact callbacks to
 * the server and plays send_welcome_msg on the port the server calls; welcome_send_log and the simulator's
 * call log show what happened to each WelcomeCode. Texts come from src/test/liberty (handlers-test.xml).
 */
@ExtendWith(ArquillianExtension.class)
class WelcomeHandlerIT {

    private static final String APP = "customer";
    private static final String DEFAULT_TEXT = "您好，欢迎添加！有任何问题都可以直接留言。";
    private static final String VIP_TEXT = "尊敬的 VIP 客户，欢迎！专属顾问稍后联系您。";
    private static final String CHAOS_MARKER = "CHAOS_FAIL_AFTER_HANDLE";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final FakeWeComExtension WECOM = new FakeWeComExtension();

    private final SignedCallbacks signed = SignedCallbacks.forStackApp(APP);
    private final CallbackClient client = new CallbackClient();
    private final ExternalContactEvents events = new ExternalContactEvents(signed.corpId());

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    /**
     * The first welcome after a deployment pays the server's lazy start (Redis client, WeCom client and token,
     * executor); on a loaded machine that took seconds, and some tests below leave a code only ~4 s.
     */
    @BeforeAll
    static void aFirstWelcomeWarmsTheServerUp() throws Exception {
        new WelcomeHandlerIT().warmUp();
    }

    private void warmUp() throws Exception {
        String code = newCode();
        post(code, nowSeconds(), "");
        awaitOutcome(code);
    }

    @BeforeEach
    void slowApiAnswersTakeSixSeconds() {
        WECOM.simulator().apiSlowDelay(Duration.ofSeconds(6));
    }

    @Test
    void exactlyOneWelcomePerCodeUnderThreeIdenticalDeliveries() throws Exception {
        WECOM.simulator().loseNextAcks(2);
        SimEvent event = WECOM.simulator().newEvent(APP, EventType.ADD_EXTERNAL_CONTACT);
        DeliveryOutcome delivery = WECOM.simulator().deliver(event);
        assertEquals(3, delivery.attemptCount(), "WeCom re-sent the same bytes twice");

        WelcomeRow row = awaitOutcome(event.welcomeCode());
        awaitDispositions(keyOf(event.xml()), 3);
        assertEquals("SENT", row.status());
        assertEquals(1, row.attemptCount());
        assertEquals(0, row.errcode());
        assertNotNull(row.sentAt());
        assertTrue(row.latencyMs() >= 0 && row.latencyMs() < 20_000, "latency " + row.latencyMs());
        assertEquals(1, WECOM.simulator().successfulWelcomeSends(event.welcomeCode()));
        List<ApiCall> calls = calls(event.welcomeCode());
        assertEquals(1, calls.size(), "one send_welcome_msg call for three deliveries");
        assertEquals(Optional.of(DEFAULT_TEXT), calls.get(0).content());
        assertEquals(3, Sql.count("SELECT count(*) FROM callback_log WHERE event_key = ?", keyOf(event.xml())));
    }

    @Test
    void theStateSelectsItsOwnText() throws Exception {
        String code = newCode();
        post(code, nowSeconds(), "vip");
        WelcomeRow row = awaitOutcome(code);
        assertEquals("SENT", row.status());
        assertEquals("vip", row.state());
        assertEquals("wecom.welcome.customer.state.vip.text", row.textKey());
        assertEquals(Optional.of(VIP_TEXT), calls(code).get(0).content());
    }

    @Test
    void expiredWhenTheFakeApiIsSlowPastTheDeadlineAndNoCallAfterTheDeadline() throws Exception {
        WECOM.simulator().apiSlowDelay(Duration.ofSeconds(9)); // beyond the client's 5 s connect + read timeouts
        WECOM.simulator().injectApiFaultRate(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SLOW, 1.0);
        long createTime = nowSeconds() - 12; // 7-8 s of the window left when it arrives
        String code = newCode();
        post(code, createTime, "");

        WelcomeRow row = awaitOutcome(code);
        assertEquals("EXPIRED", row.status());
        assertTrue(row.effectUnknown(), "a timed-out call may have been performed");
        assertNull(row.sentAt());
        Instant expiry = Instant.ofEpochSecond(createTime).plusSeconds(20);
        Poll.sleep(Math.max(0, Duration.between(Instant.now(), expiry).toMillis()) + 3_000);
        List<ApiCall> calls = calls(code);
        assertFalse(calls.isEmpty());
        assertEquals(row.attemptCount(), calls.size(), "one call per attempt, none after the outcome");
        for (ApiCall call : calls) {
            assertTrue(call.at().isBefore(row.deadlineAt()), "call at " + call.at() + " after the deadline");
        }
    }

    @Test
    void expiredWhenWeComStaysBusyUntilTheDeadlineAfterShortRetries() throws Exception {
        WECOM.simulator().injectApiFaultRate(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SYSTEM_BUSY, 1.0);
        long createTime = nowSeconds() - 15; // 3.5-4.5 s left: room for a few fast retries
        String code = newCode();
        post(code, createTime, "");

        WelcomeRow row = awaitOutcome(code);
        assertEquals("EXPIRED", row.status());
        assertEquals(-1, row.errcode());
        assertFalse(row.effectUnknown(), "-1 means WeCom did nothing");
        assertTrue(row.attemptCount() >= 3, "retried with short delays: " + row.attemptCount() + " attempts");
        Poll.sleep(Math.max(0, Duration.between(Instant.now(), row.deadlineAt()).toMillis()) + 2_000);
        List<ApiCall> calls = calls(code);
        assertEquals(row.attemptCount(), calls.size(), "one call per attempt, none after the outcome");
        calls.forEach(c -> assertTrue(c.at().isBefore(row.deadlineAt()), "call after the deadline: " + c.at()));
        assertEquals(0, WECOM.simulator().successfulWelcomeSends(code));
    }

    @Test
    void alreadySentAfterAFailureBetweenTheSendAndTheCommit() throws Exception {
        // the chaos switch (src/test/liberty/dedup-test.xml) fails the first attempt after the handler's effect
        String code = newCode();
        post(code, nowSeconds(), CHAOS_MARKER);

        WelcomeRow row = awaitOutcome(code);
        assertEquals("ALREADY_SENT", row.status(), "the redelivery learned from 41051 that the first send went out");
        assertEquals(41051, row.errcode());
        assertEquals(2, row.attemptCount());
        assertEquals(1, WECOM.simulator().successfulWelcomeSends(code), "one welcome although the first commit failed");
        assertEquals(2, calls(code).size());
    }

    @Test
    void alreadySentWhenTheAnswerIsLostAfterWeComSent() throws Exception {
        WECOM.simulator().injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.DROP_AFTER_EFFECT, 1);
        String code = newCode();
        post(code, nowSeconds(), "");

        WelcomeRow row = awaitOutcome(code);
        assertEquals("ALREADY_SENT", row.status());
        assertEquals(2, row.attemptCount());
        assertEquals(1, WECOM.simulator().successfulWelcomeSends(code));
    }

    @Test
    void anExpiredAccessTokenIsRefreshedAndTheWelcomeStillGoesOutOnTheFirstAttempt() throws Exception {
        String first = newCode();
        post(first, nowSeconds(), "");
        assertEquals("SENT", awaitOutcome(first).status()); // the server now holds a token
        long gettokenBefore = WECOM.simulator().calls(WeComApiPaths.GET_TOKEN);
        // WeCom expires the token the next send_welcome_msg presents (42001), as when it revokes one early
        WECOM.simulator().injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.INVALIDATE_TOKEN, 1);

        String code = newCode();
        post(code, nowSeconds(), "");
        WelcomeRow row = awaitOutcome(code);
        assertEquals("SENT", row.status());
        assertEquals(1, row.attemptCount(), "the client retried with a fresh token inside the same attempt");
        List<ApiCall> calls = calls(code);
        assertEquals(List.of(42001, 0), calls.stream().map(c -> c.errcode().orElse(null)).toList());
        assertTrue(WECOM.simulator().calls(WeComApiPaths.GET_TOKEN) > gettokenBefore, "a fresh token was fetched");
    }

    @Test
    void anAddWithoutWelcomeCodeAndAnEditSendNothing() throws Exception {
        SimEvent add = WECOM.simulator().newEvent(APP, EventType.ADD_EXTERNAL_CONTACT_WITHOUT_WELCOME_CODE);
        SimEvent edit = WECOM.simulator().newEvent(APP, EventType.EDIT_EXTERNAL_CONTACT);
        assertTrue(WECOM.simulator().deliver(add).acknowledged());
        assertTrue(WECOM.simulator().deliver(edit).acknowledged());
        awaitDispositions(keyOf(add.xml()), 1);
        awaitDispositions(keyOf(edit.xml()), 1);
        assertEquals(0, Sql.count("SELECT count(*) FROM welcome_send_log WHERE event_key IN (?, ?)",
            keyOf(add.xml()), keyOf(edit.xml())), "acknowledged without effect");
    }

    // ---- helpers --------------------------------------------------------------------------------------

    private void post(String code, long createTime, String state) {
        WECOM.simulator().welcomeCodes().register(APP, code, Instant.ofEpochSecond(createTime));
        String xml = events.xml("add_external_contact", createTime, fields("UserID", "zhangsan",
            "ExternalUserID", "wm" + code.substring(3, 20), "State", state, "WelcomeCode", code));
        assertEquals(200, client.post(APP, signed.post(xml)).statusCode());
    }

    private static String newCode() {
        return "it-" + UUID.randomUUID().toString().replace("-", "") + "welcome";
    }

    private static long nowSeconds() {
        return Instant.now().getEpochSecond();
    }

    private static String keyOf(String xml) throws Exception {
        return APP + ":" + EventKeys.keyOf(WeComEvent.parse(xml));
    }

    private static List<ApiCall> calls(String code) {
        return WECOM.simulator().apiCalls().calls(WeComApiPaths.SEND_WELCOME_MSG).stream()
            .filter(c -> c.welcomeCode().filter(code::equals).isPresent()).toList();
    }

    /** Waits until the welcome handler has committed its outcome for the code. */
    private static WelcomeRow awaitOutcome(String code) throws SQLException {
        assertTrue(Poll.until(WAIT, () -> Sql.count("SELECT count(*) FROM welcome_send_log WHERE welcome_code = ?",
            code) == 1), "no welcome_send_log row for the code within " + WAIT);
        return WelcomeRow.read(code);
    }

    /** Waits until the welcome handler has dealt with {@code n} deliveries of the event. */
    private static void awaitDispositions(String eventKey, int n) {
        assertTrue(Poll.until(WAIT, () -> Sql.count("SELECT count(*) FROM handler_disposition WHERE handler ="
            + " 'welcome' AND event_key = ?", eventKey) >= n), "welcome did not see " + n + " deliveries");
    }

    private record WelcomeRow(String status, int attemptCount, Integer errcode, String errmsg, boolean effectUnknown,
                              String state, String textKey, Instant sentAt, Long latencyMs, Instant deadlineAt) {

        static WelcomeRow read(String code) throws SQLException {
            try (Connection c = StackEnv.openDatabase(); PreparedStatement s = c.prepareStatement(
                "SELECT status, attempt_count, errcode, errmsg, effect_unknown, state, text_key, sent_at, latency_ms,"
                    + " deadline_at FROM welcome_send_log WHERE welcome_code = ?")) {
                s.setString(1, code);
                try (ResultSet rs = s.executeQuery()) {
                    assertTrue(rs.next());
                    return new WelcomeRow(rs.getString(1), rs.getInt(2), (Integer) rs.getObject(3), rs.getString(4),
                        rs.getBoolean(5), rs.getString(6), rs.getString(7), instant(rs.getObject(8, OffsetDateTime.class)),
                        (Long) rs.getObject(9), instant(rs.getObject(10, OffsetDateTime.class)));
                }
            }
        }

        private static Instant instant(OffsetDateTime t) {
            return t == null ? null : t.toInstant();
        }
    }
}
