package io.wecominbox.ingest;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Security audit of refused callbacks: counted in memory ({@link RejectionTally}) and upserted into
 * callback_rejection every few seconds, one row per (hour, app, reason). A flood costs a counter and at most
 * one row per hour and reason; a failed flush keeps the counts for the next one.
 */
@ApplicationScoped
public class RejectionAudit {

    private static final Logger LOG = Logger.getLogger(RejectionAudit.class.getName());
    private static final int MAX_KEYS = 10_000;

    private static final String UPSERT = """
            INSERT INTO callback_rejection AS r (hour_bucket, app, reason, rejection_count, first_seen, last_seen,
                last_remote_addr, sample)
            VALUES (?::timestamptz, ?, ?, ?, ?::timestamptz, ?::timestamptz, ?, ?)
            ON CONFLICT (hour_bucket, app, reason) DO UPDATE SET
                rejection_count = r.rejection_count + EXCLUDED.rejection_count,
                first_seen = least(r.first_seen, EXCLUDED.first_seen),
                last_seen = greatest(r.last_seen, EXCLUDED.last_seen),
                last_remote_addr = CASE WHEN EXCLUDED.last_seen >= r.last_seen
                    THEN EXCLUDED.last_remote_addr ELSE r.last_remote_addr END,
                sample = CASE WHEN EXCLUDED.last_seen >= r.last_seen THEN EXCLUDED.sample ELSE r.sample END
            """;

    private final RejectionTally tally = new RejectionTally(MAX_KEYS);

    @Resource
    private ManagedScheduledExecutorService scheduler;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    private IngestSettings settings;

    @Inject
    private Clock clock;

    private ScheduledFuture<?> flushing;

    @PostConstruct
    void start() {
        long period = settings.rejectionFlushInterval().toMillis();
        flushing = scheduler.scheduleWithFixedDelay(this::flushQuietly, period, period, TimeUnit.MILLISECONDS);
    }

    /** Starts the flush at deployment rather than at the first rejection. */
    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // being called created the bean
    }

    @PreDestroy
    void stop() {
        if (flushing != null) {
            flushing.cancel(false);
        }
        flushQuietly();
    }

    /** Counts one refused request. {@code app} is a configured app name, or "?" for anything else. */
    public void record(String app, Rejection rejection, String remoteAddr, String detail) {
        tally.add(app, rejection, clock.instant(), remoteAddr, detail);
    }

    /** Writes everything counted so far; returns how many rows it upserted. Public for tests and shutdown. */
    public int flush() throws SQLException {
        long dropped = tally.takeDropped();
        if (dropped > 0) {
            LOG.warning("callback rejection audit full: " + dropped + " rejections were not counted");
        }
        List<RejectionTally.Entry> entries = tally.drain();
        if (entries.isEmpty()) {
            return 0;
        }
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false); // all or nothing, so a failed flush can put everything back
            try (PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
                for (RejectionTally.Entry e : entries) {
                    upsert.setObject(1, utc(e.hourBucket()));
                    upsert.setString(2, e.app());
                    upsert.setString(3, e.reason());
                    upsert.setLong(4, e.count());
                    upsert.setObject(5, utc(e.firstSeen()));
                    upsert.setObject(6, utc(e.lastSeen()));
                    upsert.setString(7, e.lastRemoteAddr());
                    upsert.setString(8, e.sample());
                    upsert.addBatch();
                }
                upsert.executeBatch();
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            tally.restore(entries);
            throw e;
        }
        long total = entries.stream().mapToLong(RejectionTally.Entry::count).sum();
        LOG.info("callback rejections recorded: " + total + " in " + entries.size() + " (hour, app, reason) group(s)");
        return entries.size();
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.WARNING, "could not write callback rejections, keeping them for the next try: {0}",
                    e.toString());
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
