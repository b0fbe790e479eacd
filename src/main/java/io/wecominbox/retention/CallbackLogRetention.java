package io.wecominbox.retention;

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

/**
 * callback_log's retention (V73): month partitions made ahead, content erased in batches, whole months dropped.
 * A row the relay has not published yet is never erased, nor its month dropped: it is an acknowledged delivery
 * still on its way to the handlers. On an autocommit connection: each statement is its own transaction.
 */
final class CallbackLogRetention {

    // DDL on a partition waits for the table's lock behind the ACK path's inserts and blocks new ones while it
    // waits: give up soon and try again at the next run rather than hold callbacks up
    private static final String DDL_LOCK_TIMEOUT = "SET lock_timeout = '2s'";
    private static final String RESET_LOCK_TIMEOUT = "RESET lock_timeout";
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

    /** This month's partition and the next {@code monthsAhead}; the names of those made now. */
    static List<String> makeAhead(Connection c, Instant now, int monthsAhead) throws SQLException {
        List<String> before = partitions(c);
        List<String> made = new ArrayList<>();
        MonthPartition month = MonthPartition.containing(now);
        for (int i = 0; i <= monthsAhead; i++, month = month.next()) {
            if (before.contains(month.name())) {
                continue;
            }
            try (Statement s = c.createStatement()) {
                s.execute(DDL_LOCK_TIMEOUT);
            }
            try (PreparedStatement make = c.prepareStatement(MAKE)) {
                make.setObject(1, OffsetDateTime.ofInstant(month.start(), ZoneOffset.UTC));
                make.execute();
                made.add(month.name());
            } finally {
                try (Statement s = c.createStatement()) {
                    s.execute(RESET_LOCK_TIMEOUT);
                }
            }
        }
        return made;
    }

    /** Erases the content of published deliveries received before {@code before}; rows erased. */
    static long erase(Connection c, Instant before, int batch) throws SQLException {
        return Batches.repeat(c, ERASE, batch, OffsetDateTime.ofInstant(before, ZoneOffset.UTC));
    }

    /** The month partitions whose every instant is before {@code cutoff}, oldest first. */
    static List<MonthPartition> monthsBefore(Connection c, Instant cutoff) throws SQLException {
        List<MonthPartition> due = new ArrayList<>();
        for (String name : partitions(c)) {
            MonthPartition.ofName(name).filter(p -> p.entirelyBefore(cutoff)).ifPresent(due::add);
        }
        return due;
    }

    /** What became of a month past its window. */
    record Drop(long rows, long unpublished, boolean lockTimedOut) {
        boolean dropped() {
            return unpublished == 0 && !lockTimedOut;
        }
    }

    /**
     * Drops the month's partition unless it holds a row the relay has not published: checked and dropped in one
     * transaction under the partition's exclusive lock, so no row can arrive between the two. The lock is waited
     * for at most 2 s (then the next run tries again).
     */
    static Drop dropIfAllPublished(Connection c, MonthPartition month) throws SQLException {
        // its own transaction on an autocommit connection; a savepoint in a caller's (the tests')
        boolean own = c.getAutoCommit();
        Savepoint savepoint = null;
        if (own) {
            c.setAutoCommit(false);
        } else {
            savepoint = c.setSavepoint();
        }
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL lock_timeout = '2s'");
            // the name is one MonthPartition made (callback_log_pYYYYMM), never text from outside
            s.execute("LOCK TABLE " + month.name() + " IN ACCESS EXCLUSIVE MODE");
            long unpublished = count(c, "SELECT count(*) FROM " + month.name() + " WHERE published_at IS NULL");
            long rows = count(c, "SELECT count(*) FROM " + month.name());
            if (unpublished > 0) {
                undo(c, savepoint);
                return new Drop(rows, unpublished, false);
            }
            s.execute("DROP TABLE " + month.name());
            if (own) {
                c.commit();
            } else {
                c.releaseSavepoint(savepoint);
            }
            return new Drop(rows, 0, false);
        } catch (SQLException e) {
            undo(c, savepoint);
            if ("55P03".equals(e.getSQLState())) {
                return new Drop(0, 0, true);
            }
            throw e;
        } finally {
            if (own) {
                c.setAutoCommit(true);
            }
        }
    }

    private static void undo(Connection c, Savepoint savepoint) throws SQLException {
        if (savepoint == null) {
            c.rollback();
        } else {
            c.rollback(savepoint);
        }
    }

    static long defaultPartitionRows(Connection c) throws SQLException {
        return count(c, DEFAULT_ROWS);
    }

    /** The default partition's published rows received before {@code before}; rows deleted. */
    static long deleteFromDefault(Connection c, Instant before, int batch) throws SQLException {
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
