package io.wecominbox.ops.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.FakeWeCom;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.ReplayApi;
import io.wecominbox.testsupport.ReplayedEffects;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Black box on the real stack: 100 members' text messages are delivered as signed callbacks by the simulated
 * WeCom and processed by the crm and bot handlers (one CRM message and one reply each); then the replay API
 * re-publishes them: through dedup nothing happens again, with a batch id exactly one more effect per handler
 * and event (the batch id visible unchanged in the dedup key, the business rows and the outbound calls), and
 * the same batch again nothing.
 */
@ExtendWith(ArquillianExtension.class)
class ReplayIT {

    private static final String APP = "customer";
    private static final int EVENTS = 100;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static WeComSimulator wecom;
    /** MsgIds of this run share a prefix, so the CRM messages and bot replies of these events can be counted. */
    private static final long MSG_PREFIX = ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_000_000_000L);
    private static final String MEMBER_PREFIX = "it.replay." + UUID.randomUUID().toString().substring(0, 6) + ".";
    private static final List<String> KEYS = new ArrayList<>();

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @BeforeAll
    static void deliverAndProcessHundredEvents() throws Exception {
        wecom = FakeWeCom.start();
        for (int i = 0; i < EVENTS; i++) {
            SimEvent message = textMessage(MSG_PREFIX * 1000 + i, MEMBER_PREFIX + i);
            assertTrue(wecom.deliver(message).acknowledged(), "delivery " + i);
            KEYS.add(APP + ":" + EventKeys.keyOf(WeComEvent.parse(message.xml())));
        }
        assertTrue(Poll.until(WAIT, () -> crmMessages(null) == EVENTS && botReplies(null) == EVENTS),
            "the 100 events were not processed: crm " + crmMessages(null) + ", bot " + botReplies(null));
    }

    @AfterAll
    static void stopWeCom() {
        wecom.close();
    }

    @Test
    void replayingProcessedEventsChangesNothingWithoutBatchAndRunsEachOnceMorePerBatch() {
        // through dedup: every event is a duplicate at both handlers
        JsonObject plain = awaitSettled(start(selection().add("handlers", list("crm", "bot"))
            .add("reason", "it: replay through dedup")));
        assertEquals(EVENTS, plain.getInt("eventsSelected"));
        assertEquals(2 * EVENTS, plain.getInt("total"));
        assertEquals(2 * EVENTS, plain.getInt("done"));
        assertOutcome(plain, "crm", 0, EVENTS);
        assertOutcome(plain, "bot", 0, EVENTS);
        assertEquals(EVENTS, crmMessages(null), "no new CRM message");
        assertEquals(EVENTS, botReplies(null), "no new reply");
        assertEquals(EVENTS, replyCalls(null), "no new message/send");

        // forced: exactly one more effect per handler and event, the batch id unchanged in every layer
        String batch = "It.Re-run_" + UUID.randomUUID().toString().substring(0, 8);
        JsonObject forced = awaitSettled(start(selection().add("handlers", list("crm", "bot")).add("batchId", batch)));
        assertEquals(batch, forced.getString("batchId"));
        assertOutcome(forced, "crm", EVENTS, 0);
        assertOutcome(forced, "bot", EVENTS, 0);
        assertTrue(Poll.until(WAIT, () -> crmMessages(batch) == EVENTS && botReplies(batch) == EVENTS));
        assertEquals(2 * EVENTS, crmMessages(null));
        assertEquals(2 * EVENTS, botReplies(null));
        assertEquals(EVENTS, replyCalls(batch), "one message/send per event carrying the batch id as requested");
        assertEquals(2 * EVENTS, replyCalls(null));
        assertEquals(2 * EVENTS, Sql.count("SELECT count(*) FROM handler_dedup WHERE batch_id = ?"
            + " AND dedup_key = 'wecom:' || handler || ':' || event_key || ':' || ? AND handler IN ('crm', 'bot')"
            + " AND event_key = ANY (?)", batch, batch, KEYS.toArray(String[]::new)));
        assertEquals(2 * EVENTS, Sql.count("SELECT count(*) FROM handler_disposition WHERE replay_id = ?"
            + " AND batch_id = ? AND disposition = 'FORCED'", (long) forced.getInt("replayId"), batch));

        // the same batch again: nothing runs
        JsonObject again = awaitSettled(start(selection().add("handlers", list("crm", "bot")).add("batchId", batch)));
        assertOutcome(again, "crm", 0, EVENTS);
        assertOutcome(again, "bot", 0, EVENTS);
        assertEquals(2 * EVENTS, crmMessages(null));
        assertEquals(2 * EVENTS, botReplies(null));
        assertEquals(2 * EVENTS, replyCalls(null));
        // stored by the background task once settled (it checks about every second)
        long againId = again.getInt("replayId");
        String outcomes = "SELECT outcomes::text FROM replay_run WHERE replay_id = ?";
        assertTrue(Poll.until(WAIT, () -> Sql.text(outcomes, againId) != null), "outcomes not stored");
        JsonObject stored = ReplayApi.json(Sql.text(outcomes, againId));
        assertEquals(EVENTS, stored.getJsonObject("bot").getInt("duplicates"), "outcomes recorded with the run");
    }

    @Test
    void anEventOlderThanTheColdWindowIsRefusedWithItsIdAndAge() throws Exception {
        // its own MsgId prefix and member: not counted with the 100
        SimEvent message = textMessage((MSG_PREFIX + 1) * 1000 + 999, "it.replay.old." + MSG_PREFIX);
        assertTrue(wecom.deliver(message).acknowledged());
        String key = APP + ":" + EventKeys.keyOf(WeComEvent.parse(message.xml()));
        Sql.update("UPDATE callback_log SET received_at = received_at - interval '31 days' WHERE event_key = ?", key);
        long id = Sql.count("SELECT min(callback_log_id) FROM callback_log WHERE event_key = ?", key);

        HttpResponse<String> refused = ReplayApi.post(Json.createObjectBuilder()
            .add("callbackLogIds", Json.createArrayBuilder().add(id)).add("handlers", list("crm", "bot"))
            .add("batchId", "too-old").build().toString());
        assertEquals(422, refused.statusCode(), refused.body());
        JsonObject body = ReplayApi.json(refused.body());
        assertEquals("too_old", body.getString("error"));
        assertEquals(2, body.getInt("count"));
        JsonObject first = body.getJsonArray("events").getJsonObject(0);
        assertEquals(id, first.getJsonNumber("callbackLogId").longValue());
        assertEquals(Duration.ofDays(30), Duration.parse(first.getString("maxAge")));
        assertTrue(first.getJsonNumber("ageSeconds").longValue() >= Duration.ofDays(31).toSeconds());
        assertEquals(0, Sql.count("SELECT count(*) FROM replay_run WHERE selection @> ?::jsonb",
            "{\"callbackLogIds\": [" + id + "]}"), "nothing recorded or published");
    }

    @Test
    void aSlowReplayShowsProgressAndStopsPublishingWhenCancelled() {
        JsonObject started = start(selection().add("handlers", list("crm", "bot")).add("maxRate", 10));
        long id = started.getInt("replayId");
        assertEquals("RUNNING", started.getString("state"));
        assertTrue(Poll.until(WAIT, () -> ReplayApi.get(id).getInt("done") >= 10), "no progress");
        HttpResponse<String> cancelled = Http.send(Http.asAdmin(HttpRequest.newBuilder(
            URI.create(StackEnv.baseUrl() + "/api/ops/replays/" + id)).DELETE()));
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        JsonObject after = ReplayApi.json(cancelled.body());
        assertEquals("CANCELLED", after.getString("state"));
        int done = after.getInt("done");
        assertTrue(done < 2 * EVENTS, "cancelled before the end: " + done);
        assertTrue(after.getJsonNumber("rate").doubleValue() > 0);
        assertTrue(Poll.holdsFor(Duration.ofSeconds(2), () -> ReplayApi.get(id).getInt("done") == done),
            "nothing published after the cancel");
        JsonObject settled = awaitSettled(id);
        assertEquals(done, settled.getInt("done"), "nothing published after the cancel");
        long duplicates = settled.getJsonObject("outcomes").values().stream()
            .mapToLong(v -> v.asJsonObject().getJsonNumber("duplicates").longValue()).sum();
        assertEquals(done, duplicates, "every published message reached its handler, as a duplicate");
        assertTrue(Http.getAsAdmin("/api/ops/replays").body().contains("\"replayId\":" + id));
        assertEquals(200, Http.postAsAdmin("/api/ops/replays/" + id + "/cancel").statusCode(),
            "cancelling a finished replay answers its state");
    }

    @Test
    void badRequestsAreRefusedWithAReasonAndStartNothing() {
        long before = Sql.count("SELECT count(*) FROM replay_run");
        assertRefused("{}", "select at least one");
        assertRefused("{\"app\": \"customer\", \"batchId\": \"not valid!\"}", "batch id must be");
        assertRefused("{\"eventKeys\": [\"" + KEYS.get(0) + "\"], \"handlers\": [\"nosuch\"]}", "unknown handler nosuch");
        assertRefused("{\"eventKeys\": [\"" + KEYS.get(0) + "\"], \"handlers\": [\"welcome\"]}",
            "takes none of the selected event types");
        assertRefused("{\"eventKeys\": [\"customer:msg:does-not-exist\"]}", "matches no callback_log delivery");
        assertRefused("{\"app\": \"customer\", \"maxRate\": 1000000}", "maxRate is limited");
        assertEquals(404, Http.getAsAdmin("/api/ops/replays/999999999").statusCode());
        assertEquals(before, Sql.count("SELECT count(*) FROM replay_run"));
    }

    private static void assertRefused(String body, String reason) {
        HttpResponse<String> answer = ReplayApi.post(body);
        assertEquals(400, answer.statusCode(), answer.body());
        assertEquals("invalid_request", ReplayApi.json(answer.body()).getString("error"));
        assertTrue(answer.body().contains(reason), answer.body());
    }

    private static void assertOutcome(JsonObject replay, String handler, int effects, int duplicates) {
        JsonObject outcome = replay.getJsonObject("outcomes").getJsonObject(handler);
        assertEquals(effects, outcome.getInt("effects"), handler + " effects in " + replay);
        assertEquals(duplicates, outcome.getInt("duplicates"), handler + " duplicates in " + replay);
    }

    private static jakarta.json.JsonObjectBuilder selection() {
        JsonArrayBuilder keys = Json.createArrayBuilder();
        KEYS.forEach(keys::add);
        return Json.createObjectBuilder().add("eventKeys", keys);
    }

    private static JsonArrayBuilder list(String... values) {
        JsonArrayBuilder array = Json.createArrayBuilder();
        for (String v : values) {
            array.add(v);
        }
        return array;
    }

    private static JsonObject start(jakarta.json.JsonObjectBuilder request) {
        HttpResponse<String> answer = ReplayApi.post(request.build().toString());
        assertEquals(202, answer.statusCode(), answer.body());
        assertTrue(answer.headers().firstValue("Location").orElse("").contains("/api/ops/replays/"));
        return ReplayApi.json(answer.body());
    }

    private static JsonObject awaitSettled(JsonObject started) {
        return awaitSettled(started.getInt("replayId"));
    }

    private static JsonObject awaitSettled(long id) {
        assertTrue(Poll.until(WAIT, () -> ReplayApi.get(id).getBoolean("settled")), "replay " + id + ": " + ReplayApi.get(id));
        JsonObject replay = ReplayApi.get(id);
        assertTrue(List.of("DONE", "CANCELLED").contains(replay.getString("state")), replay.toString());
        return replay;
    }

    private static ReplayedEffects effects() {
        return new ReplayedEffects(APP, MSG_PREFIX, MEMBER_PREFIX, wecom);
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
            + "<MsgType><![CDATA[text]]></MsgType><Content><![CDATA[请帮我查一下订单]]></Content>"
            + "<MsgId>" + msgId + "</MsgId><AgentID>" + StackEnv.wecomApp(APP, "agent-id") + "</AgentID></xml>";
        return new SimEvent("it-replay-" + msgId, APP, EventType.TEXT_MESSAGE, Instant.ofEpochSecond(createTime), xml,
            null);
    }
}
