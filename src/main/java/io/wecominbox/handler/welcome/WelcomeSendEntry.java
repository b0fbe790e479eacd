package io.wecominbox.handler.welcome;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.OffsetDateTime;

/**
 * One row of welcome_send_log: how the welcome of one WelcomeCode ended. The code is the identity (the
 * migration's unique index welcome_send_log_welcome_code_key); the surrogate welcome_send_id is the
 * database's, read only, so inserts need no id round trip and batch-write.
 */
@Entity
@Table(name = "welcome_send_log", uniqueConstraints = @UniqueConstraint(name = "welcome_send_log_welcome_code_key",
    columnNames = "welcome_code"))
public class WelcomeSendEntry {

    @Id
    @Column(name = "welcome_code")
    private String welcomeCode;

    @Column(name = "welcome_send_id", insertable = false, updatable = false)
    private Long rowId;

    @Column(name = "app", nullable = false)
    private String app;

    @Column(name = "user_id")
    private String userId;

    @Column(name = "external_user_id")
    private String externalUserId;

    @Column(name = "state")
    private String state;

    @Column(name = "change_type", nullable = false)
    private String changeType;

    @Column(name = "callback_log_id")
    private Long callbackLogId;

    @Column(name = "event_key", nullable = false)
    private String eventKey;

    @Column(name = "event_created_at", nullable = false)
    private OffsetDateTime eventCreatedAt;

    @Column(name = "deadline_at", nullable = false)
    private OffsetDateTime deadlineAt;

    @Column(name = "attempt_count", nullable = false)
    private int attemptCount;

    @Column(name = "status", nullable = false)
    private String status;

    @Column(name = "errcode")
    private Integer errcode;

    @Column(name = "errmsg")
    private String errmsg;

    @Column(name = "effect_unknown", nullable = false)
    private boolean effectUnknown;

    @Column(name = "text_key")
    private String textKey;

    @Column(name = "sent_at")
    private OffsetDateTime sentAt;

    @Column(name = "latency_ms")
    private Long latencyMs;

    // DEFAULT now(): the start of the writing transaction
    @Column(name = "recorded_at", insertable = false, updatable = false)
    private OffsetDateTime recordedAt;

    protected WelcomeSendEntry() {
    }

    WelcomeSendEntry(WelcomeSendLog.WelcomeCase w, WelcomeSendLog.WelcomeResult r) {
        welcomeCode = w.welcomeCode();
        app = w.app();
        userId = w.userId();
        externalUserId = w.externalUserId();
        state = w.state();
        changeType = w.changeType();
        callbackLogId = w.callbackLogId();
        eventKey = w.eventKey();
        eventCreatedAt = WelcomeSendLog.utc(w.createdAt());
        deadlineAt = WelcomeSendLog.utc(w.deadline());
        attemptCount = w.attempt();
        status = r.status().name();
        errcode = r.errcode();
        errmsg = r.errmsg();
        effectUnknown = r.effectUnknown();
        textKey = r.textKey();
        if (r.sentAt() != null) {
            sentAt = WelcomeSendLog.utc(r.sentAt());
            latencyMs = r.sentAt().toEpochMilli() - w.createdAt().toEpochMilli();
        }
    }

    public String welcomeCode() {
        return welcomeCode;
    }

    public String status() {
        return status;
    }

    public int attemptCount() {
        return attemptCount;
    }
}
