package io.wecominbox.callbacklog;

import io.wecominbox.db.ResultSets;
import io.wecominbox.messaging.EventEnvelope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The relay's SQL over callback_log.published_at (V40): take the oldest waiting rows of a lane, mark them
 * published. A lane is a set of event types: its rows ({@link #takeOfTypes}, V75's index) or every other row
 * ({@link #takeOtherThan}); together the two take every row, an event type missing from a row included.
 */
public final class UnpublishedRows {

    // Every mark leaves a dead entry in the unpublished indexes until the next vacuum. A bitmap scan visits the
    // heap page of each at every take (the deadline lane's: 23 ms a take after five minutes at 200/s, growing);
    // a plain index scan marks them dead once seen and skips them after. The setting holds for the take alone,
    // in its round trip: left on, it turned the mark into a sequential scan of 106 ms
    // (docs/benchmarks.md, "The deadline lane's take").
    private static final String NO_BITMAP = "SET LOCAL enable_bitmapscan = off";
    private static final String BITMAP_AS_BEFORE = "SET LOCAL enable_bitmapscan TO DEFAULT";

    // SKIP LOCKED: rows another node's relay holds are its to publish; this one takes the next ones.
    static final String SELECT_OF_TYPES = "SELECT " + EventMessages.COLUMNS
        + " FROM callback_log WHERE published_at IS NULL AND event_type = ANY (?)"
        + " ORDER BY callback_log_id LIMIT ? FOR UPDATE SKIP LOCKED";
    static final String SELECT_OTHERS = "SELECT " + EventMessages.COLUMNS
        + " FROM callback_log WHERE published_at IS NULL AND NOT (coalesce(event_type, '') = ANY (?))"
        + " ORDER BY callback_log_id LIMIT ? FOR UPDATE SKIP LOCKED";
    private static final String TAKE_OF_TYPES = withoutBitmap(SELECT_OF_TYPES);
    private static final String TAKE_OTHERS = withoutBitmap(SELECT_OTHERS);
    private static final String MARK = "UPDATE callback_log SET published_at = now() WHERE callback_log_id = ANY (?)";
    // V76: counts through the unpublished index without a bitmap, so the relay's dead entries are skipped once seen
    private static final String BACKLOG = "SELECT waiting, oldest_seconds FROM callback_log_unpublished()";

    private UnpublishedRows() {
    }

    /** The statement between the two settings, all three sent in one round trip. */
    static String withoutBitmap(String statement) {
        return NO_BITMAP + ";\n" + statement + ";\n" + BITMAP_AS_BEFORE;
    }

    /** Locks and returns up to {@code limit} waiting rows of these types, oldest first, as messages to publish. */
    public static List<EventEnvelope> takeOfTypes(Connection c, Set<String> types, int limit) throws SQLException {
        return take(c, TAKE_OF_TYPES, types, limit);
    }

    /** The same for every waiting row whose type is none of these (all of them when the set is empty). */
    public static List<EventEnvelope> takeOtherThan(Connection c, Set<String> types, int limit) throws SQLException {
        return take(c, TAKE_OTHERS, types, limit);
    }

    private static List<EventEnvelope> take(Connection c, String sql, Set<String> types, int limit)
            throws SQLException {
        List<EventEnvelope> rows = new ArrayList<>();
        try (PreparedStatement take = c.prepareStatement(sql)) {
            take.setArray(1, c.createArrayOf("text", types.toArray()));
            take.setInt(2, limit);
            ResultSets.each(take, (number, rs) -> { // the two SETs answer no rows: the select's are the only ones
                while (rs.next()) {
                    rows.add(EventMessages.read(rs));
                }
            });
        }
        return rows;
    }

    public static void markPublished(Connection c, List<EventEnvelope> rows) throws SQLException {
        Long[] ids = rows.stream().map(EventEnvelope::callbackLogId).toArray(Long[]::new);
        try (PreparedStatement mark = c.prepareStatement(MARK)) {
            mark.setArray(1, c.createArrayOf("bigint", ids));
            mark.executeUpdate();
        }
    }

    /** {count, age of the oldest in seconds} of the rows still waiting. */
    public static double[] backlog(Connection c) throws SQLException {
        try (PreparedStatement q = c.prepareStatement(BACKLOG); ResultSet rs = q.executeQuery()) {
            rs.next();
            return new double[] {rs.getLong(1), rs.getDouble(2)};
        }
    }
}
