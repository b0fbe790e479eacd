package io.wecominbox.messaging;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One local JMS transaction (no XA) on a pooled, unshared session of {@link JndiNames#RELAY_CONNECTION_FACTORY}
 * or {@link JndiNames#PARKING_CONNECTION_FACTORY}.
 *
 * <p>Why closing rolls back: the resource adapter returns the physical session to the pool without ending its
 * transaction (Artemis RA 2.53, {@code ActiveMQRAManagedConnection.cleanup}), so whatever a borrower left
 * uncommitted was committed by the next borrower's commit. That lost acknowledged callbacks: a drain whose
 * database commit failed, and whose rollback threw on the dead connection, left its receipts of parked
 * deliveries pending, and the relay's next commit on that session acknowledged them without their rows.
 */
public final class LocalJmsTransaction implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LocalJmsTransaction.class.getName());

    private final Connection connection;
    private final Session session;
    /** True from the first use of the session until a commit or rollback through this object succeeds. */
    private boolean pending;

    private LocalJmsTransaction(Connection connection, Session session) {
        this.connection = connection;
        this.session = session;
    }

    /**
     * Borrows a session and starts from a clean transaction: a rollback first, because what the last borrower
     * could not roll back (a rollback that timed out on a live connection) would otherwise be committed with
     * this transaction. One round trip per transaction, and a no-op in the usual case.
     */
    public static LocalJmsTransaction begin(ConnectionFactory factory) throws JMSException {
        Connection connection = factory.createConnection();
        try {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            session.rollback();
            return new LocalJmsTransaction(connection, session);
        } catch (JMSException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** The transacted session: what is sent or received on it is this transaction's until commit or rollback. */
    public Session session() {
        pending = true;
        return session;
    }

    /** Starts delivery to this transaction's consumers. */
    public void startDelivery() throws JMSException {
        connection.start();
    }

    public void commit() throws JMSException {
        session.commit();
        pending = false;
    }

    public void rollback() throws JMSException {
        session.rollback();
        pending = false;
    }

    /** Rolls back what was not committed (a failed commit included), then gives the session back. */
    @Override
    public void close() throws JMSException {
        try {
            if (pending) {
                session.rollback();
            }
        } catch (JMSException | RuntimeException e) {
            // The broker connection failed: the broker drops the transaction with it, and the adapter reports
            // the failure to the pool, which discards the session instead of lending it again.
            LOG.log(Level.WARNING, "a local JMS transaction could not be rolled back (broker connection lost): " + e);
        } finally {
            connection.close();
        }
    }
}
