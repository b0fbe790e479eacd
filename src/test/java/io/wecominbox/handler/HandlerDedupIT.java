package io.wecominbox.handler;

import static io.wecominbox.handler.HandlerOutcomes.hasCompleted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.SampleEvents;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.messaging.JndiNames;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.annotation.Resource;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Queue;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * Runs inside Liberty on the real stack: signed callbacks (or messages put straight on a handler queue) go
 * through the broker's fan-out to the crm and conversation handlers; the database and crm.outbound show
 * exactly one effect per handler and event.
 */
@ExtendWith(ArquillianExtension.class)
class HandlerDedupIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Deployment
    static WebArchive deployment() {
        return Deployments.application().addClasses(HandlerDedupIT.class, HandlerOutcomes.class,
            HandlerOutcomes.Connections.class, HandlerMessages.class, SignedCallbacks.class,
            SignedCallbacks.Wire.class, CallbackClient.class, SampleEvents.class, Poll.class, Deployments.class,
            StackEnv.class);
    }

    @Resource(lookup = JndiNames.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = "jms/queue/handler/crm") // JndiNames.handlerQueue("crm")
    private Queue crmQueue;

    @Resource(lookup = JndiNames.CRM_OUTBOUND_QUEUE)
    private Queue crmOutbound;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Resource(lookup = "java:comp/UserTransaction")
    private UserTransaction transaction;

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();

    private HandlerOutcomes outcomes() {
        return new HandlerOutcomes(dataSource::getConnection);
    }

    private HandlerMessages messages() {
        return new HandlerMessages(connectionFactory, transaction);
    }

    private int outbound(String eventKey) throws Exception {
        return messages().count(crmOutbound, "eventKey = '" + eventKey + "'");
    }

    @Test
    void everyEventReachesEveryHandlerThatTakesItsTypeThroughItsOwnQueue() throws Exception {
        String msgId = HandlerOutcomes.uniqueMsgId();
        String key = "customer:msg:" + msgId;
        assertEquals(200, client.post("customer", wecom.post(SampleEvents.textMessage(msgId, "fan-out"))).statusCode());

        assertEquals(List.of("PROCESSED"), outcomes().awaitDispositions("crm", key, WAIT, d -> !d.isEmpty()));
        assertEquals(List.of("PROCESSED"), outcomes().awaitDispositions("conversation", key, WAIT, d -> !d.isEmpty()));
        assertEquals(1, outcomes().storedMessages("customer", msgId));
        assertEquals(1, outcomes().dedupRows("crm", key));
        assertEquals(0, outcomes().dedupRows("conversation", key), "naturally idempotent: no dedup record");
        assertEquals(1, outbound(key));

        String contact = SampleEvents.addExternalContact("wmCustomer" + msgId, 1718000000L, "CODE_" + msgId);
        // crm keys a customer's add by relationship generation (the callback and a reconcile pull meet there)
        WeComEvent added = SampleEvents.parsed(contact);
        String contactKey = "customer:" + EventKeys.relationshipGeneration(added.userId(), added.externalUserId(), 1);
        assertEquals(200, client.post("customer", wecom.post(contact)).statusCode());
        assertEquals(List.of("PROCESSED"), outcomes().awaitDispositions("crm", contactKey, WAIT, d -> !d.isEmpty()));
        assertEquals(1, outbound(contactKey));
        assertTrue(Poll.holdsFor(Duration.ofSeconds(1), () -> outcomes().dispositions("conversation", contactKey).isEmpty()),
            "conversation takes messages only");
    }

    @Test
    void secondHandlerStillRunsWhenFirstAlreadyProcessed() throws Exception {
        String msgId = HandlerOutcomes.uniqueMsgId();
        String key = "customer:msg:" + msgId;
        // another handler ("welcome") has processed this event in both tiers, as if it had run first
        outcomes().execute("INSERT INTO handler_dedup (dedup_key, handler, event_key, app, expires_at)"
            + " VALUES (?, 'welcome', ?, 'customer', now() + interval '1 day')", "wecom:welcome:" + key, key);
        String redisHost = StackEnv.get("REDIS_HOST", "");
        if (!redisHost.isBlank()) {
            try (RedisClient redis = RedisClient.create(redisHost, Integer.parseInt(StackEnv.get("REDIS_PORT", "6379")))) {
                redis.set("wecom:welcome:" + key, "done:seeded");
            }
        }
        assertEquals(200, client.post("customer", wecom.post(SampleEvents.textMessage(msgId, "second"))).statusCode());

        assertEquals(List.of("PROCESSED"), outcomes().awaitDispositions("crm", key, WAIT, d -> !d.isEmpty()));
        assertEquals(1, outbound(key));
        assertEquals(1, outcomes().dedupRows("welcome", key));
        assertEquals(1, outcomes().dedupRows("crm", key));
    }

    @Test
    void twoIdenticalMessagesDeliveredAtTheSameInstantProduceExactlyOneEffect() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String msgId = HandlerOutcomes.uniqueMsgId();
            keys.add("customer:msg:" + msgId);
            messages().sendTogether(crmQueue, SampleEvents.textMessage(msgId, "twins"),
                HandlerMessages.textMessageProperties(msgId), 2);
        }
        for (String key : keys) {
            List<String> d = outcomes().awaitDispositions("crm", key, WAIT, l -> l.size() == 2);
            assertEquals(2, d.size(), key + ": " + d);
            assertEquals(1, d.stream().filter(x -> x.equals("PROCESSED")).count(), key + ": " + d);
            assertTrue(d.contains("DUPLICATE_HOT") || d.contains("DUPLICATE_COLD"), key + ": " + d);
            assertEquals(1, outbound(key), key);
            assertEquals(1, outcomes().dedupRows("crm", key), key);
        }
    }

    @Test
    void aHandlerFailingAfterItsBusinessWriteRollsBackIsRedeliveredAndEndsWithOneEffect() throws Exception {
        String msgId = HandlerOutcomes.uniqueMsgId();
        String key = "customer:msg:" + msgId;
        // the test-only drop-in turns the chaos switch on for this marker: attempt 1 fails after the effect
        String text = SampleEvents.textMessage(msgId, "CHAOS_FAIL_AFTER_HANDLE");
        assertEquals(200, client.post("customer", wecom.post(text)).statusCode());

        assertEquals(List.of("RETRIED"), outcomes().awaitDispositions("crm", key, WAIT, d -> !d.isEmpty()));
        assertEquals(List.of("RETRIED"), outcomes().awaitDispositions("conversation", key, WAIT, d -> !d.isEmpty()));
        assertEquals(1, outbound(key), "the first attempt's send rolled back");
        assertEquals(1, outcomes().dedupRows("crm", key));
        assertEquals(1, outcomes().storedMessages("customer", msgId));
        assertEquals(1, outcomes().count("SELECT count(*) FROM handler_dedup WHERE event_key = ?", key));
    }

    @Test
    void theSameEventWithANewBatchIdRunsOnceMoreAndTheSameBatchTwiceRunsOnce() throws Exception {
        String msgId = HandlerOutcomes.uniqueMsgId();
        String key = "customer:msg:" + msgId;
        String text = SampleEvents.textMessage(msgId, "replayed");
        assertEquals(200, client.post("customer", wecom.post(text)).statusCode());
        assertEquals(List.of("PROCESSED"), outcomes().awaitDispositions("crm", key, WAIT, d -> !d.isEmpty()));

        Map<String, Object> replay = new HashMap<>(HandlerMessages.textMessageProperties(msgId));
        replay.put("batchId", "replay-" + msgId);
        messages().sendTogether(crmQueue, text, replay, 1);
        messages().sendTogether(crmQueue, text, replay, 1);

        List<String> d = outcomes().awaitDispositions("crm", key, WAIT, l -> l.size() == 3);
        assertEquals("PROCESSED", d.get(0), d.toString());
        assertEquals(1, d.stream().filter(x -> x.equals("FORCED")).count(), d.toString());
        assertTrue(d.contains("DUPLICATE_HOT") || d.contains("DUPLICATE_COLD"), d.toString());
        assertEquals(2, outbound(key), "one for the event, one for the batch");
        assertEquals(2, outcomes().dedupRows("crm", key));
    }

    @Test
    void aDuplicateInsideTheHotWindowIsAnsweredByTheHotTier() throws Exception {
        String msgId = HandlerOutcomes.uniqueMsgId();
        String key = "customer:msg:" + msgId;
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, "retried soon"));
        assertEquals(200, client.post("customer", wire).statusCode());
        assertEquals(List.of("PROCESSED"), outcomes().awaitDispositions("crm", key, WAIT, d -> !d.isEmpty()));
        assertEquals(200, client.post("customer", wire).statusCode(), "WeCom's byte-identical retry");

        assertEquals(List.of("PROCESSED", "DUPLICATE_HOT"),
            outcomes().awaitDispositions("crm", key, WAIT, d -> d.size() == 2));
        assertEquals(1, outbound(key));
    }

    @Test
    void anEventReplayedAfterItsHotWindowButInsideItsColdWindowIsStillADuplicate() throws Exception {
        String msgId = HandlerOutcomes.uniqueMsgId();
        String key = "customer:msg:" + msgId;
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, "replayed late"));
        assertEquals(200, client.post("customer", wire).statusCode());
        assertEquals(List.of("PROCESSED"), outcomes().awaitDispositions("crm", key, WAIT, d -> !d.isEmpty()));

        Poll.sleep(9_000); // the test drop-in sets crm's hot window to 8 s; its cold window stays 30 days
        assertEquals(200, client.post("customer", wire).statusCode());

        assertEquals(List.of("PROCESSED", "DUPLICATE_COLD"),
            outcomes().awaitDispositions("crm", key, WAIT, d -> d.size() == 2));
        assertEquals(1, outbound(key));
        assertTrue(hasCompleted(outcomes().dispositions("conversation", key)));
        assertEquals(1, outcomes().storedMessages("customer", msgId));
    }
}
