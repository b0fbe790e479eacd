-- V3: idempotent consumers (issue 4) and the two first handlers (issue 5: crm, conversation).
-- handler_dedup is the cold dedup tier: one row per (handler, event[, batch]) whose effect committed, inserted
-- in the same XA transaction as the effect. handler_disposition says what happened to every delivery at
-- every handler (written in batches, off the message path). conversation_message keeps ordinary messages.

CREATE TABLE handler_dedup (
    dedup_key        text        PRIMARY KEY,
    handler          text        NOT NULL,
    event_key        text        NOT NULL,
    batch_id         text,
    app              text        NOT NULL,
    message_id       text,
    callback_log_id  bigint,
    processed_at     timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    CHECK (dedup_key = 'wecom:' || handler || ':' || event_key || coalesce(':' || batch_id, ''))
);
CREATE INDEX handler_dedup_expires_at_idx ON handler_dedup (expires_at);
CREATE INDEX handler_dedup_event_key_idx ON handler_dedup (event_key);

COMMENT ON TABLE handler_dedup IS
    'Cold dedup tier: one row per handler and event (and batch, for a deliberate re-run) whose effect committed, inserted by INSERT ... ON CONFLICT DO NOTHING in the same XA transaction as the effect. Rows past expires_at are deleted in batches by the dedup cleanup job.';
COMMENT ON COLUMN handler_dedup.dedup_key IS 'wecom:{handler}:{event_key}[:{batch_id}]; its uniqueness is the duplicate check (a concurrent duplicate waits on it).';
COMMENT ON COLUMN handler_dedup.handler IS 'Handler name (EventHandler.name()), always part of the key so one handler never swallows an event for another.';
COMMENT ON COLUMN handler_dedup.event_key IS '{app}:{event key} as in callback_log.event_key.';
COMMENT ON COLUMN handler_dedup.batch_id IS 'Batch id of a deliberate re-run (JMS property batchId, set by replay); null for normal deliveries.';
COMMENT ON COLUMN handler_dedup.app IS 'WeCom app name the event came to.';
COMMENT ON COLUMN handler_dedup.message_id IS 'JMSMessageID of the delivery whose effect committed.';
COMMENT ON COLUMN handler_dedup.callback_log_id IS 'callback_log row of that delivery.';
COMMENT ON COLUMN handler_dedup.processed_at IS 'Start of the transaction that committed the effect.';
COMMENT ON COLUMN handler_dedup.expires_at IS 'End of the cold window (processed_at + wecom.handler.<name>.cold-window); a replay before it is a duplicate, the row is deleted some time after it.';
COMMENT ON INDEX handler_dedup_pkey IS 'The unique key both the duplicate check and a concurrent duplicate''s wait rely on.';
COMMENT ON INDEX handler_dedup_expires_at_idx IS 'Cleanup: expired rows in batches, and the backlog metric.';
COMMENT ON INDEX handler_dedup_event_key_idx IS 'Which handlers have processed one event (support, reconciliation).';

CREATE TABLE handler_disposition (
    disposition_id   bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    recorded_at      timestamptz NOT NULL,
    handler          text        NOT NULL,
    disposition      text        NOT NULL CHECK (disposition IN ('PROCESSED', 'DUPLICATE_HOT', 'DUPLICATE_COLD',
                                     'RETRIED', 'FORCED', 'PROCEEDED_WITHOUT_STORE', 'REJECTED_STORE_DOWN')),
    app              text,
    event_key        text        NOT NULL,
    dedup_key        text        NOT NULL,
    batch_id         text,
    message_id       text,
    callback_log_id  bigint,
    delivery_count   integer     NOT NULL
);
CREATE INDEX handler_disposition_event_key_idx ON handler_disposition (event_key, handler);
CREATE INDEX handler_disposition_recorded_at_idx ON handler_disposition (recorded_at);

COMMENT ON TABLE handler_disposition IS
    'What happened to each delivery at each handler. Written in batches about every second outside the message transaction (a hot duplicate must not touch the database synchronously, and a rejected attempt must still be recorded); rows can be missing if the in-memory buffer overflowed (metric wecom.handler.dispositions.dropped). Kept for wecom.dedup.disposition.retention (default 30 days).';
COMMENT ON COLUMN handler_disposition.disposition_id IS 'Row id.';
COMMENT ON COLUMN handler_disposition.recorded_at IS 'When the outcome was known (commit, or the rejection).';
COMMENT ON COLUMN handler_disposition.handler IS 'Handler name.';
COMMENT ON COLUMN handler_disposition.disposition IS 'PROCESSED, DUPLICATE_HOT, DUPLICATE_COLD, RETRIED (ran on a redelivery), FORCED (ran again for a batch id), PROCEEDED_WITHOUT_STORE, REJECTED_STORE_DOWN (rolled back for redelivery).';
COMMENT ON COLUMN handler_disposition.app IS 'WeCom app name.';
COMMENT ON COLUMN handler_disposition.event_key IS '{app}:{event key} as in callback_log.event_key.';
COMMENT ON COLUMN handler_disposition.dedup_key IS 'The dedup key the delivery was checked under.';
COMMENT ON COLUMN handler_disposition.batch_id IS 'Batch id of a deliberate re-run, else null.';
COMMENT ON COLUMN handler_disposition.message_id IS 'JMSMessageID of the delivery.';
COMMENT ON COLUMN handler_disposition.callback_log_id IS 'callback_log row of the delivery.';
COMMENT ON COLUMN handler_disposition.delivery_count IS 'JMSXDeliveryCount: above 1 for a redelivery after rollback.';
COMMENT ON INDEX handler_disposition_pkey IS 'Row id.';
COMMENT ON INDEX handler_disposition_event_key_idx IS 'Everything that happened to one event, per handler.';
COMMENT ON INDEX handler_disposition_recorded_at_idx IS 'Retention cleanup and time-range queries.';

CREATE TABLE conversation_message (
    app              text        NOT NULL,
    msg_id           text        NOT NULL,
    msg_type         text        NOT NULL,
    from_user        text,
    corp_id          text,
    agent_id         text,
    content          text,
    sent_at          timestamptz,
    plaintext        text        NOT NULL,
    callback_log_id  bigint,
    stored_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app, msg_id)
);
COMMENT ON TABLE conversation_message IS
    'Ordinary WeCom messages (text, image, ...) kept by the conversation handler, one row per (app, MsgId): insert-if-absent, so repeats are harmless and no dedup record is needed.';
COMMENT ON COLUMN conversation_message.app IS 'WeCom app name the message came to.';
COMMENT ON COLUMN conversation_message.msg_id IS 'WeCom MsgId (64-bit, kept as text): the platform id of the message.';
COMMENT ON COLUMN conversation_message.msg_type IS 'MsgType: text, image, voice, video, location, link, file.';
COMMENT ON COLUMN conversation_message.from_user IS 'FromUserName: the sender''s UserID.';
COMMENT ON COLUMN conversation_message.corp_id IS 'ToUserName: the CorpID.';
COMMENT ON COLUMN conversation_message.agent_id IS 'AgentID of the app.';
COMMENT ON COLUMN conversation_message.content IS 'Content of a text message; null for other types (see plaintext).';
COMMENT ON COLUMN conversation_message.sent_at IS 'CreateTime of the message (whole seconds).';
COMMENT ON COLUMN conversation_message.plaintext IS 'The decrypted message XML as delivered.';
COMMENT ON COLUMN conversation_message.callback_log_id IS 'callback_log row of the delivery that stored it.';
COMMENT ON COLUMN conversation_message.stored_at IS 'When the row was written.';
COMMENT ON INDEX conversation_message_pkey IS 'One row per app and MsgId: the conflict target of the insert-if-absent.';
