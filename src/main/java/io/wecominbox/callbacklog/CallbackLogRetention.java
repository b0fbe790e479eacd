package io.wecominbox.callbacklog;

import io.wecominbox.db.Batches;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * callback_log's retention (V73): month partitions made ahead, content erased in batches, whole months dropped.
 * A row the relay has not published yet is never erased, nor its month dropped: it is an acknowledged delivery
 * still on its way to the handlers. On an autocommit connection: each batch, and each partition's making or
 * dropping, is a transaction of its own.
 */
public final class CallbackLogRetention {

    // Making or dropping a partition takes callback_log's own lock: it waits behind the ACK path's inserts in
    // flight (milliseconds) and holds new ones up while it waits. Give up after half a second and try again at
    // the next run rather than hold callbacks longer.
    private static final String DDL_LOCK_TIMEOUT = "SET LOCAL lock_timeout = '500ms'";
    private static final String LOCK_NOT_AVAILABLE = "55P03";
    // a month whose rows already sit in the default partition cannot be given its own
    private static final String CHECK_VIOLATION = "23514";
    private static final String MAKE = "SELECT callback_log_month_partition(?)";
    private static final String ERASE = """
            UPDATE callback_log SET raw_body = '', plaintext = '', content_erased_at = now()
            WHERE (callback_log_id, received_at) IN (
                SELECT callback_log_id, received_at FROM callback_log
                WHERE content_erased_at IS NULL AND received_at < ? AND published_at IS NOT NULL
                ORDER BY received_at LIMIT ? FOR UPDATE SKIP LOCKED)
            """;
    private static final String PARTITIONS = """
            SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
            WHERE i.inhparent = 'callback_log'::regclass ORDER BY c.relname
            """;
    private static final String DEFAULT_ROWS = "SELECT count(*) FROM callback_log_default";
    private static final String DELETE_FROM_DEFAULT = """
            DELETE FROM callback_log_default WHERE (callback_log_id, received_at) IN (
                SELECT callback_log_id, received_at FROM callback_log_default
                WHERE received_at < ? AND published_at IS NOT NULL LIMIT ? FOR UPDATE SKIP LOCKED)
            """;

    private CallbackLogRetention() {
    }

    /**
     * This month's partition and the next {@code monthsAhead}; the names of those made now. A month that could not
     * be made goes into {@code notMade} with the reason (its deliveries then go to the default partition).
     */
    public static List<String> makeAhead(Connection c, Instant now, int monthsAhead, Map<String, String> notMade)
            throws SQLException {
        List<String> before = partitions(c);
        List<String> made = new ArrayList<>();
        MonthPartition next = MonthPartition.containing(now);
        for (int i = 0; i <= monthsAhead; i++, next = next.next()) {
            MonthPartition month = next;
            if (before.contains(month.name())) {
                continue;
            }
            try {
                inTransaction(c, () -> {
                    try (PreparedStatement make = c.prepareStatement(MAKE)) {
                        make.setObject(1, OffsetDateTime.ofInstant(month.start(), ZoneOffset.UTC));
                        make.execute();
                    }
                    return null;
                });
                made.add(month.name());
            } catch (SQLException e) {
                if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                    notMade.put(month.name(), "not made: lock not had within 0.5 s");
                } else if (CHECK_VIOLATION.equals(e.getSQLState())) {
                    notMade.put(month.name(), "not made: its rows are in callback_log_default already");
                } else {
                    throw e;
                }
            }
        }
        return made;
    }

    /** Erases the content of published deliveries received before {@code before}; rows erased. */
    public static long erase(Connection c, Instant before, int batch) throws SQLException {
        return Batches.repeat(c, ERASE, batch, OffsetDateTime.ofInstant(before, ZoneOffset.UTC));
    }

    /** The month partitions whose every instant is before {@code cutoff}, oldest first. */
    public static List<MonthPartition> monthsBefore(Connection c, Instant cutoff) throws SQLException {
        List<MonthPartition> due = new ArrayList<>();
        for (String name : partitions(c)) {
            MonthPartition.ofName(name).filter(p -> p.entirelyBefore(cutoff)).ifPresent(due::add);
        }
        return due;
    }

    /** What became of a month past its window. */
    public record Drop(long rows, long unpublished, boolean lockTimedOut) {
        public boolean dropped() {
            return unpublished == 0 && !lockTimedOut;
        }
    }

    /**
     * Drops the month's partition unless it holds a row the relay has not published. The check and the drop run
     * in one transaction holding callback_log's lock, then the month's (the order the ACK path's statements take
     * them in, so neither waits for the other in a circle), so no row can arrive between the two. The unpublished
     * rows are counted on their partial index: the lock is held for milliseconds.
     */
    public static Drop dropIfAllPublished(Connection c, MonthPartition month) throws SQLException {
        long rows = count(c, "SELECT count(*) FROM " + month.name()); // for the report; before any lock
        try {
            // a month that still waits for the relay is left as it is: the transaction ends having changed nothing
            return inTransaction(c, () -> {
                try (Statement s = c.createStatement()) {
                    s.execute("LOCK TABLE ONLY callback_log IN ACCESS EXCLUSIVE MODE");
                    // the name is one MonthPartition made (callback_log_pYYYYMM), never text from outside
                    s.execute("LOCK TABLE " + month.name() + " IN ACCESS EXCLUSIVE MODE");
                    long unpublished = count(c, "SELECT count(*) FROM " + month.name() + " WHERE published_at IS NULL");
                    if (unpublished == 0) {
                        s.execute("DROP TABLE " + month.name());
                    }
                    return new Drop(rows, unpublished, false);
                }
            });
        } catch (SQLException e) {
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                return new Drop(rows, 0, true);
            }
            throw e;
        }
    }

    private interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * {@code work} in a transaction with a short lock timeout: its own on an autocommit connection, committed; a
     * savepoint inside a caller's transaction (the tests'), released. Undone on any failure.
     */
    private static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
        boolean own = c.getAutoCommit();
        Savepoint savepoint = null;
        if (own) {
            c.setAutoCommit(false);
        } else {
            savepoint = c.setSavepoint();
        }
        try {
            try (Statement s = c.createStatement()) {
                s.execute(DDL_LOCK_TIMEOUT);
            }
            T result = work.run();
            if (own) {
                c.commit();
            } else {
                c.releaseSavepoint(savepoint);
            }
            return result;
        } catch (SQLException | RuntimeException e) {
            if (savepoint == null) {
                c.rollback();
            } else {
                c.rollback(savepoint);
            }
            throw e;
        } finally {
            if (own) {
                c.setAutoCommit(true);
            }
        }
    }

    public static long defaultPartitionRows(Connection c) throws SQLException {
        return count(c, DEFAULT_ROWS);
    }

    /** The default partition's published rows received before {@code before}; rows deleted. */
    public static long deleteFromDefault(Connection c, Instant before, int batch) throws SQLException {
        return Batches.repeat(c, DELETE_FROM_DEFAULT, batch, OffsetDateTime.ofInstant(before, ZoneOffset.UTC));
    }

    private static List<String> partitions(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement q = c.prepareStatement(PARTITIONS); ResultSet rs = q.executeQuery()) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (PreparedStatement q = c.prepareStatement(sql); ResultSet rs = q.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
