package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.messaging.JndiNames;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.eclipse.microprofile.metrics.Histogram;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * In the container, on the real broker and database: a backlog on a handler queue is consumed in batches (one
 * XA transaction over many messages), every event once with its outbound message; duplicates inside a batch
 * run once. (A poison message in a batch: {@code PoisonMessageIT}, outside the container, because the app's
 * broker user may not browse dead letters.)
 */
@ExtendWith(ArquillianExtension.class)
class HandlerBatchIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Deployment
    static WebArchive deployment() {
        return Deployments.application().addClasses(HandlerBatchIT.class, HandlerOutcomes.class,
            HandlerOutcomes.Connections.class, HandlerMessages.class, SampleEvents.class, Poll.class,
            Deployments.class, StackEnv.class);
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

    @Inject
    MetricRegistry metrics;

    private HandlerOutcomes outcomes() {
        return new HandlerOutcomes(dataSource::getConnection);
    }

    private HandlerMessages messages() {
        return new HandlerMessages(connectionFactory, transaction);
    }

    /**
     * 150 waiting messages are more than a batch and more than the batch consumer's window: the broker streams
     * more into a batch's buffer than the batch takes, and what is left there goes back to the queue when the
     * consumer closes. Those messages must come back as first deliveries: counted as redelivered, they would
     * run alone and move towards the DLQ without ever having failed.
     */
    @Test
    void aBacklogIsConsumedInBatchesEachEventOnceAsAFirstDeliveryWithOneOutboundMessage() throws Exception {
        List<Outgoing> backlog = textMessages(150, "backlog");
        sendTogether(crmQueue, backlog);

        for (Outgoing m : backlog) {
            String key = (String) m.properties().get("eventKey");
            assertEquals(List.of("PROCESSED"), outcomes().awaitDispositions("crm", key, WAIT, d -> !d.isEmpty()), key);
            assertEquals(0, outcomes().count("SELECT count(*) FROM handler_disposition WHERE handler = 'crm'"
                + " AND event_key = ? AND delivery_count > 1", key), key + " was delivered more than once");
            assertEquals(1, outcomes().dedupRows("crm", key), key);
            assertEquals(1, messages().count(crmOutbound, "eventKey = '" + key + "'"), key);
        }
        assertTrue(largestBatch("crm") > 1, "150 waiting messages were taken several per transaction");
    }

    @Test
    void copiesOfOneEventInsideOneBatchRunItOnce() throws Exception {
        String msgId = HandlerOutcomes.uniqueMsgId();
        String key = "customer:msg:" + msgId;
        messages().sendTogether(crmQueue, SampleEvents.textMessage(msgId, "copies"),
            HandlerMessages.textMessageProperties(msgId), 12);

        List<String> d = outcomes().awaitDispositions("crm", key, WAIT, l -> l.size() == 12);
        assertEquals(1, d.stream().filter("PROCESSED"::equals).count(), d.toString());
        assertEquals(11, d.stream().filter(x -> x.startsWith("DUPLICATE_")).count(), d.toString());
        assertEquals(1, outcomes().dedupRows("crm", key));
        assertEquals(1, messages().count(crmOutbound, "eventKey = '" + key + "'"));

        // and once more later, in another transaction: still one effect
        messages().sendTogether(crmQueue, SampleEvents.textMessage(msgId, "copies"),
            HandlerMessages.textMessageProperties(msgId), 1);
        assertEquals(13, outcomes().awaitDispositions("crm", key, WAIT, l -> l.size() == 13).size());
        assertEquals(1, messages().count(crmOutbound, "eventKey = '" + key + "'"));
    }

    private long largestBatch(String handler) {
        Histogram h = metrics.getHistogram(new MetricID("wecom.handler.batch.size", new Tag("handler", handler)));
        return h == null ? 0 : (long) h.getSnapshot().getMax();
    }

    private static List<Outgoing> textMessages(int count, String text) {
        List<Outgoing> messages = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String msgId = HandlerOutcomes.uniqueMsgId();
            messages.add(new Outgoing(SampleEvents.textMessage(msgId, text + " " + i),
                HandlerMessages.textMessageProperties(msgId)));
        }
        return messages;
    }

    /** All in one commit, so they are waiting together when the consumers see the first. */
    private void sendTogether(Queue queue, List<Outgoing> outgoing) throws Exception {
        transaction.begin();
        try (JMSContext context = connectionFactory.createContext()) {
            for (Outgoing m : outgoing) {
                JMSProducer producer = context.createProducer();
                m.properties().forEach(producer::setProperty);
                producer.send(queue, m.body());
            }
        } catch (RuntimeException e) {
            transaction.rollback();
            throw e;
        }
        transaction.commit();
    }

    private record Outgoing(String body, Map<String, Object> properties) {
    }
}
