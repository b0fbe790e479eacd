package io.wecominbox.messaging;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Sends event messages in one local JMS transaction, no XA: for work that records what it sent in the database
 * afterwards (the publication relay, replays). A crash between the two means a re-send; each message carries
 * a stable duplicate id ({@link EventEnvelope#duplicateId()}), so the broker drops the second copy.
 */
@ApplicationScoped
public class TransactedSender {

    private static final Logger LOG = Logger.getLogger(TransactedSender.class.getName());

    // Unshareable: the relay's thread never ends, so a shareable session would stay bound to its local
    // transaction containment, and a broker restart would leave it holding the dead connection for good.
    @Resource(lookup = JndiNames.RELAY_CONNECTION_FACTORY, shareable = false)
    private ConnectionFactory connectionFactory;

    /** One message to send: where, and what. */
    public record Outgoing(Destination destination, EventEnvelope envelope) {
    }

    /** Sends all of them, committed together; returns how many the broker refused as duplicates. */
    public int send(List<Outgoing> messages) {
        // The classic API: the adapter's JMSContext refuses SESSION_TRANSACTED outside JTA even where local
        // transactions are allowed (Artemis RA 2.53, ActiveMQRASessionFactoryImpl.createContext).
        try (LocalJmsTransaction tx = LocalJmsTransaction.begin(connectionFactory);
             MessageProducer producer = tx.session().createProducer(null)) {
            if (sendAll(tx, producer, messages)) {
                return 0;
            }
            if (messages.size() == 1) {
                return 1;
            }
            // Artemis refuses the whole transaction when one message in it is a duplicate (a re-send after a
            // crash between the broker's commit and ours): again one per transaction, so only those drop.
            int duplicates = 0;
            for (Outgoing m : messages) {
                if (!sendAll(tx, producer, List.of(m))) {
                    duplicates++;
                }
            }
            LOG.info(duplicates + " of " + messages.size() + " messages were already on the broker (re-sent after"
                + " an interrupted publication) and were dropped by its duplicate detection");
            return duplicates;
        } catch (JMSException e) {
            throw new JMSRuntimeException(e.getMessage(), e.getErrorCode(), e);
        }
    }

    /**
     * One transaction: true when committed, false when the broker refused it for a duplicate (rolled back).
     * Any other failure leaves it to {@link LocalJmsTransaction#close()} to roll back.
     */
    private static boolean sendAll(LocalJmsTransaction tx, MessageProducer producer, List<Outgoing> messages)
            throws JMSException {
        try {
            for (Outgoing m : messages) {
                write(tx.session(), producer, m);
            }
            tx.commit();
            return true;
        } catch (JMSException | JMSRuntimeException e) {
            if (!duplicate(e)) {
                throw e;
            }
            rollbackQuietly(tx);
            return false;
        }
    }

    private static void rollbackQuietly(LocalJmsTransaction tx) {
        try {
            tx.rollback();
        } catch (JMSException ignored) {
            // already rolled back by the broker; close() tries once more
        }
    }

    private static void write(Session session, MessageProducer producer, Outgoing m) throws JMSException {
        TextMessage message = session.createTextMessage(m.envelope().body());
        for (Map.Entry<String, Object> p : m.envelope().properties().entrySet()) {
            message.setObjectProperty(p.getKey(), p.getValue());
        }
        producer.send(m.destination(), message);
    }

    private static boolean duplicate(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("Duplicate message detected")) {
                return true;
            }
        }
        return false;
    }
}
