package io.wecominbox.relay;

import io.wecominbox.callbacklog.UnpublishedRows;
import io.wecominbox.db.Rollback;
import io.wecominbox.Failures;
import io.wecominbox.handler.HandlerCatalog;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
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
 *
 * <p>Two lanes, each a loop of its own: the event types a deadline waits on (the welcome's adds,
 * {@link HandlerCatalog#deadlineLaneTypes()}) and all the others. Under load one transaction of 500 rows took
 * seconds, and a welcome arriving behind text messages waited for them; on its own lane it waits only for the
 * few events of its kind. Each lane keeps arrival order among its rows (a relationship's add, edit and delete
 * are all in the deadline lane); across lanes the handlers never relied on order (two nodes reorder too).
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

    @Inject
    private HandlerCatalog handlers;

    /** Rows one JMS transaction carries; also the relay's window of possible re-sends after a crash. */
    @Inject
    @ConfigProperty(name = "wecom.relay.batch-size", defaultValue = "500")
    int batchSize;

    /**
     * How long the lane without a deadline waits after a commit wakes it, to take what the next commits bring in the
     * same transactions: at 200 callbacks/s a lane woken by every commit published one or two rows a transaction.
     * The deadline lane never waits. 0 = take at once.
     */
    @Inject
    @ConfigProperty(name = "wecom.relay.linger-ms", defaultValue = "20")
    long lingerMillis;

    /** False: one loop for every row, in arrival order, as before the lane (to compare, or if it costs too much). */
    @Inject
    @ConfigProperty(name = "wecom.relay.deadline-lane.enabled", defaultValue = "true")
    boolean deadlineLaneEnabled;

    private final AtomicLong backlog = new AtomicLong();
    private final AtomicLong oldestMillis = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private final List<Lane> lanes = new ArrayList<>();
    private volatile long lastBacklogRead;
    private volatile boolean running = true;

    @PostConstruct
    void start() {
        metrics.gauge("wecom.relay.backlog", backlog, AtomicLong::get);
        metrics.gauge("wecom.relay.oldest.unpublished.seconds", oldestMillis, v -> v.get() / 1000.0);
        metrics.gauge("wecom.relay.published", published, AtomicLong::get);
        Set<String> deadlineTypes = deadlineLaneEnabled ? handlers.deadlineLaneTypes() : Set.of();
        if (!deadlineTypes.isEmpty()) {
            lanes.add(new Lane("wecom-publication-relay-deadline", 0, committed -> committed.anyOf(deadlineTypes),
                c -> UnpublishedRows.takeOfTypes(c, deadlineTypes, batchSize)));
        }
        lanes.add(new Lane("wecom-publication-relay", Math.max(0, lingerMillis),
            committed -> committed.anyOtherThan(deadlineTypes),
            c -> UnpublishedRows.takeOtherThan(c, deadlineTypes, batchSize)));
        lanes.forEach(Lane::start);
    }

    /** Starts the relay with the application: rows left unpublished before a stop go out without a new callback. */
    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // being called created the bean, which started the loops
    }

    void onCommit(@Observes CallbackRowsCommitted committed) {
        for (Lane lane : lanes) {
            if (lane.wakesFor.test(committed)) { // a lane without rows in this commit would take nothing
                lane.wake();
            }
        }
    }

    /** For readiness and the dashboard: a lane that cannot publish makes the broker unreachable. */
    public Status status() {
        String failure = lanes.stream().map(l -> l.lastFailure).filter(Objects::nonNull).findFirst().orElse(null);
        Instant success = lanes.stream().map(l -> l.lastSuccess).filter(Objects::nonNull)
            .max(Comparator.naturalOrder()).orElse(null);
        return new Status(failure == null, backlog.get(), oldestMillis.get() / 1000.0, success, failure);
    }

    /** @param brokerReachable false while the last attempt to publish failed */
    public record Status(boolean brokerReachable, long backlog, double oldestUnpublishedSeconds, Instant lastSuccess,
                         String lastFailure) {
    }

    /** The waiting rows a lane takes, locked, oldest first. */
    @FunctionalInterface
    interface RowsToTake {
        List<EventEnvelope> take(Connection c) throws SQLException;
    }

    /** One loop publishing one lane's rows. */
    private final class Lane {

        private final String name;
        private final long lingerMillis;
        private final Predicate<CallbackRowsCommitted> wakesFor;
        private final RowsToTake rows;
        private final Semaphore wake = new Semaphore(0);
        private volatile Instant lastSuccess;
        private volatile String lastFailure;
        private Thread loop;

        Lane(String name, long lingerMillis, Predicate<CallbackRowsCommitted> wakesFor, RowsToTake rows) {
            this.name = name;
            this.lingerMillis = lingerMillis;
            this.wakesFor = wakesFor;
            this.rows = rows;
        }

        void start() {
            loop = threads.newThread(this::run);
            loop.setName(name);
            loop.setDaemon(true);
            loop.start();
        }

        void wake() {
            wake.release();
        }

        void stop() {
            if (loop != null) {
                loop.interrupt();
            }
        }

        private void run() {
            long backoff = 0;
            while (running) {
                try {
                    if (backoff > 0) {
                        Thread.sleep(backoff);
                    } else if (!wake.tryAcquire(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                        readBacklog(true);
                    } else if (lingerMillis > 0) {
                        Thread.sleep(lingerMillis);
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
                        LOG.log(Level.WARNING, name + " cannot publish (rows wait in callback_log, retrying every "
                            + MAX_BACKOFF_MILLIS / 1000 + " s at most): " + Failures.rootCause(e));
                    }
                    lastFailure = failure;
                    readBacklog(true);
                }
            }
        }

        /** One batch: lock the lane's oldest waiting rows, send them in one JMS transaction, mark them, commit. */
        private int publishOnce() throws SQLException, InterruptedException {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(false);
                try {
                    List<EventEnvelope> taken = rows.take(c);
                    if (taken.isEmpty()) {
                        c.commit();
                        return 0;
                    }
                    hold.beforePublishing(taken);
                    sender.send(taken.stream().map(r -> new Outgoing(eventsTopic, r)).toList());
                    UnpublishedRows.markPublished(c, taken);
                    c.commit();
                    published.addAndGet(taken.size());
                    lastSuccess = Instant.now();
                    return taken.size();
                } catch (SQLException | RuntimeException e) {
                    Rollback.quietly(c);
                    throw e;
                }
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
        lanes.forEach(Lane::stop);
    }
}
