package io.wecominbox.handler.bot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.simulator.api.ApiCall;
import io.wecominbox.simulator.api.ApiTiming;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.BrokerPublisher;
import io.wecominbox.testsupport.Deployments;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Black box on the real stack: members' text messages delivered by the simulated WeCom get one reply each
 * through its message/send; a deliberate re-run, published straight to wecom.handler.bot with a batchId
 * through the broker console API (as an operator would), gets exactly one more, traceable by its batch id.
 */
@ExtendWith(ArquillianExtension.class)
class BotHandlerIT {

    private static final String APP = "customer";
    private static final String REPLY = "收到，我们会尽快回复您。";
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final FakeWeComExtension WECOM = new FakeWeComExtension();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    // Other test classes' text messages may still be redelivered to the bot (their replies failed while no
    // fake API listened): each test writes as a member of its own and counts only the replies to that member.
    private final String member = "it.bot." + UUID.randomUUID().toString().substring(0, 8);

    @Test
    void theBotRepliesOnceToATextMessageDeliveredThreeTimes() throws Exception {
        WECOM.simulator().loseNextAcks(2);
        SimEvent message = textMessage("三次送达");
        assertEquals(3, WECOM.simulator().deliver(message).attemptCount());
        WeComEvent event = WeComEvent.parse(message.xml());

        awaitDispositions(keyOf(message), 3);
        List<ReplyRow> rows = awaitReplies(event.msgId(), 1);
        ReplyRow row = rows.get(0);
        assertEquals("SENT", row.status());
        assertEquals(event.fromUserName(), row.toUser());
        assertNull(row.batchId());
        assertTrue(row.duplicateCheck());
        assertNotNull(row.wecomMsgId());
        List<ApiCall> calls = replyCalls();
        assertEquals(1, calls.size(), "one message/send for three deliveries");
        ApiCall call = calls.get(0);
        assertEquals(Optional.of(event.fromUserName()), call.touser());
        assertEquals(Optional.of(REPLY), call.content());
        assertEquals("1", call.extraFields().get("enable_duplicate_check"));
        assertEquals("300", call.extraFields().get("duplicate_check_interval"));
    }

    @Test
    void aReRunWithANewBatchIdRepliesExactlyOnceMoreAndCarriesItsBatchIdToWeCom() throws Exception {
        SimEvent message = textMessage("请再回复一次");
        assertTrue(WECOM.simulator().deliver(message).acknowledged());
        WeComEvent event = WeComEvent.parse(message.xml());
        awaitReplies(event.msgId(), 1);

        String batch = "rerun-" + UUID.randomUUID().toString().substring(0, 8);
        publishReRun(message, batch);
        publishReRun(message, batch); // the same re-run published twice is still one re-run
        awaitDispositions(keyOf(message), 3);
        List<ReplyRow> rows = awaitReplies(event.msgId(), 2);
        assertEquals(batch, rows.get(1).batchId());
        assertFalse(rows.get(1).duplicateCheck(), "a re-run must really send again");
        List<ApiCall> calls = replyCalls();
        assertEquals(2, calls.size());
        assertEquals("\"" + batch + "\"", calls.get(1).extraFields().get(BotHandler.BATCH_FIELD));
        assertNull(calls.get(1).extraFields().get("enable_duplicate_check"));

        String next = batch + "-b";
        publishReRun(message, next);
        rows = awaitReplies(event.msgId(), 3);
        assertEquals(next, rows.get(2).batchId());
        assertEquals(3, replyCalls().size());
    }

    @Test
    void aBatchsRepliesAreCalledTogetherAndEachIsRecordedOnce() throws Exception {
        // WeCom 1 s away: one after the other, the bot's two sessions could never have more than two calls out
        WECOM.simulator().apiTiming(new ApiTiming(Duration.ofSeconds(1), Duration.ZERO, 0, Duration.ZERO));
        List<String> msgIds = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            SimEvent message = textMessage("一批消息 " + i);
            assertTrue(WECOM.simulator().deliver(message).acknowledged());
            msgIds.add(WeComEvent.parse(message.xml()).msgId());
        }
        for (String msgId : msgIds) {
            assertEquals("SENT", awaitReplies(msgId, 1).get(0).status());
        }
        assertEquals(12, replyCalls().size(), "one message/send per message");
        int together = WECOM.simulator().maxConcurrentApiCalls(WeComApiPaths.MESSAGE_SEND);
        assertTrue(together > 2, "the replies of a batch were called together: at most " + together
            + " calls were out at once");
    }

    /** The event's message as the ingest published it, plus a batch id, straight onto the bot's queue. */
    private static void publishReRun(SimEvent message, String batchId) throws Exception {
        String key = keyOf(message);
        long callbackLogId = Sql.count("SELECT min(callback_log_id) FROM callback_log WHERE event_key = ?", key);
        BrokerPublisher.sendText("wecom.handler.bot", Map.of("app", APP, "eventType", "text", "eventKey", key,
            "callbackLogId", Long.toString(callbackLogId), "batchId", batchId), message.xml());
    }

    private static String keyOf(SimEvent message) throws Exception {
        return APP + ":" + EventKeys.keyOf(WeComEvent.parse(message.xml()));
    }

    /** A member's text message to the app, as WeCom sends it, from this test's own member. */
    private SimEvent textMessage(String content) {
        long createTime = Instant.now().getEpochSecond();
        String msgId = Long.toString((1L << 60) + Math.abs(UUID.randomUUID().getMostSignificantBits() >>> 4));
        String xml = "<xml><ToUserName><![CDATA[" + StackEnv.wecomApp(APP, "corp-id") + "]]></ToUserName>"
            + "<FromUserName><![CDATA[" + member + "]]></FromUserName><CreateTime>" + createTime + "</CreateTime>"
            + "<MsgType><![CDATA[text]]></MsgType><Content><![CDATA[" + content + "]]></Content>"
            + "<MsgId>" + msgId + "</MsgId><AgentID>" + StackEnv.wecomApp(APP, "agent-id") + "</AgentID></xml>";
        return new SimEvent("it-" + msgId, APP, EventType.TEXT_MESSAGE, Instant.ofEpochSecond(createTime), xml, null);
    }

    private List<ApiCall> replyCalls() {
        return WECOM.simulator().apiCalls().calls(WeComApiPaths.MESSAGE_SEND).stream()
            .filter(c -> c.touser().filter(member::equals).isPresent()).toList();
    }

    private static void awaitDispositions(String eventKey, int n) {
        assertTrue(Poll.until(WAIT, () -> Sql.count("SELECT count(*) FROM handler_disposition WHERE handler = 'bot'"
            + " AND event_key = ?", eventKey) >= n), "bot did not see " + n + " deliveries");
    }

    private static List<ReplyRow> awaitReplies(String msgId, int n) throws SQLException {
        assertTrue(Poll.until(WAIT, () -> Sql.count("SELECT count(*) FROM bot_reply_log WHERE app = ? AND msg_id = ?",
            APP, msgId) >= n), n + " bot_reply_log rows expected");
        assertTrue(Poll.holdsFor(Duration.ofSeconds(1), () -> Sql.count("SELECT count(*) FROM bot_reply_log"
            + " WHERE app = ? AND msg_id = ?", APP, msgId) == n), "and no more than " + n + " bot_reply_log rows");
        List<ReplyRow> rows = new ArrayList<>();
        try (Connection c = StackEnv.openDatabase(); PreparedStatement s = c.prepareStatement(
            "SELECT status, to_user, batch_id, duplicate_check, wecom_msgid FROM bot_reply_log"
                + " WHERE app = ? AND msg_id = ? ORDER BY bot_reply_id")) {
            s.setString(1, APP);
            s.setString(2, msgId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new ReplyRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBoolean(4),
                        rs.getString(5)));
                }
            }
        }
        assertEquals(n, rows.size());
        return rows;
    }

    private record ReplyRow(String status, String toUser, String batchId, boolean duplicateCheck,
                            String wecomMsgId) {
    }
}
