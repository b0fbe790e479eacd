package io.wecominbox.retention;

import io.wecominbox.callbacklog.CallbackLogRetention;
import io.wecominbox.callbacklog.MonthPartition;
import io.wecominbox.cluster.NodeIdentity;
import io.wecominbox.db.SessionLock;
import io.wecominbox.dedup.ConsumerMetrics;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Customer data has a lifetime (docs/dba.md, "Retention"): content is erased after its window, rows leave after
 * theirs, callback_log by whole months (its partitions). One node at a time (a session advisory lock; a node
 * that cannot get it skips). Observable: the wecom.retention.* metrics, the dashboard's cleanup panel (job
 * "retention"), one log line per run with counts only, and the view retention_due.
 */
@ApplicationScoped
public class RetentionJob {

    private static final Logger LOG = Logger.getLogger(RetentionJob.class.getName());

    /** One node at a time: our namespace ("WC" + 3), then this job. */
    private static final SessionLock LOCK = new SessionLock(0x5743_0003, 1);

    private static final String POLICY = """
            INSERT INTO retention_policy (table_name, erase_after, drop_after, applied_by, applied_at)
            VALUES (?, justify_hours(? * interval '1 second'), justify_hours(? * interval '1 second'), ?, ?)
            ON CONFLICT (table_name) DO UPDATE SET erase_after = EXCLUDED.erase_after,
                drop_after = EXCLUDED.drop_after, applied_by = EXCLUDED.applied_by, applied_at = EXCLUDED.applied_at
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    RetentionSettings settings;

    @Inject
    NodeIdentity node;

    @Inject
    MetricRegistry metrics;

    @Inject
    ConsumerMetrics cleanupRuns;

    private final AtomicLong defaultPartitionRows = new AtomicLong();
    private final AtomicLong lastSuccessEpochSeconds = new AtomicLong();

    @PostConstruct
    void registerGauges() {
        metrics.gauge("wecom.retention.default.partition.rows", defaultPartitionRows, AtomicLong::get);
        metrics.gauge("wecom.retention.last.success.epoch.seconds", lastSuccessEpochSeconds, AtomicLong::get);
    }

    /** One run now; {@code ran} false when another node is running it. */
    public RetentionRunResult runOnce() throws SQLException {
        try {
            return run(Instant.now());
        } catch (SQLException | RuntimeException e) {
            cleanupRuns.cleanupFailed("retention", e.getClass().getSimpleName());
            throw e;
        }
    }

    private RetentionRunResult run(Instant now) throws SQLException {
        List<RetentionPolicy> policies = settings.policies(); // invalid settings: nothing is touched
        int batch = settings.batch();
        long started = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true); // every batch and every DDL commits on its own; the lock is per session
            if (!LOCK.tryLock(c)) {
                LOG.fine("retention skipped: another node is running it");
                return RetentionRunResult.skipped();
            }
            try {
                Map<String, Long> erased = new LinkedHashMap<>();
                Map<String, Long> deleted = new LinkedHashMap<>();
                List<String> dropped = new ArrayList<>();
                Map<String, String> kept = new LinkedHashMap<>();
                List<String> made = CallbackLogRetention.makeAhead(c, now, settings.monthsAhead(), kept);
                for (RetentionPolicy policy : policies) {
                    writePolicy(c, policy, now);
                    apply(c, policy, now, batch, erased, deleted, dropped, kept);
                }
                long inDefault = CallbackLogRetention.defaultPartitionRows(c);
                defaultPartitionRows.set(inDefault);
                long millis = (System.nanoTime() - started) / 1_000_000;
                RetentionRunResult result = new RetentionRunResult(true, erased, deleted, made, dropped, kept,
                    inDefault, millis);
                report(result);
                return result;
            } finally {
                LOCK.unlock(c);
            }
        }
    }

    /** One table's retention on {@code c}, adding what it did to the maps and lists (package-private: tested). */
    static void apply(Connection c, RetentionPolicy policy, Instant now, int batch, Map<String, Long> erased,
                              Map<String, Long> deleted, List<String> dropped, Map<String, String> kept)
            throws SQLException {
        String table = policy.table();
        var eraseBefore = policy.eraseBefore(now);
        var dropBefore = policy.dropBefore(now);
        switch (table) {
            case RetainedTable.CALLBACK_LOG -> {
                if (eraseBefore.isPresent()) {
                    erased.put(table, CallbackLogRetention.erase(c, eraseBefore.get(), batch));
                }
                if (dropBefore.isPresent()) {
                    long rows = 0;
                    for (MonthPartition month : CallbackLogRetention.monthsBefore(c, dropBefore.get())) {
                        CallbackLogRetention.Drop drop = CallbackLogRetention.dropIfAllPublished(c, month);
                        if (drop.dropped()) {
                            dropped.add(month.name());
                            rows += drop.rows();
                        } else if (drop.lockTimedOut()) {
                            kept.put(month.name(), "lock not had within 0.5 s");
                        } else {
                            kept.put(month.name(), drop.unpublished() + " unpublished row(s)");
                        }
                    }
                    rows += CallbackLogRetention.deleteFromDefault(c, dropBefore.get(), batch);
                    deleted.put(table, rows);
                }
            }
            case RetainedTable.CONVERSATION_MESSAGE -> {
                if (eraseBefore.isPresent()) {
                    erased.put(table, RowRetention.eraseConversations(c, eraseBefore.get(), batch));
                }
                if (dropBefore.isPresent()) {
                    deleted.put(table, RowRetention.deleteConversations(c, dropBefore.get(), batch));
                }
            }
            case RetainedTable.BOT_REPLY_LOG -> {
                if (dropBefore.isPresent()) {
                    deleted.put(table, RowRetention.deleteBotReplies(c, dropBefore.get(), batch));
                }
            }
            case RetainedTable.CALLBACK_REJECTION -> {
                if (eraseBefore.isPresent()) {
                    erased.put(table, RowRetention.eraseRejectionSamples(c, eraseBefore.get()));
                }
                if (dropBefore.isPresent()) {
                    deleted.put(table, RowRetention.deleteRejections(c, dropBefore.get()));
                }
            }
            default -> throw new IllegalStateException("no retention for table " + table);
        }
    }

    private void writePolicy(Connection c, RetentionPolicy policy, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(POLICY)) {
            s.setString(1, policy.table());
            if (policy.eraseAfter() == null) {
                s.setNull(2, java.sql.Types.BIGINT);
            } else {
                s.setLong(2, policy.eraseAfter().toSeconds());
            }
            s.setLong(3, policy.dropAfter().toSeconds());
            s.setString(4, node.name());
            s.setObject(5, OffsetDateTime.ofInstant(now, ZoneOffset.UTC));
            s.executeUpdate();
        }
    }

    private void report(RetentionRunResult result) {
        result.erased().forEach((table, rows) ->
            metrics.counter("wecom.retention.rows", new Tag("table", table), new Tag("action", "erased")).inc(rows));
        result.deleted().forEach((table, rows) ->
            metrics.counter("wecom.retention.rows", new Tag("table", table), new Tag("action", "deleted")).inc(rows));
        metrics.counter("wecom.retention.partitions", new Tag("action", "made")).inc(result.partitionsMade().size());
        metrics.counter("wecom.retention.partitions", new Tag("action", "dropped"))
            .inc(result.partitionsDropped().size());
        lastSuccessEpochSeconds.set(System.currentTimeMillis() / 1000);
        cleanupRuns.cleanupFinished("retention", result.rowsRemoved(), Duration.ofMillis(result.millis()));
        // counts and partition names only: no row of customer data ever reaches the log
        LOG.info("retention: erased " + result.erased() + ", deleted " + result.deleted() + ", partitions made "
            + result.partitionsMade() + ", dropped " + result.partitionsDropped() + ", kept " + result.partitionsKept()
            + ", default partition rows " + result.defaultPartitionRows() + ", in " + result.millis() + " ms");
        if (result.defaultPartitionRows() > 0) {
            LOG.warning("retention: callback_log_default holds " + result.defaultPartitionRows() + " row(s): a month"
                + " had no partition when they arrived (docs/dba.md, \"Retention\")");
        }
    }
}
