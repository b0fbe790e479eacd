package io.wecominbox.handler.bot;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;

/**
 * Table bot_reply_log ({@link BotReplyEntry}), written through the EntityManager in the consumer's XA
 * transaction (with the dedup record). A plain JPA insert: the dedup claim of the same transaction is on the
 * same key, so no second row for a key can reach the table.
 */
@ApplicationScoped
public class BotReplyLog {

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    public void record(BotReply reply) {
        em.persist(new BotReplyEntry(reply));
    }

    /** The batch's rows to the database now (one JDBC batch), not at the commit. */
    public void flush() {
        em.flush();
    }

    /** One row of bot_reply_log; {@code status} SENT or FAILED. */
    public record BotReply(String dedupKey, String app, String msgId, String toUser, String batchId,
                           long callbackLogId, Instant eventCreatedAt, int attempt, String status, Integer errcode,
                           String errmsg, String wecomMsgId, boolean duplicateCheck, Instant sentAt) {
    }
}
