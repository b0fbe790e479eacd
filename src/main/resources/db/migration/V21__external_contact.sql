-- V21: the contact handler's table (issue 5): the current relationship between a member and a customer,
-- maintained from change_external_contact events by upserts whose conditions make every event idempotent
-- and their order irrelevant (a late edit never resurrects a deleted contact; only a newer add does).

CREATE TABLE external_contact (
    app                   text        NOT NULL,
    user_id               text        NOT NULL,
    external_user_id      text        NOT NULL,
    status                text        NOT NULL CHECK (status IN ('ADDED', 'HALF_ADDED', 'DELETED_BY_MEMBER',
                                          'DELETED_BY_CUSTOMER', 'TRANSFER_FAILED')),
    state                 text,
    tags                  text,
    added_at              timestamptz,
    edited_at             timestamptz,
    deleted_at            timestamptz,
    delete_source         text,
    transfer_failed_at    timestamptz,
    transfer_fail_reason  text,
    last_event_at         timestamptz NOT NULL,
    last_callback_log_id  bigint,
    updated_at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app, user_id, external_user_id)
);
CREATE INDEX external_contact_external_user_idx ON external_contact (app, external_user_id);

COMMENT ON TABLE external_contact IS
    'Contact handler: one row per (app, member, customer) relationship, upserted from change_external_contact events in the consumer''s XA transaction. Naturally idempotent (no dedup record): each event''s upsert is conditional on event times, so repeats change nothing and order does not matter. A delete leaves a tombstone; only an add with a newer CreateTime than the delete brings the contact back.';
COMMENT ON COLUMN external_contact.app IS 'WeCom app name the events came to.';
COMMENT ON COLUMN external_contact.user_id IS 'UserID of the member.';
COMMENT ON COLUMN external_contact.external_user_id IS 'ExternalUserID of the customer.';
COMMENT ON COLUMN external_contact.status IS 'ADDED (add_external_contact, or known from an edit), HALF_ADDED (add_half_external_contact: the customer added the member without verification), DELETED_BY_MEMBER (del_external_contact), DELETED_BY_CUSTOMER (del_follow_user), TRANSFER_FAILED (only known from a transfer_fail for this member).';
COMMENT ON COLUMN external_contact.state IS 'State of the newest applied add (the "contact me" channel).';
COMMENT ON COLUMN external_contact.tags IS 'Tags if an event carried any (WeCom''s change_external_contact events normally do not); null otherwise.';
COMMENT ON COLUMN external_contact.added_at IS 'CreateTime of the newest applied add.';
COMMENT ON COLUMN external_contact.edited_at IS 'CreateTime of the newest applied edit_external_contact.';
COMMENT ON COLUMN external_contact.deleted_at IS 'CreateTime of the delete that ended the relationship; null while it exists. A newer add clears it.';
COMMENT ON COLUMN external_contact.delete_source IS 'Source of del_external_contact (e.g. DELETE_BY_TRANSFER); null otherwise.';
COMMENT ON COLUMN external_contact.transfer_failed_at IS 'CreateTime of the newest transfer_fail for this member and customer.';
COMMENT ON COLUMN external_contact.transfer_fail_reason IS 'FailReason of that transfer_fail (customer_refused, customer_limit_exceed).';
COMMENT ON COLUMN external_contact.last_event_at IS 'CreateTime of the newest event applied to this row.';
COMMENT ON COLUMN external_contact.last_callback_log_id IS 'callback_log row of the last delivery that changed this row.';
COMMENT ON COLUMN external_contact.updated_at IS 'When this row last changed (our clock).';
COMMENT ON INDEX external_contact_pkey IS 'One row per relationship: the upserts'' conflict target.';
COMMENT ON INDEX external_contact_external_user_idx IS 'Every member relationship of one customer.';
