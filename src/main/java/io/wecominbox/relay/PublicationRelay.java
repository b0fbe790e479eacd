package io.wecominbox.relay;

import io.wecominbox.callbacklog.UnpublishedRows;
import io.wecominbox.db.Rollback;
import io.wecominbox.Failures;
import io.wecominbox.ingest.CallbackRowsCommitted;
import io.wecominbox.messaging.EventEnvelope;
import io.wecominbox.messaging.JndiNames;
import io.wecominbox.messaging.TransactedSender;
import io.wecominbox.messaging.TransactedSender.Outgoing;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.jms.Topic;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Publishes committed callback_log rows to wecom.events, oldest first, and marks them published: woken by each
 * group commit (no polling delay while the broker is up), and every second for rows another node left behind.
 * One PostgreSQL transaction holds the rows' locks around one JMS transaction, so a row is published by one
 * node at a time; a crash between the broker's commit and ours re-sends the batch, which the broker drops by
 * duplicate id. With the broker down the rows wait, and the loop retries with a back-off until it returns.
 */
@ApplicationScoped
public class PublicationRelay {

    private static final Logger LOG = Logger.getLogger(PublicationRelay.class.getName());
    private static final long IDLE_POLL_MILLIS = 1000;
    private static final long MAX_BACKOFF_MILLIS = 5000;

    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource dataSource;

    @Resource(lookup = JndiNames.EVENTS_TOPIC)
    private Topic eventsTopic;

    @Resource
    private ManagedThreadFactory threads;

    @Inject
    private TransactedSender sender;

    @Inject
    private MetricRegistry metrics;

    @Inject
    private PublicationHold hold;

    /** Rows one JMS transaction carries; also the relay's window of possible re-sends after a crash. */
    @Inject
    @ConfigProperty(name = "wecom.relay.batch-size", defaultValue = "500")
    int batchSize;

    private final Semaphore wake = new Semaphore(0);
    private final AtomicLong backlog = new AtomicLong();
    private final AtomicLong oldestMillis = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private volatile Instant lastSuccess;
    private volatile String lastFailure;
    private volatile boolean running = true;
    private volatile long lastBacklogRead;
    private Thread loop;

    @PostConstruct
    void start() {
        metrics.gauge("wecom.relay.backlog", backlog, AtomicLong::get);
        metrics.gauge("wecom.relay.oldest.unpublished.seconds", oldestMillis, v -> v.get() / 1000.0);
        metrics.gauge("wecom.relay.published", published, AtomicLong::get);
        loop = threads.newThread(this::run);
        loop.setName("wecom-publication-relay");
        loop.setDaemon(true);
        loop.start();
    }

    /** Starts the relay with the application: rows left unpublished before a stop go out without a new callback. */
    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // being called created the bean, which started the loop
    }

    void onCommit(@Observes CallbackRowsCommitted committed) {
        wake.release();
    }

    /** For readiness and the dashboard. */
    public Status status() {
        return new Status(lastFailure == null, backlog.get(), oldestMillis.get() / 1000.0, lastSuccess, lastFailure);
    }

    /** @param brokerReachable false while the last attempt to publish failed */
    public record Status(boolean brokerReachable, long backlog, double oldestUnpublishedSeconds, Instant lastSuccess,
                         String lastFailure) {
    }

    private void run() {
        long backoff = 0;
        while (running) {
            try {
                if (backoff > 0) {
                    Thread.sleep(backoff);
                } else if (!wake.tryAcquire(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    readBacklog(true);
                }
                wake.drainPermits();
                int sent;
                do {
                    sent = publishOnce();
                } while (sent == batchSize && running);
                backoff = 0;
                lastFailure = null;
                readBacklog(false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                backoff = backoff == 0 ? 500 : Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
                String failure = e.getClass().getSimpleName();
                if (!failure.equals(lastFailure)) {
                    LOG.log(Level.WARNING, "publication relay cannot publish (rows wait in callback_log, retrying"
                        + " every " + MAX_BACKOFF_MILLIS / 1000 + " s at most): " + Failures.rootCause(e));
                }
                lastFailure = failure;
                readBacklog(true);
            }
        }
    }

    /** One batch: lock the oldest waiting rows, send them in one JMS transaction, mark them, commit. */
    int publishOnce() throws SQLException, InterruptedException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                List<EventEnvelope> rows = UnpublishedRows.take(c, batchSize);
                if (rows.isEmpty()) {
                    c.commit();
                    return 0;
                }
                hold.beforePublishing(rows);
                sender.send(rows.stream().map(r -> new Outgoing(eventsTopic, r)).toList());
                UnpublishedRows.markPublished(c, rows);
                c.commit();
                published.addAndGet(rows.size());
                lastSuccess = Instant.now();
                return rows.size();
            } catch (SQLException | RuntimeException e) {
                Rollback.quietly(c);
                throw e;
            }
        }
    }

    private void readBacklog(boolean now) {
        long t = System.currentTimeMillis();
        if (!now && t - lastBacklogRead < IDLE_POLL_MILLIS) {
            return;
        }
        lastBacklogRead = t;
        try (Connection c = dataSource.getConnection()) {
            double[] b = UnpublishedRows.backlog(c);
            backlog.set((long) b[0]);
            oldestMillis.set((long) (b[1] * 1000));
        } catch (SQLException e) {
            // the database is down too; the figures keep their last value
        }
    }

    @PreDestroy
    void stop() {
        running = false;
        if (loop != null) {
            loop.interrupt();
        }
    }
}
