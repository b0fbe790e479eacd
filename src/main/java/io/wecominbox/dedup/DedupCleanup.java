package io.wecominbox.dedup;

import io.wecominbox.db.SessionLock;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Deletes expired cold-tier rows (handler_dedup past expires_at) and old handler_disposition rows, in small
 * batches so no statement holds many locks or runs long. One node at a time: the run holds a PostgreSQL
 * session advisory lock and a node that cannot get it skips. Redis keys expire by their own TTL.
 * Observable: metrics {@code wecom.dedup.cleanup.*} and one log line per run.
 */
@ApplicationScoped
public class DedupCleanup {

    private static final Logger LOG = Logger.getLogger(DedupCleanup.class.getName());

    /** One node at a time: our namespace ("WC" + 2), then this job. */
    private static final SessionLock LOCK = new SessionLock(0x5743_0002, 1);

    private static final String DELETE_EXPIRED = """
            DELETE FROM handler_dedup WHERE dedup_key IN (
                SELECT dedup_key FROM handler_dedup WHERE expires_at < now() LIMIT ? FOR UPDATE SKIP LOCKED)
            """;
    private static final String DELETE_OLD_DISPOSITIONS = """
            DELETE FROM handler_disposition WHERE disposition_id IN (
                SELECT disposition_id FROM handler_disposition WHERE recorded_at < now() - ? * interval '1 second'
                LIMIT ?)
            """;
    private static final String BACKLOG = "SELECT count(*) FROM handler_dedup WHERE expires_at < now()";

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    MetricRegistry metrics;

    @Inject
    ConfiguredHotTier hotTier;

    @Inject
    @ConfigProperty(name = "wecom.dedup.cleanup.batch", defaultValue = "1000")
    int batch;

    @Inject
    @ConfigProperty(name = "wecom.dedup.disposition.retention", defaultValue = "P30D")
    Duration dispositionRetention;

    private final AtomicLong lastSuccessEpochSeconds = new AtomicLong();
    private final AtomicLong lastDurationMillis = new AtomicLong();
    private final AtomicLong backlog = new AtomicLong();

    /** Feeds the dashboard's "cleanup" panel and the wecom.cleanup.runs counter. */
    @Inject
    ConsumerMetrics consumerMetrics;

    @PostConstruct
    void registerGauges() {
        Tag tier = new Tag("tier", "cold");
        metrics.gauge("wecom.dedup.cleanup.last.success.epoch.seconds", lastSuccessEpochSeconds, AtomicLong::get, tier);
        metrics.gauge("wecom.dedup.cleanup.last.duration.seconds", lastDurationMillis, v -> v.get() / 1000.0, tier);
        metrics.gauge("wecom.dedup.cleanup.backlog", backlog, AtomicLong::get, tier);
    }

    /** One run; returns false when another node holds the lock (nothing done). */
    public boolean runOnce() throws SQLException {
        try {
            return cleanUp();
        } catch (SQLException | RuntimeException e) {
            consumerMetrics.cleanupFailed("handler_dedup", e.getClass().getSimpleName());
            throw e;
        }
    }

    private boolean cleanUp() throws SQLException {
        hotTier.sweepExpired();
        long started = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true); // every batch commits on its own; the lock is per session
            if (!LOCK.tryLock(connection)) {
                LOG.fine("dedup cleanup skipped: another node is running it");
                return false;
            }
            try {
                long dedupRows = deleteInBatches(connection, DELETE_EXPIRED, false);
                long dispositionRows = deleteInBatches(connection, DELETE_OLD_DISPOSITIONS, true);
                long remaining = count(connection);
                long millis = (System.nanoTime() - started) / 1_000_000;
                metrics.counter("wecom.dedup.cleanup.deleted", new Tag("table", "handler_dedup")).inc(dedupRows);
                metrics.counter("wecom.dedup.cleanup.deleted", new Tag("table", "handler_disposition"))
                    .inc(dispositionRows);
                backlog.set(remaining);
                lastDurationMillis.set(millis);
                lastSuccessEpochSeconds.set(System.currentTimeMillis() / 1000);
                consumerMetrics.cleanupFinished("handler_dedup", dedupRows + dispositionRows, Duration.ofMillis(millis));
                LOG.info("dedup cleanup: deleted " + dedupRows + " expired handler_dedup rows and " + dispositionRows
                    + " handler_disposition rows older than " + dispositionRetention + " in " + millis
                    + " ms; expired rows left: " + remaining);
                return true;
            } finally {
                LOCK.unlock(connection);
            }
        }
    }

    private long deleteInBatches(Connection connection, String sql, boolean withAge) throws SQLException {
        long total = 0;
        try (PreparedStatement delete = connection.prepareStatement(sql)) {
            while (true) {
                int i = 0;
                if (withAge) {
                    delete.setLong(++i, dispositionRetention.toSeconds());
                }
                delete.setInt(++i, batch);
                int rows = delete.executeUpdate();
                total += rows;
                if (rows < batch) {
                    return total;
                }
            }
        }
    }

    private static long count(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(BACKLOG);
             ResultSet rs = statement.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
