-- V2: the ingest's two tables.
-- callback_log keeps every accepted delivery exactly as received, retries included (WeCom delivers at least
-- once; deduplication is the consumers' job). callback_rejection counts refused requests per hour, app and
-- reason, so a flood of forged requests costs a counter, not a row each.

CREATE TABLE callback_log (
    callback_log_id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    received_at             timestamptz   NOT NULL,
    app                     text          NOT NULL,
    corp_id                 text          NOT NULL,
    agent_id                text,
    query_string            text          NOT NULL,
    raw_body                text          NOT NULL,
    plaintext               text          NOT NULL,
    msg_type                text,
    event_type              text          NOT NULL,
    change_type             text,
    event_key               text          NOT NULL,
    event_created_at        timestamptz,
    attempt                 integer       NOT NULL CHECK (attempt >= 1),
    seconds_since_previous  numeric(12,3),
    remote_addr             text,
    outcome                 text          NOT NULL
);
-- Deliberately no unique key on event_key: a retry is a second row with attempt 2, never a conflict.
CREATE INDEX callback_log_event_key_idx ON callback_log (event_key, received_at);
CREATE INDEX callback_log_received_at_idx ON callback_log (received_at);

COMMENT ON TABLE callback_log IS
    'One row per accepted WeCom callback delivery (POST /wecom/callback/{app}), retries included; written in the same XA transaction as the JMS message to wecom.events. Never unique-keyed.';
COMMENT ON COLUMN callback_log.callback_log_id IS 'Row id; the JMS message carries it as property callbackLogId.';
COMMENT ON COLUMN callback_log.received_at IS 'When the request reached the ingest (server clock).';
COMMENT ON COLUMN callback_log.app IS 'App name from the callback URL, as configured in wecom.apps.';
COMMENT ON COLUMN callback_log.corp_id IS 'CorpID of the app: the receiveid the message was checked against.';
COMMENT ON COLUMN callback_log.agent_id IS 'AgentID from the message or its envelope; null for corp-level callbacks without one.';
COMMENT ON COLUMN callback_log.query_string IS 'Raw query string as received (msg_signature, timestamp, nonce).';
COMMENT ON COLUMN callback_log.raw_body IS 'Request body as received: the encrypted envelope XML.';
COMMENT ON COLUMN callback_log.plaintext IS 'Decrypted event XML; also the body of the JMS message.';
COMMENT ON COLUMN callback_log.msg_type IS 'MsgType of the event (event, text, ...).';
COMMENT ON COLUMN callback_log.event_type IS 'What handlers route on: Event for MsgType=event, else MsgType; unknown when missing.';
COMMENT ON COLUMN callback_log.change_type IS 'ChangeType of contact and customer events; null for others.';
COMMENT ON COLUMN callback_log.event_key IS '{app}:{event key}: identical for every delivery of the same event (see EventKeys).';
COMMENT ON COLUMN callback_log.event_created_at IS 'CreateTime of the event (whole seconds); null when absent or invalid.';
COMMENT ON COLUMN callback_log.attempt IS 'Delivery number of this event key: 1 for the first, 2 for the first retry, ...';
COMMENT ON COLUMN callback_log.seconds_since_previous IS 'Seconds since the previous delivery of the same event key; null for the first.';
COMMENT ON COLUMN callback_log.remote_addr IS 'Client address as the server saw it (a proxy''s address when behind one).';
COMMENT ON COLUMN callback_log.outcome IS 'What the ingest did: ENQUEUED = published to wecom.events in the same transaction.';
COMMENT ON INDEX callback_log_event_key_idx IS 'All deliveries of one event key in time order (attempt numbering, retry analysis).';
COMMENT ON INDEX callback_log_received_at_idx IS 'Deliveries in a time range (audit, cleanup by age).';

CREATE TABLE callback_rejection (
    hour_bucket       timestamptz NOT NULL,
    app               text        NOT NULL,
    reason            text        NOT NULL,
    rejection_count   bigint      NOT NULL CHECK (rejection_count > 0),
    first_seen        timestamptz NOT NULL,
    last_seen         timestamptz NOT NULL,
    last_remote_addr  text,
    sample            text        CHECK (length(sample) <= 256),
    PRIMARY KEY (hour_bucket, app, reason)
);
COMMENT ON TABLE callback_rejection IS
    'Refused callback requests counted per hour, app and reason (security audit). At most one row per (hour, app, reason): a flood adds to a count, not rows.';
COMMENT ON COLUMN callback_rejection.hour_bucket IS 'Start of the hour (UTC) the rejections fall in.';
COMMENT ON COLUMN callback_rejection.app IS 'Configured app name from the URL, or ? for a name that is not configured.';
COMMENT ON COLUMN callback_rejection.reason IS 'Rejection code, e.g. bad_signature, forbidden_xml, body_too_large (see Rejection.java).';
COMMENT ON COLUMN callback_rejection.rejection_count IS 'How many requests were refused for this reason in this hour.';
COMMENT ON COLUMN callback_rejection.first_seen IS 'First rejection in this bucket.';
COMMENT ON COLUMN callback_rejection.last_seen IS 'Latest rejection in this bucket.';
COMMENT ON COLUMN callback_rejection.last_remote_addr IS 'Client address of the latest rejection.';
COMMENT ON COLUMN callback_rejection.sample IS 'Short description of the latest rejected request (at most 256 characters; never a token, key or plaintext).';
COMMENT ON INDEX callback_rejection_pkey IS 'One row per hour, app and reason: the upsert target of the periodic flush.';
