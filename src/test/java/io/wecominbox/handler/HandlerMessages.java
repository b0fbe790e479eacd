package io.wecominbox.handler;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.transaction.UserTransaction;
import java.util.Collections;
import java.util.Map;

/**
 * In-container JMS helpers: put event messages straight onto a handler queue (as the broker's divert or a
 * replay would), all in one commit so they become available at the same instant, and count messages.
 */
public final class HandlerMessages {

    private final ConnectionFactory connectionFactory;
    private final UserTransaction transaction;

    public HandlerMessages(ConnectionFactory connectionFactory, UserTransaction transaction) {
        this.connectionFactory = connectionFactory;
        this.transaction = transaction;
    }

    /** The properties the ingest publishes for a text message of app customer. */
    public static Map<String, Object> textMessageProperties(String msgId) {
        return Map.of("app", "customer", "eventType", "text", "eventKey", "customer:msg:" + msgId,
            "callbackLogId", 0L, "attempt", 1, "createTime", 1718000000L);
    }

    /** Sends {@code copies} identical messages in one transaction. */
    public void sendTogether(Queue queue, String body, Map<String, Object> properties, int copies) throws Exception {
        transaction.begin();
        try (JMSContext context = connectionFactory.createContext()) {
            JMSProducer producer = context.createProducer();
            properties.forEach(producer::setProperty);
            for (int i = 0; i < copies; i++) {
                producer.send(queue, body);
            }
        } catch (RuntimeException e) {
            transaction.rollback();
            throw e;
        }
        transaction.commit();
    }

    /** Messages waiting on a queue that match a selector (browsing does not consume them). */
    public int count(Queue queue, String selector) throws Exception {
        try (JMSContext context = connectionFactory.createContext();
             QueueBrowser browser = context.createBrowser(queue, selector)) {
            return Collections.list(browser.getEnumeration()).size();
        }
    }
}
