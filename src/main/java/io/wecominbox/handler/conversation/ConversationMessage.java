package io.wecominbox.handler.conversation;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

/**
 * One row of conversation_message: an ordinary message, once per (app, MsgId), the primary key the
 * insert-if-absent conflicts on. Written by {@link ConversationMessageStore}'s native INSERT ... ON CONFLICT.
 */
@Entity
@Table(name = "conversation_message", uniqueConstraints = @UniqueConstraint(name = "conversation_message_pkey",
    columnNames = {"app", "msg_id"}))
@IdClass(ConversationMessage.Key.class)
public class ConversationMessage {

    @Id
    @Column(name = "app")
    private String app;

    @Id
    @Column(name = "msg_id")
    private String msgId;

    @Column(name = "msg_type", nullable = false)
    private String msgType;

    @Column(name = "from_user")
    private String fromUser;

    @Column(name = "corp_id")
    private String corpId;

    @Column(name = "agent_id")
    private String agentId;

    @Column(name = "content")
    private String content;

    @Column(name = "sent_at")
    private OffsetDateTime sentAt;

    @Column(name = "plaintext", nullable = false)
    private String plaintext;

    @Column(name = "callback_log_id")
    private Long callbackLogId;

    @Column(name = "stored_at", insertable = false, updatable = false)
    private OffsetDateTime storedAt;

    protected ConversationMessage() {
    }

    public String msgType() {
        return msgType;
    }

    public String content() {
        return content;
    }

    /** The primary key (app, msg_id). */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;

        private String app;
        private String msgId;

        public Key() {
        }

        public Key(String app, String msgId) {
            this.app = app;
            this.msgId = msgId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(app, k.app) && Objects.equals(msgId, k.msgId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(app, msgId);
        }
    }
}
