package io.wecominbox.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.InDoubt;
import io.wecominbox.testsupport.LibertyAndWeComExtension;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.ReplayApi;
import io.wecominbox.testsupport.ReplayedEffects;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kill -9 of Liberty in the middle of a slow forced re-run (batch id), with chunks already published and
 * being consumed: after the restart the server marks its own replay FAILED as interrupted, every in-doubt
 * branch is resolved, and sending the same request again (same batch id), as docs/operations.md tells the
 * operator, completes the batch with exactly one effect per handler and event: none doubled by the chunks
 * published before the crash, none missing.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
class ReplayInterruptedByCrashIT {

    private static final String APP = "customer";
    private static final int EVENTS = 40;
    private static final int HANDLERS = 2;
    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final LibertyAndWeComExtension STACK = new LibertyAndWeComExtension();
    private static final LibertyProcess LIBERTY = STACK.liberty();
    private static final long MSG_PREFIX = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
    private static final String MEMBER_PREFIX = "it.crash.replay." + UUID.randomUUID().toString().substring(0, 6) + ".";


    @Test
    void aReplayInterruptedByAKillIsFailedAtRestartAndSendingItAgainCompletesTheBatchExactlyOncePerEvent()
            throws Exception {
        List<String> keys = deliverAndProcess();
        String batch = "crash-" + UUID.randomUUID().toString().substring(0, 8);
        String request = request(keys, batch, 10);

        // slow (10 messages/s, chunks of 10): kill once some chunks are published, well before the end
        JsonObject first = start(request);
        long firstId = first.getInt("replayId");
        int total = first.getInt("total");
        assertEquals(HANDLERS * EVENTS, total);
        assertTrue(Poll.until(WAIT, () -> published(firstId) >= 20), "no progress: " + published(firstId));
        LIBERTY.kill();
        long publishedAtKill = published(firstId);
        assertEquals("RUNNING", state(firstId), "killed while running");
        assertTrue(publishedAtKill < total, "killed before the end: " + publishedAtKill + " of " + total);

        long restarted = System.nanoTime();
        OffsetDateTime restartedAt = InDoubt.databaseNow();
        LIBERTY.start();
        assertEquals("FAILED", state(firstId), "the restarted server marks its own running replay FAILED");
        String failure = Sql.text("SELECT failure FROM replay_run WHERE replay_id = ?", firstId);
        assertTrue(failure.startsWith("interrupted: the server stopped after "), failure);
        assertTrue(failure.contains("request it again"), failure);
        JsonObject shown = ReplayApi.get(firstId);
        assertEquals("FAILED", shown.getString("state"));
        assertEquals(failure, shown.getString("failure"));

        // in doubt: what the killed server left prepared. The restarted one's consumers prepare branches of
        // their own and commit them a moment later (longer at nice 10 on a busy machine): those are live work
        boolean recovered = Poll.until(WAIT, () -> InDoubt.preparedBefore(restartedAt).isEmpty()
                && BrokerConsole.preparedTransactions() == 0);
        long recoverySeconds = Duration.ofNanos(System.nanoTime() - restarted).toSeconds();
        assertTrue(recovered, "in-doubt branches left: pg=" + InDoubt.describe(InDoubt.preparedBefore(restartedAt))
                + " broker=" + BrokerConsole.preparedTransactions());
        assertEquals(List.of(), InDoubt.preparedBefore(restartedAt), "the killed server's branches, after recovery");

        // what the operator does: the same request again; dedup absorbs what already ran under this batch
        JsonObject again = start(request);
        long againId = again.getInt("replayId");
        assertTrue(Poll.until(WAIT, () -> ReplayApi.get(againId).getBoolean("settled")), "not settled: " + ReplayApi.get(againId));
        assertEquals("DONE", ReplayApi.get(againId).getString("state"));
        assertTrue(Poll.until(WAIT, () -> crmMessages(batch) >= EVENTS && botReplies(batch) >= EVENTS),
                "batch incomplete: crm " + crmMessages(batch) + ", bot " + botReplies(batch));
        Poll.sleep(3_000); // room for a late duplicate (a message of the first run still queued) to show up

        JsonObject outcomes = ReplayApi.get(againId).getJsonObject("outcomes");
        System.out.printf("replay crash summary: events=%d total=%d publishedAtKill=%d failure=\"%s\" "
                        + "restartAndRecoverySeconds=%d resend outcomes=%s crm=%d bot=%d botCalls=%d%n",
                EVENTS, total, publishedAtKill, failure, recoverySeconds, outcomes, crmMessages(batch),
                botReplies(batch), replyCalls(batch));
        assertEquals(EVENTS, crmMessages(batch), "one CRM message per event in the batch");
        assertEquals(EVENTS, botReplies(batch), "one sent bot reply per event in the batch");
        assertEquals(HANDLERS * EVENTS, Sql.count("SELECT count(*) FROM handler_dedup WHERE batch_id = ?"
                + " AND handler IN ('crm', 'bot') AND event_key = ANY (?)", batch, keys.toArray(String[]::new)),
                "one dedup record per handler and event in the batch");
        for (String handler : List.of("crm", "bot")) {
            JsonObject outcome = outcomes.getJsonObject(handler);
            assertEquals(EVENTS, outcome.getInt("effects") + outcome.getInt("duplicates"),
                    handler + ": every re-sent message is an effect or a duplicate: " + outcome);
        }
        assertTrue(Poll.until(InDoubt.RESOLVED_WITHIN, InDoubt::none), "a branch stays prepared: pg="
                + InDoubt.describe(InDoubt.preparedSince(restartedAt)) + " broker=" + BrokerConsole.preparedTransactions());
    }

    private static List<String> deliverAndProcess() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            SimEvent message = textMessage(MSG_PREFIX * 1000 + i, MEMBER_PREFIX + i);
            assertTrue(STACK.wecom().deliver(message).acknowledged(), "delivery " + i);
            keys.add(APP + ":" + EventKeys.keyOf(WeComEvent.parse(message.xml())));
        }
        assertTrue(Poll.until(WAIT, () -> crmMessages(null) == EVENTS && botReplies(null) == EVENTS),
                "the events were not processed: crm " + crmMessages(null) + ", bot " + botReplies(null));
        return keys;
    }

    private static String request(List<String> keys, String batch, int maxRate) {
        JsonArrayBuilder eventKeys = Json.createArrayBuilder();
        keys.forEach(eventKeys::add);
        return Json.createObjectBuilder().add("eventKeys", eventKeys)
                .add("handlers", Json.createArrayBuilder().add("crm").add("bot")).add("batchId", batch)
                .add("reason", "it: replay interrupted by kill -9").add("maxRate", maxRate).build().toString();
    }

    private static JsonObject start(String request) {
        HttpResponse<String> answer = ReplayApi.post(request);
        assertEquals(202, answer.statusCode(), answer.body());
        return ReplayApi.json(answer.body());
    }

    private static long published(long replayId) {
        return Sql.count("SELECT messages_published FROM replay_run WHERE replay_id = ?", replayId);
    }

    private static String state(long replayId) {
        return Sql.text("SELECT state FROM replay_run WHERE replay_id = ?", replayId);
    }

    private static ReplayedEffects effects() {
        return new ReplayedEffects(APP, MSG_PREFIX, MEMBER_PREFIX, STACK.wecom());
    }

    private static long crmMessages(String batch) {
        return effects().crmMessages(batch);
    }

    private static long botReplies(String batch) {
        return effects().botReplies(batch);
    }

    private static long replyCalls(String batch) {
        return effects().replyCalls(batch);
    }

    private static SimEvent textMessage(long msgId, String member) {
        long createTime = Instant.now().getEpochSecond();
        String xml = "<xml><ToUserName><![CDATA[" + StackEnv.wecomApp(APP, "corp-id") + "]]></ToUserName>"
                + "<FromUserName><![CDATA[" + member + "]]></FromUserName><CreateTime>" + createTime + "</CreateTime>"
                + "<MsgType><![CDATA[text]]></MsgType><Content><![CDATA[订单到哪了]]></Content>"
                + "<MsgId>" + msgId + "</MsgId><AgentID>" + StackEnv.wecomApp(APP, "agent-id") + "</AgentID></xml>";
        return new SimEvent("it-crash-replay-" + msgId, APP, EventType.TEXT_MESSAGE, Instant.ofEpochSecond(createTime),
                xml, null);
    }
}
