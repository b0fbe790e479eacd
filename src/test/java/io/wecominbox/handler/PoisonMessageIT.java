package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Black box on the real stack: a poison message waiting on the welcome queue together with 20 good ones rolls
 * its batch back; the redeliveries run one at a time, so the good ones commit once each and the poison alone
 * reaches DLQ.wecom.handler.welcome (counted through the broker's console: the app's user may not browse
 * dead letters).
 */
@ExtendWith(ArquillianExtension.class)
class PoisonMessageIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    // welcome: 40 attempts at 0.5 s x1.5 up to 2 s = ~75 s to the DLQ
    private static final Duration DEAD_LETTER_WAIT = Duration.ofSeconds(180);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void aPoisonMessageReachesTheDeadLetterQueueAloneAndItsBatchMatesCommitOnce() throws Exception {
        String run = HandlerOutcomes.uniqueMsgId();
        String poisonKey = "customer:poison:" + run;
        List<String> keys = new ArrayList<>();
        List<String> codes = new ArrayList<>();
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("tcp://" + StackEnv.get("BROKER_HOST",
            "127.0.0.1") + ":" + StackEnv.get("BROKER_PORT", "61616"), StackEnv.get("BROKER_USER", "wecom"),
            StackEnv.get("BROKER_PASSWORD", ""));
        try (factory; JMSContext context = factory.createContext(JMSContext.SESSION_TRANSACTED)) {
            Queue welcome = context.createQueue("wecom.handler.welcome");
            send(context, welcome, poisonKey, "<xml><Event><![CDATA[change_external_contact");
            for (int i = 0; i < 20; i++) {
                String id = run + "-" + i;
                String code = "batch-poison-" + id;
                keys.add("customer:add:" + id);
                codes.add(code);
                // long expired: the handler records EXPIRED without calling WeCom, one row per code
                send(context, welcome, keys.get(i), SampleEvents.addExternalContact("wmBatch" + id, 1718000000L, code));
            }
            context.commit(); // all waiting together when the consumers see the first
        }

        for (String code : codes) {
            assertTrue(Poll.until(WAIT, () -> Sql.count("SELECT count(*) FROM welcome_send_log WHERE welcome_code = ?"
                + " AND status = 'EXPIRED'", code) == 1), code);
        }
        assertTrue(Poll.until(DEAD_LETTER_WAIT, () -> deadLetters("eventKey = '" + poisonKey + "'") == 1),
            "the poison message reached DLQ.wecom.handler.welcome");
        for (String key : keys) {
            assertEquals(0, deadLetters("eventKey = '" + key + "'"), key + " is not a dead letter");
            assertEquals(1, Sql.count("SELECT count(*) FROM handler_dedup WHERE handler = 'welcome' AND event_key = ?",
                key), key);
        }
    }

    private static void send(JMSContext context, Queue queue, String eventKey, String body) {
        context.createProducer().setProperty("app", "customer").setProperty("eventType", "change_external_contact")
            .setProperty("eventKey", eventKey).setProperty("callbackLogId", 0L).send(queue, body);
    }

    /** Dead letters of the welcome queue matching a filter; 0 before the broker created the DLQ. */
    private static long deadLetters(String filter) {
        for (String routingType : List.of("multicast", "anycast")) {
            try {
                return BrokerConsole.countMessages("DLA", routingType, "DLQ.wecom.handler.welcome", filter);
            } catch (RuntimeException notThere) {
                // not created yet, or created with the other routing type
            }
        }
        return 0;
    }
}
