package io.wecominbox.handler.conversation;

import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.HandledEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Table conversation_message ({@link ConversationMessage}), written through the EntityManager in the
 * consumer's XA transaction. A native INSERT ... ON CONFLICT rather than persist: repeats are this handler's
 * normal case (it has no dedup record), and JPA's own insert would abort the PostgreSQL transaction, and with
 * it the batch, on the first one.
 */
@ApplicationScoped
public class ConversationMessageStore {

    // DO NOTHING on conflict: every delivery of one MsgId carries the same message, so the first copy is the
    // message; a repeat neither changes the row nor fails the transaction.
    private static final String UPSERT = """
            INSERT INTO conversation_message (app, msg_id, msg_type, from_user, corp_id, agent_id, content, sent_at,
                plaintext, callback_log_id)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, CAST(?8 AS timestamptz), ?9, ?10)
            ON CONFLICT (app, msg_id) DO NOTHING
            """;

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    /** Returns true if this call stored the message, false if it was already there. */
    public boolean keep(HandledEvent handled) {
        WeComEvent e = handled.event();
        OffsetDateTime sentAt = e.createTime() > 0
            ? OffsetDateTime.ofInstant(Instant.ofEpochSecond(e.createTime()), ZoneOffset.UTC) : null;
        return em.createNativeQuery(UPSERT)
            .setParameter(1, handled.app())
            .setParameter(2, e.msgId())
            .setParameter(3, e.msgType())
            .setParameter(4, e.fromUserName())
            .setParameter(5, e.toUserName())
            .setParameter(6, e.agentId())
            .setParameter(7, e.field("Content"))
            .setParameter(8, sentAt)
            .setParameter(9, handled.plaintext())
            .setParameter(10, handled.callbackLogId())
            .executeUpdate() == 1;
    }
}
