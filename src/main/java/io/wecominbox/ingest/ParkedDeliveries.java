package io.wecominbox.ingest;

import io.wecominbox.callbacklog.CallbackLogInsert;
import io.wecominbox.callbacklog.IncomingDelivery;
import io.wecominbox.db.Rollback;
import io.wecominbox.messaging.JndiNames;
import io.wecominbox.messaging.LocalJmsTransaction;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The ACK path's fallback while PostgreSQL is down: a delivery is kept durably in the broker (queue
 * wecom.ingest.pending, persistent, one local JMS transaction) and answered "success". When the database is
 * back, the drainer writes what waits there into callback_log, oldest first (received_at as it arrived,
 * attempt numbered then), committing the rows before it acknowledges the messages; a drain interrupted
 * between the two finds its rows by parked_id (V41) and does not write them twice.
 */
@ApplicationScoped
public class ParkedDeliveries {

    private static final Logger LOG = Logger.getLogger(ParkedDeliveries.class.getName());
    private static final int DRAIN_BATCH = 256;

    @Resource(lookup = JndiNames.PARKING_CONNECTION_FACTORY, shareable = false)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = JndiNames.INGEST_PENDING_QUEUE)
    private Queue pending;

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource dataSource;

    @Resource
    private ManagedThreadFactory threads;

    @Inject
    private Event<CallbackRowsCommitted> committed;

    @Inject
    private CallbackLogCommit commits;

    private final Jsonb json = JsonbBuilder.create();
    private final Semaphore wake = new Semaphore(0);
    private volatile boolean running = true;
    private Thread drainer;

    @PostConstruct
    void start() {
        drainer = threads.newThread(this::drainLoop);
        drainer.setName("wecom-parked-drainer");
        drainer.setDaemon(true);
        drainer.start();
    }

    /** Starts the drainer with the application: what waited in the broker before a restart is drained too. */
    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // being called created the bean, which started the drainer
    }

    /**
     * Keeps the delivery in the broker; throws {@link DeliveryNotParkedException} when the broker is away too.
     *
     * @param possiblyStoredAs the row its group commit may have written before the connection was lost, or null
     */
    public void park(IncomingDelivery delivery, Long possiblyStoredAs) {
        String body = json.toJson(delivery.parked(UUID.randomUUID().toString(), possiblyStoredAs));
        try (LocalJmsTransaction tx = LocalJmsTransaction.begin(connectionFactory);
             MessageProducer producer = tx.session().createProducer(pending)) {
            producer.send(tx.session().createTextMessage(body));
            tx.commit();
        } catch (JMSException | JMSRuntimeException e) {
            throw new DeliveryNotParkedException(e);
        }
        wake.release();
    }

    private void drainLoop() {
        long backoff = 0;
        boolean warned = false;
        while (running) {
            try {
                if (backoff > 0) {
                    Thread.sleep(backoff);
                } else {
                    wake.tryAcquire(1, TimeUnit.SECONDS);
                }
                int drained;
                do {
                    drained = drainOnce();
                } while (drained == DRAIN_BATCH && running);
                backoff = 0;
                warned = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (SQLException | JMSException | RuntimeException e) {
                if (!warned) {
                    LOG.log(Level.INFO, "parked deliveries wait (database or broker away): " + e);
                    warned = true;
                }
                backoff = 2000;
            }
        }
    }

    /**
     * One batch: the database first (no receive while it is away), then the messages, rows, commit, ack. The
     * receipts are acknowledged only after the rows committed; on any failure before that, closing the JMS
     * transaction rolls the receipts back (redelivered to the next drain), even when the database rollback
     * itself fails on a dead connection.
     */
    int drainOnce() throws SQLException, JMSException {
        try (java.sql.Connection db = dataSource.getConnection();
             LocalJmsTransaction tx = LocalJmsTransaction.begin(connectionFactory);
             MessageConsumer consumer = tx.session().createConsumer(pending)) {
            tx.startDelivery();
            List<IncomingDelivery> batch = new ArrayList<>();
            Message m;
            while (batch.size() < DRAIN_BATCH && (m = consumer.receive(batch.isEmpty() ? 200 : 20)) != null) {
                batch.add(json.fromJson(m.getBody(String.class), IncomingDelivery.class));
            }
            if (batch.isEmpty()) {
                return 0;
            }
            db.setAutoCommit(false);
            try {
                CallbackLogInsert.insert(db, batch);
                commits.commit(db, batch);
            } catch (SQLException | RuntimeException e) {
                Rollback.quietly(db);
                throw e;
            }
            tx.commit();
            committed.fire(CallbackRowsCommitted.of(batch));
            LOG.info("wrote " + batch.size() + " deliveries kept in the broker while the database was away");
            return batch.size();
        }
    }

    @PreDestroy
    void stop() {
        running = false;
        if (drainer != null) {
            drainer.interrupt();
        }
    }

    /** Neither the database nor the broker could keep the delivery: answer 503, WeCom re-sends. */
    public static class DeliveryNotParkedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DeliveryNotParkedException(Throwable cause) {
            super("the database is away and the broker could not keep the delivery either", cause);
        }
    }
}
