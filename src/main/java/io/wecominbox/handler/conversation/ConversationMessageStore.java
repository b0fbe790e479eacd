package io.wecominbox.handler.conversation;

import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.HandledEvent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/** Table conversation_message, written in the consumer's XA transaction. */
@ApplicationScoped
public class ConversationMessageStore {

    // DO NOTHING on conflict: every delivery of one MsgId carries the same message, so the first copy is the
    // message; a repeat neither changes the row nor fails the transaction.
    private static final String UPSERT = """
            INSERT INTO conversation_message (app, msg_id, msg_type, from_user, corp_id, agent_id, content, sent_at,
                plaintext, callback_log_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (app, msg_id) DO NOTHING
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    /** Returns true if this call stored the message, false if it was already there. */
    public boolean keep(HandledEvent handled) {
        WeComEvent e = handled.event();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
            int i = 0;
            upsert.setString(++i, handled.app());
            upsert.setString(++i, e.msgId());
            upsert.setString(++i, e.msgType());
            upsert.setString(++i, e.fromUserName());
            upsert.setString(++i, e.toUserName());
            upsert.setString(++i, e.agentId());
            upsert.setString(++i, e.field("Content"));
            upsert.setObject(++i, e.createTime() > 0
                ? OffsetDateTime.ofInstant(Instant.ofEpochSecond(e.createTime()), ZoneOffset.UTC) : null);
            upsert.setString(++i, handled.plaintext());
            upsert.setLong(++i, handled.callbackLogId());
            return upsert.executeUpdate() == 1;
        } catch (SQLException ex) {
            throw new IllegalStateException("conversation_message write failed for " + handled, ex);
        }
    }
}
