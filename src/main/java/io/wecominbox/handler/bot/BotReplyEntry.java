package io.wecominbox.handler.bot;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * One row of bot_reply_log: a reply the bot committed. The dedup key is the identity (unique index
 * bot_reply_log_dedup_key_key); the surrogate bot_reply_id is the database's, read only, so inserts batch.
 */
@Entity
@Table(name = "bot_reply_log", uniqueConstraints = @UniqueConstraint(name = "bot_reply_log_dedup_key_key",
    columnNames = "dedup_key"))
public class BotReplyEntry {

    @Id
    @Column(name = "dedup_key")
    private String dedupKey;

    @Column(name = "bot_reply_id", insertable = false, updatable = false)
    private Long rowId;

    @Column(name = "app", nullable = false)
    private String app;

    @Column(name = "msg_id", nullable = false)
    private String msgId;

    @Column(name = "to_user", nullable = false)
    private String toUser;

    @Column(name = "batch_id")
    private String batchId;

    @Column(name = "callback_log_id")
    private Long callbackLogId;

    @Column(name = "event_created_at")
    private OffsetDateTime eventCreatedAt;

    @Column(name = "attempt_count", nullable = false)
    private int attemptCount;

    @Column(name = "status", nullable = false)
    private String status;

    @Column(name = "errcode")
    private Integer errcode;

    @Column(name = "errmsg")
    private String errmsg;

    @Column(name = "wecom_msgid")
    private String wecomMsgId;

    @Column(name = "duplicate_check", nullable = false)
    private boolean duplicateCheck;

    @Column(name = "sent_at")
    private OffsetDateTime sentAt;

    @Column(name = "recorded_at", insertable = false, updatable = false)
    private OffsetDateTime recordedAt;

    protected BotReplyEntry() {
    }

    BotReplyEntry(BotReplyLog.BotReply r) {
        dedupKey = r.dedupKey();
        app = r.app();
        msgId = r.msgId();
        toUser = r.toUser();
        batchId = r.batchId();
        callbackLogId = r.callbackLogId();
        eventCreatedAt = utc(r.eventCreatedAt());
        attemptCount = r.attempt();
        status = r.status();
        errcode = r.errcode();
        errmsg = r.errmsg();
        wecomMsgId = r.wecomMsgId();
        duplicateCheck = r.duplicateCheck();
        sentAt = utc(r.sentAt());
    }

    public String dedupKey() {
        return dedupKey;
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
