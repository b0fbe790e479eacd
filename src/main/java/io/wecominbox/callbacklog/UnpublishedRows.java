package io.wecominbox.callbacklog;

import io.wecominbox.messaging.EventEnvelope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The relay's SQL over callback_log.published_at (V40): take the oldest waiting rows, mark them published. */
public final class UnpublishedRows {

    // SKIP LOCKED: rows another node's relay holds are its to publish; this one takes the next ones.
    private static final String TAKE = "SELECT " + EventMessages.COLUMNS
        + " FROM callback_log WHERE published_at IS NULL ORDER BY callback_log_id LIMIT ? FOR UPDATE SKIP LOCKED";
    private static final String MARK = "UPDATE callback_log SET published_at = now() WHERE callback_log_id = ANY (?)";
    private static final String BACKLOG = """
            SELECT count(*), coalesce(extract(epoch FROM now() - min(received_at)), 0)
            FROM callback_log WHERE published_at IS NULL
            """;

    private UnpublishedRows() {
    }

    /** Locks and returns up to {@code limit} waiting rows, oldest first, as the messages to publish. */
    public static List<EventEnvelope> take(Connection c, int limit) throws SQLException {
        List<EventEnvelope> rows = new ArrayList<>();
        try (PreparedStatement take = c.prepareStatement(TAKE)) {
            take.setInt(1, limit);
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
