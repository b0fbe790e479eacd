package io.wecominbox.handler.conversation;

import static io.wecominbox.db.ArrayColumns.column;

import io.wecominbox.db.DatabaseFailure;
import io.wecominbox.handler.HandledEvent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.List;
import javax.sql.DataSource;

/**
 * Table conversation_message ({@link ConversationMessage}), written in the consumer's XA transaction (the
 * container shares the transaction's one connection, as for the dedup claim). An INSERT ... ON CONFLICT rather
 * than persist: repeats are this handler's normal case (it has no dedup record), and JPA's own insert would
 * abort the PostgreSQL transaction, and with it the batch, on the first one.
 */
@ApplicationScoped
public class ConversationMessageStore {

    // A batch as one array per column, so the statement has ten parameters whatever the batch's size: through
    // EclipseLink, a VALUES row per message cost 11 % of Liberty's CPU at 500 events/s, its parameter lookup
    // growing with the square of their number (docs/benchmarks.md). unnest keeps the arrays' order.
    // DO NOTHING on conflict: every delivery of one MsgId carries the same message, so the first copy is the
    // message; a repeat, in the table or twice in one batch, neither changes the row nor fails the transaction.
    private static final String INSERT_ALL = """
            INSERT INTO conversation_message (app, msg_id, msg_type, from_user, corp_id, agent_id, content, sent_at,
                plaintext, callback_log_id)
            SELECT a, m, t, f, c, g, b, to_timestamp(s), p, l
            FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[],
                        ?::text[], ?::bigint[]) AS r(a, m, t, f, c, g, b, s, p, l)
            ON CONFLICT (app, msg_id) DO NOTHING
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    /** Returns true if this call stored the message, false if it was already there. */
    public boolean keep(HandledEvent handled) {
        return keepAll(List.of(handled)) == 1;
    }

    /**
     * Stores a consumer batch's messages in one statement, in (app, MsgId) order, so two batches that share
     * messages wait on each other instead of deadlocking. Returns how many were new.
     */
    public int keepAll(List<HandledEvent> messages) {
        if (messages.isEmpty()) {
            return 0;
        }
        List<HandledEvent> sorted = messages.stream()
            .sorted(Comparator.comparing(HandledEvent::app).thenComparing(h -> h.event().msgId())).toList();
        try (Connection c = dataSource.getConnection(); PreparedStatement insert = c.prepareStatement(INSERT_ALL)) {
            int i = 0;
            insert.setArray(++i, c.createArrayOf("text", column(sorted, HandledEvent::app)));
            insert.setArray(++i, c.createArrayOf("text", column(sorted, h -> h.event().msgId())));
            insert.setArray(++i, c.createArrayOf("text", column(sorted, h -> h.event().msgType())));
            insert.setArray(++i, c.createArrayOf("text", column(sorted, h -> h.event().fromUserName())));
            insert.setArray(++i, c.createArrayOf("text", column(sorted, h -> h.event().toUserName())));
            insert.setArray(++i, c.createArrayOf("text", column(sorted, h -> h.event().agentId())));
            insert.setArray(++i, c.createArrayOf("text", column(sorted, h -> h.event().field("Content"))));
            insert.setArray(++i, c.createArrayOf("bigint", column(sorted, ConversationMessageStore::sentAtSeconds)));
            insert.setArray(++i, c.createArrayOf("text", column(sorted, HandledEvent::plaintext)));
            insert.setArray(++i, c.createArrayOf("bigint", column(sorted, HandledEvent::callbackLogId)));
            return insert.executeUpdate();
        } catch (SQLException e) {
            throw DatabaseFailure.of("conversation_message insert", e);
        }
    }

    /** The message's CreateTime in epoch seconds; null when it has none. */
    private static Long sentAtSeconds(HandledEvent handled) {
        long created = handled.event().createTime();
        return created > 0 ? created : null;
    }
}
