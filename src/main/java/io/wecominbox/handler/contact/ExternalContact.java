package io.wecominbox.handler.contact;

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
 * One row of external_contact: the relationship between a member and a customer, keyed by (app, member,
 * customer), the primary key every upsert of {@link ExternalContactStore} conflicts on. Those upserts are
 * native statements (conditional on event times); the mapping is for reading and states the key.
 */
@Entity
@Table(name = "external_contact", uniqueConstraints = @UniqueConstraint(name = "external_contact_pkey",
    columnNames = {"app", "user_id", "external_user_id"}))
@IdClass(ExternalContact.Key.class)
public class ExternalContact {

    @Id
    @Column(name = "app")
    private String app;

    @Id
    @Column(name = "user_id")
    private String userId;

    @Id
    @Column(name = "external_user_id")
    private String externalUserId;

    @Column(name = "status", nullable = false)
    private String status;

    @Column(name = "state")
    private String state;

    @Column(name = "tags")
    private String tags;

    @Column(name = "added_at")
    private OffsetDateTime addedAt;

    @Column(name = "edited_at")
    private OffsetDateTime editedAt;

    @Column(name = "deleted_at")
    private OffsetDateTime deletedAt;

    @Column(name = "delete_source")
    private String deleteSource;

    @Column(name = "transfer_failed_at")
    private OffsetDateTime transferFailedAt;

    @Column(name = "transfer_fail_reason")
    private String transferFailReason;

    @Column(name = "last_event_at", nullable = false)
    private OffsetDateTime lastEventAt;

    @Column(name = "last_callback_log_id")
    private Long lastCallbackLogId;

    @Column(name = "reconcile_run_id")
    private Long reconcileRunId;

    @Column(name = "last_seen_run_id")
    private Long lastSeenRunId;

    @Column(name = "last_seen_at")
    private OffsetDateTime lastSeenAt;

    @Column(name = "updated_at", insertable = false, updatable = false)
    private OffsetDateTime updatedAt;

    protected ExternalContact() {
    }

    public String status() {
        return status;
    }

    public OffsetDateTime deletedAt() {
        return deletedAt;
    }

    /** The primary key (app, user_id, external_user_id). */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;

        private String app;
        private String userId;
        private String externalUserId;

        public Key() {
        }

        public Key(String app, String userId, String externalUserId) {
            this.app = app;
            this.userId = userId;
            this.externalUserId = externalUserId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(app, k.app) && Objects.equals(userId, k.userId)
                && Objects.equals(externalUserId, k.externalUserId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(app, userId, externalUserId);
        }
    }
}
