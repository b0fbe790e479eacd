package io.wecominbox.handler;

import io.wecominbox.dedup.TransactionHooks;
import io.wecominbox.messaging.JndiNames;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import org.eclipse.microprofile.config.Config;

/**
 * Widens a message-driven bean's transaction to a batch: besides the message the bean was given, it takes
 * what is already waiting on the same queue (receiveNoWait, never a wait) through the resource adapter's
 * connection factory, whose session is enlisted in the same XA transaction. The batch commits or rolls back
 * as one. A redelivered message runs alone, and the members of a batch that rolled back are kept out of the
 * next batches (a selector on their message ids), so a poison message reaches the DLQ by itself.
 * <p>
 * Batch size: {@code wecom.handler.<name>.batch-size} (default {@value #DEFAULT_BATCH_SIZE}; 1 = one message
 * per transaction). The activation specs' consumer window is 0, so waiting messages stay on the queue instead
 * of sitting in an idle session's buffer. This factory's is not (background.consumer.window.bytes): the broker
 * streams the waiting messages into the batch's consumer, where a window of 0 cost a round trip per message.
 * What is still buffered when the consumer closes goes back to the queue with its delivery count unchanged
 * (Artemis takes the count back for a consumer that closed normally); after a crash it comes back counted
 * once, and runs alone.
 */
@ApplicationScoped
public class QueuedMessages {

    static final int DEFAULT_BATCH_SIZE = 50;

    @Resource(lookup = JndiNames.BACKGROUND_CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Inject
    Config config;

    @Inject
    TransactionHooks transaction;

    @Inject
    RolledBackMembers rolledBack;

    private final Map<String, Queue> queues = new ConcurrentHashMap<>();

    /** {@code first}, then up to batch-size - 1 waiting messages of the handler's queue, in this transaction. */
    public List<Message> batchOf(String handler, Message first) {
        int max = batchSize(handler);
        if (max <= 1 || deliveryCount(first) > 1) {
            return List.of(first);
        }
        List<Message> batch = new ArrayList<>(max);
        batch.add(first);
        try (JMSContext context = connectionFactory.createContext();
             JMSConsumer consumer = context.createConsumer(queue(handler), rolledBack.excludingSelector())) {
            while (batch.size() < max) {
                Message next = consumer.receiveNoWait();
                if (next == null) {
                    break;
                }
                batch.add(next);
                if (deliveryCount(next) > 1) {
                    break; // from a batch that rolled back elsewhere: no more company for it
                }
            }
        }
        if (batch.size() > 1) {
            List<String> ids = batch.stream().map(QueuedMessages::messageId).toList();
            transaction.afterCompletion(() -> { }, () -> rolledBack.remember(ids));
        }
        return batch;
    }

    int batchSize(String handler) {
        return config.getOptionalValue("wecom.handler." + handler + ".batch-size", Integer.class)
            .orElse(DEFAULT_BATCH_SIZE);
    }

    private Queue queue(String handler) {
        return queues.computeIfAbsent(handler, name -> {
            try {
                return (Queue) new InitialContext().lookup(JndiNames.handlerQueue(name));
            } catch (NamingException e) {
                throw new IllegalStateException("no queue " + JndiNames.handlerQueue(name), e);
            }
        });
    }

    static int deliveryCount(Message message) {
        try {
            return message.propertyExists("JMSXDeliveryCount") ? message.getIntProperty("JMSXDeliveryCount") : 1;
        } catch (JMSException e) {
            return 1;
        }
    }

    private static String messageId(Message message) {
        try {
            return message.getJMSMessageID();
        } catch (JMSException e) {
            throw new IllegalStateException("message without id", e);
        }
    }
}
