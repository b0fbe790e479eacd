package io.wecominbox.callbacklog;

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

    // SKIP LOCKED: rows another node's relay holds are its to publish; this one takes the next ones.
    private static final String TAKE_OF_TYPES = "SELECT " + EventMessages.COLUMNS
        + " FROM callback_log WHERE published_at IS NULL AND event_type = ANY (?)"
        + " ORDER BY callback_log_id LIMIT ? FOR UPDATE SKIP LOCKED";
    private static final String TAKE_OTHERS = "SELECT " + EventMessages.COLUMNS
        + " FROM callback_log WHERE published_at IS NULL AND NOT (coalesce(event_type, '') = ANY (?))"
        + " ORDER BY callback_log_id LIMIT ? FOR UPDATE SKIP LOCKED";
    private static final String MARK = "UPDATE callback_log SET published_at = now() WHERE callback_log_id = ANY (?)";
    // V76: counts through the unpublished index without a bitmap, so the relay's dead entries are skipped once seen
    private static final String BACKLOG = "SELECT waiting, oldest_seconds FROM callback_log_unpublished()";

    private UnpublishedRows() {
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
            try (ResultSet rs = take.executeQuery()) {
                while (rs.next()) {
                    rows.add(EventMessages.read(rs));
                }
            }
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
