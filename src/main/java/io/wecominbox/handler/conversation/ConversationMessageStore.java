package io.wecominbox.handler.conversation;

import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.HandledEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Query;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;

/**
 * Table conversation_message ({@link ConversationMessage}), written through the EntityManager in the
 * consumer's XA transaction. A native INSERT ... ON CONFLICT rather than persist: repeats are this handler's
 * normal case (it has no dedup record), and JPA's own insert would abort the PostgreSQL transaction, and with
 * it the batch, on the first one.
 */
@ApplicationScoped
public class ConversationMessageStore {

    private static final String INSERT = """
            INSERT INTO conversation_message (app, msg_id, msg_type, from_user, corp_id, agent_id, content, sent_at,
                plaintext, callback_log_id)
            VALUES\s""";
    private static final int COLUMNS = 10;
    private static final int SENT_AT = 8; // the one column the statement casts (to timestamptz)

    // DO NOTHING on conflict: every delivery of one MsgId carries the same message, so the first copy is the
    // message; a repeat, in the table or twice in one batch, neither changes the row nor fails the transaction.
    private static final String ON_CONFLICT = " ON CONFLICT (app, msg_id) DO NOTHING";

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    /** Returns true if this call stored the message, false if it was already there. */
    public boolean keep(HandledEvent handled) {
        return keepAll(List.of(handled)) == 1;
    }

    /**
     * Stores a consumer batch's messages in one statement (one per message cost 5 % of Liberty's CPU at 200
     * events/s: a native query built, bound and sent for each). In (app, MsgId) order, so two batches that share
     * messages wait on each other instead of deadlocking. Returns how many were new.
     */
    public int keepAll(List<HandledEvent> messages) {
        if (messages.isEmpty()) {
            return 0;
        }
        List<HandledEvent> sorted = messages.stream()
            .sorted(Comparator.comparing(HandledEvent::app).thenComparing(h -> h.event().msgId())).toList();
        StringBuilder sql = new StringBuilder(INSERT);
        for (int row = 0; row < sorted.size(); row++) {
            sql.append(row == 0 ? "(" : ", (");
            for (int column = 1; column <= COLUMNS; column++) {
                String parameter = "?" + (row * COLUMNS + column);
                sql.append(column == 1 ? "" : ", ")
                    .append(column == SENT_AT ? "CAST(" + parameter + " AS timestamptz)" : parameter);
            }
            sql.append(')');
        }
        Query insert = em.createNativeQuery(sql.append(ON_CONFLICT).toString());
        for (int row = 0; row < sorted.size(); row++) {
            HandledEvent handled = sorted.get(row);
            WeComEvent e = handled.event();
            OffsetDateTime sentAt = e.createTime() > 0
                ? OffsetDateTime.ofInstant(Instant.ofEpochSecond(e.createTime()), ZoneOffset.UTC) : null;
            int p = row * COLUMNS;
            insert.setParameter(p + 1, handled.app())
                .setParameter(p + 2, e.msgId())
                .setParameter(p + 3, e.msgType())
                .setParameter(p + 4, e.fromUserName())
                .setParameter(p + 5, e.toUserName())
                .setParameter(p + 6, e.agentId())
                .setParameter(p + 7, e.field("Content"))
                .setParameter(p + SENT_AT, sentAt)
                .setParameter(p + 9, handled.plaintext())
                .setParameter(p + 10, handled.callbackLogId());
        }
        return insert.executeUpdate();
    }
}
