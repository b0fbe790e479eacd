package io.wecominbox.ingest;

import io.wecominbox.callbacklog.CallbackLogInsert;
import io.wecominbox.callbacklog.IncomingDelivery;
import io.wecominbox.callbacklog.RecordedDelivery;
import io.wecominbox.db.Rollback;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Group commit of callback_log rows: a request hands its delivery to the writers and waits; a writer takes
 * every delivery that is waiting (up to the batch size), inserts them in one statement and commits once, then
 * answers each request. Under load one fsync serves hundreds of callbacks; alone, a request waits for its own
 * commit only. Local PostgreSQL transactions, no XA and no broker: the relay publishes afterwards.
 *
 * <p>When the writers fall behind (the oldest waiting delivery older than {@code wecom.ingest.shed-after-millis})
 * a new delivery is refused at once ({@link WritersBehindException}, a 503 that WeCom re-sends after 5 s) rather
 * than queued behind a wait that would end in a slow 503 anyway.
 */
@ApplicationScoped
public class GroupCommitWriter {

    private static final Logger LOG = Logger.getLogger(GroupCommitWriter.class.getName());
    /** Requests that may wait at once; beyond it a request is refused (503) rather than queued past 5 s. */
    private static final int MAX_WAITING = 8192;
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    // Unshareable: a writer thread never ends, so a shareable connection would stay bound to its local
    // transaction containment for ever, dead or not, instead of going back to the pool.
    @Resource(lookup = "jdbc/wecom-local", shareable = false)
    private DataSource dataSource;

    @Resource
    private ManagedThreadFactory threads;

    @Inject
    private IngestSettings settings;

    @Inject
    private Event<CallbackRowsCommitted> committed;

    @Inject
    private CallbackLogCommit commits;

    private final LinkedBlockingQueue<Waiting> queue = new LinkedBlockingQueue<>(MAX_WAITING);
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean running = true;
    private final List<Thread> writers = new ArrayList<>();
    /** {@code wecom.ingest.shed-after-millis}, read once: the ACK path compares against it on every callback. */
    private long shedAfterNanos;
    /** When a commit last failed for want of a database (System.nanoTime()); checked again after a second. */
    private volatile long lastUnavailable = System.nanoTime() - 2 * RECHECK_NANOS;

    @PostConstruct
    void readSettings() {
        shedAfterNanos = settings.shedAfter().toNanos();
    }

    /** Stores the delivery and returns its row once committed; throws {@link DeliveryNotRecordedException}. */
    public RecordedDelivery store(IncomingDelivery delivery) {
        startWriters();
        long now = System.nanoTime();
        if (now - lastUnavailable < RECHECK_NANOS) {
            // the database was just found away: answer from the fallback now instead of waiting for it again
            throw new DeliveryNotRecordedException("the database was unavailable less than a second ago", null, true);
        }
        long behind = oldestWaitingNanos(now);
        if (behind > shedAfterNanos) {
            throw new WritersBehindException(TimeUnit.NANOSECONDS.toMillis(behind));
        }
        Waiting waiting = new Waiting(delivery, now);
        if (!queue.offer(waiting)) {
            throw new DeliveryNotRecordedException("ingest writers saturated (" + MAX_WAITING + " waiting)", null);
        }
        try {
            return waiting.result.get(settings.commitWait().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Not yet taken by a writer: it never will be. Taken: its row may still commit, and WeCom's retry
            // then becomes attempt 2 - a duplicate the consumers absorb, never a lost event.
            waiting.claim();
            waiting.result.cancel(false);
            throw new DeliveryNotRecordedException("no commit within " + settings.commitWait().toMillis() + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeliveryNotRecordedException("interrupted waiting for the commit", e);
        } catch (ExecutionException e) {
            boolean away = e.getCause() instanceof SQLException sql && databaseUnavailable(sql);
            if (away) {
                lastUnavailable = System.nanoTime();
            }
            throw new DeliveryNotRecordedException("callback_log insert failed: " + e.getCause().getMessage(),
                e.getCause(), away, away ? waiting.insertedAs : null);
        }
    }

    /** How long the oldest delivery not yet taken by a writer has waited at {@code now}; 0 when none waits. */
    private long oldestWaitingNanos(long now) {
        Waiting head = queue.peek();
        return head == null ? 0 : Math.max(0, now - head.queuedNanos);
    }

    private void startWriters() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        for (int i = 0; i < settings.writers(); i++) {
            Thread writer = threads.newThread(this::writeLoop);
            writer.setName("wecom-ingest-writer-" + i);
            writer.setDaemon(true);
            writers.add(writer);
            writer.start();
        }
    }

    private void writeLoop() {
        List<Waiting> group = new ArrayList<>(settings.commitBatchSize());
        while (running) {
            try {
                Waiting first = queue.poll(500, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                group.clear();
                group.add(first);
                queue.drainTo(group, settings.commitBatchSize() - 1);
                group.removeIf(w -> !w.claim());
                if (!group.isEmpty()) {
                    commit(group);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "ingest writer failed; continuing", e);
                group.forEach(w -> w.result.completeExceptionally(e));
            }
        }
    }

    private void commit(List<Waiting> group) {
        try {
            List<RecordedDelivery> rows = insertAndCommit(group);
            for (int i = 0; i < group.size(); i++) {
                group.get(i).result.complete(rows.get(i));
            }
            committed.fire(CallbackRowsCommitted.of(group.stream().map(w -> w.delivery).toList()));
        } catch (SQLException e) {
            if (group.size() == 1 || databaseUnavailable(e)) {
                group.forEach(w -> w.result.completeExceptionally(e));
                return;
            }
            // One bad row must not refuse its neighbours: alone, each gets its own commit or its own 503.
            LOG.log(Level.WARNING, "group commit of " + group.size() + " rows failed (" + e.getSQLState()
                + "); committing them one by one");
            for (Waiting w : group) {
                if (!w.result.isDone()) { // a request that already answered 503 is WeCom's to re-send
                    commit(List.of(w));
                }
            }
        }
    }

    private List<RecordedDelivery> insertAndCommit(List<Waiting> group) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                List<IncomingDelivery> deliveries = group.stream().map(w -> w.delivery).toList();
                List<RecordedDelivery> rows = CallbackLogInsert.insert(c, deliveries);
                for (int i = 0; i < group.size(); i++) {
                    group.get(i).insertedAs = rows.get(i).callbackLogId(); // in case the commit's outcome is unknown
                }
                commits.commit(c, deliveries);
                return rows;
            } catch (SQLException | RuntimeException e) {
                Rollback.quietly(c);
                throw e;
            }
        }
    }

    // No connection, server shutting down, out of resources, our login refused: every row of the group would
    // fail alike, and trying them one by one would hold this writer for minutes while the database is away.
    static boolean databaseUnavailable(SQLException e) {
        String state = e.getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57") || state.startsWith("53")
            || state.startsWith("28");
    }

    @PreDestroy
    void stop() {
        running = false;
        writers.forEach(Thread::interrupt);
        Waiting w;
        while ((w = queue.poll()) != null) {
            w.result.completeExceptionally(new IllegalStateException("server stopping"));
        }
    }

    /** A request's delivery and the answer it waits for; claimed once, by a writer or by its timed-out request. */
    private static final class Waiting {
        final IncomingDelivery delivery;
        final long queuedNanos;
        final CompletableFuture<RecordedDelivery> result = new CompletableFuture<>();
        /** Its row's id in the last insert before a commit; read after the result, which publishes it. */
        Long insertedAs;
        private final AtomicBoolean claimed = new AtomicBoolean();

        Waiting(IncomingDelivery delivery, long queuedNanos) {
            this.delivery = delivery;
            this.queuedNanos = queuedNanos;
        }

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }
    }

    /**
     * Refused before it was queued: the writers are behind by more than the shed bound. Nothing was written; an
     * early 503 lets WeCom re-send after 5 s instead of waiting out the commit bound for the same 503.
     */
    public static final class WritersBehindException extends DeliveryNotRecordedException {
        private static final long serialVersionUID = 1L;

        WritersBehindException(long behindMillis) {
            super("ingest writers " + behindMillis + " ms behind", null);
        }
    }

    /** The delivery could not be stored; nothing of it was committed unless its commit raced the 503. */
    public static class DeliveryNotRecordedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final boolean databaseUnavailable;
        private final Long possiblyStoredAs;

        DeliveryNotRecordedException(String message, Throwable cause) {
            this(message, cause, false, null);
        }

        DeliveryNotRecordedException(String message, Throwable cause, boolean databaseUnavailable) {
            this(message, cause, databaseUnavailable, null);
        }

        DeliveryNotRecordedException(String message, Throwable cause, boolean databaseUnavailable,
                                     Long possiblyStoredAs) {
            super(message, cause);
            this.databaseUnavailable = databaseUnavailable;
            this.possiblyStoredAs = possiblyStoredAs;
        }

        /**
         * The row the insert wrote before its commit failed on a lost connection: that commit may have gone
         * through (only its answer lost), so a copy kept in the broker must not be written again if it did.
         */
        public Long possiblyStoredAs() {
            return possiblyStoredAs;
        }

        /** True when PostgreSQL was away (not one bad row, not a slow commit): the broker may keep it instead. */
        public boolean databaseUnavailable() {
            return databaseUnavailable;
        }
    }
}
