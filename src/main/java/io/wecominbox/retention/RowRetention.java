package io.wecominbox.retention;

import io.wecominbox.db.Batches;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** The other tables' retention, by batches of rows (their volume is a fraction of callback_log's). */
final class RowRetention {

    private static final String ERASE_CONVERSATIONS = """
            UPDATE conversation_message SET content = NULL, plaintext = '', content_erased_at = now()
            WHERE (app, msg_id) IN (
                SELECT app, msg_id FROM conversation_message WHERE content_erased_at IS NULL AND stored_at < ?
                ORDER BY stored_at LIMIT ? FOR UPDATE SKIP LOCKED)
            """;
    private static final String DELETE_CONVERSATIONS = """
            DELETE FROM conversation_message WHERE (app, msg_id) IN (
                SELECT app, msg_id FROM conversation_message WHERE stored_at < ?
                ORDER BY stored_at LIMIT ? FOR UPDATE SKIP LOCKED)
            """;
    private static final String DELETE_BOT_REPLIES = """
            DELETE FROM bot_reply_log WHERE bot_reply_id IN (
                SELECT bot_reply_id FROM bot_reply_log WHERE recorded_at < ?
                ORDER BY recorded_at LIMIT ? FOR UPDATE SKIP LOCKED)
            """;
    // one row per hour, app and reason: a few thousand a month, one statement each
    private static final String ERASE_REJECTION_SAMPLES = """
            UPDATE callback_rejection SET sample = NULL, last_remote_addr = NULL
            WHERE hour_bucket < ? AND (sample IS NOT NULL OR last_remote_addr IS NOT NULL)
            """;
    private static final String DELETE_REJECTIONS = "DELETE FROM callback_rejection WHERE hour_bucket < ?";

    private RowRetention() {
    }

    static long eraseConversations(Connection c, Instant before, int batch) throws SQLException {
        return Batches.repeat(c, ERASE_CONVERSATIONS, batch, at(before));
    }

    static long deleteConversations(Connection c, Instant before, int batch) throws SQLException {
        return Batches.repeat(c, DELETE_CONVERSATIONS, batch, at(before));
    }

    static long deleteBotReplies(Connection c, Instant before, int batch) throws SQLException {
        return Batches.repeat(c, DELETE_BOT_REPLIES, batch, at(before));
    }

    static long eraseRejectionSamples(Connection c, Instant before) throws SQLException {
        return once(c, ERASE_REJECTION_SAMPLES, before);
    }

    static long deleteRejections(Connection c, Instant before) throws SQLException {
        return once(c, DELETE_REJECTIONS, before);
    }

    private static long once(Connection c, String sql, Instant before) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            statement.setObject(1, at(before));
            return statement.executeUpdate();
        }
    }

    private static OffsetDateTime at(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
