package io.wecominbox.messaging;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.Destination;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.TransactionRolledBackRuntimeException;
import java.util.List;
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
        try (JMSContext context = connectionFactory.createContext(JMSContext.SESSION_TRANSACTED)) {
            JMSProducer producer = context.createProducer();
            messages.forEach(m -> write(producer, m));
            try {
                context.commit();
                return 0;
            } catch (TransactionRolledBackRuntimeException e) {
                if (!duplicate(e)) {
                    throw e;
                }
                if (messages.size() == 1) {
                    return 1;
                }
            }
            // Artemis rolls the whole transaction back when one message in it is a duplicate (a re-send after
            // a crash between the broker's commit and ours): again one per transaction, so only those drop.
            int duplicates = 0;
            for (Outgoing m : messages) {
                write(producer, m);
                try {
                    context.commit();
                } catch (TransactionRolledBackRuntimeException e) {
                    if (!duplicate(e)) {
                        throw e;
                    }
                    duplicates++;
                }
            }
            LOG.info(duplicates + " of " + messages.size() + " messages were already on the broker (re-sent after"
                + " an interrupted publication) and were dropped by its duplicate detection");
            return duplicates;
        }
    }

    private static void write(JMSProducer producer, Outgoing m) {
        producer.clearProperties();
        m.envelope().properties().forEach(producer::setProperty);
        producer.send(m.destination(), m.envelope().body());
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
