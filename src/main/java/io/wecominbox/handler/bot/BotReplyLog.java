package io.wecominbox.handler.bot;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/** Table bot_reply_log, written in the consumer's XA transaction (with the dedup record). */
@ApplicationScoped
public class BotReplyLog {

    private static final String INSERT = """
            INSERT INTO bot_reply_log (dedup_key, app, msg_id, to_user, batch_id, callback_log_id, event_created_at,
                attempt_count, status, errcode, errmsg, wecom_msgid, duplicate_check, sent_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (dedup_key) DO NOTHING
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    public void record(BotReply reply) {
        try (Connection c = dataSource.getConnection(); PreparedStatement insert = c.prepareStatement(INSERT)) {
            int i = 0;
            insert.setString(++i, reply.dedupKey());
            insert.setString(++i, reply.app());
            insert.setString(++i, reply.msgId());
            insert.setString(++i, reply.toUser());
            insert.setString(++i, reply.batchId());
            insert.setLong(++i, reply.callbackLogId());
            insert.setObject(++i, utc(reply.eventCreatedAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            insert.setInt(++i, reply.attempt());
            insert.setString(++i, reply.status());
            if (reply.errcode() == null) {
                insert.setNull(++i, Types.INTEGER);
            } else {
                insert.setInt(++i, reply.errcode());
            }
            insert.setString(++i, reply.errmsg());
            insert.setString(++i, reply.wecomMsgId());
            insert.setBoolean(++i, reply.duplicateCheck());
            insert.setObject(++i, utc(reply.sentAt()), Types.TIMESTAMP_WITH_TIMEZONE);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("bot_reply_log write failed for " + reply.dedupKey(), e);
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** One row of bot_reply_log; {@code status} SENT or FAILED. */
    public record BotReply(String dedupKey, String app, String msgId, String toUser, String batchId,
                           long callbackLogId, Instant eventCreatedAt, int attempt, String status, Integer errcode,
                           String errmsg, String wecomMsgId, boolean duplicateCheck, Instant sentAt) {
    }
}
