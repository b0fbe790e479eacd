-- V20: the welcome handler's audit (issue 5). One row per WelcomeCode, written in the same XA transaction as
-- the handler's dedup record, whatever the outcome: a DBA can see for every add_external_contact with a code
-- whether a welcome went out, how late, after how many attempts, or why not.

CREATE TABLE welcome_send_log (
    welcome_send_id   bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    welcome_code      text        NOT NULL,
    app               text        NOT NULL,
    user_id           text,
    external_user_id  text,
    state             text,
    change_type       text        NOT NULL,
    callback_log_id   bigint,
    event_key         text        NOT NULL,
    event_created_at  timestamptz NOT NULL,
    deadline_at       timestamptz NOT NULL,
    attempt_count     integer     NOT NULL CHECK (attempt_count >= 1),
    status            text        NOT NULL CHECK (status IN ('SENT', 'ALREADY_SENT', 'EXPIRED', 'FAILED')),
    errcode           integer,
    errmsg            text,
    effect_unknown    boolean     NOT NULL DEFAULT false,
    text_key          text,
    sent_at           timestamptz,
    latency_ms        bigint,
    recorded_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT welcome_send_log_welcome_code_key UNIQUE (welcome_code),
    CHECK ((status = 'SENT') = (sent_at IS NOT NULL))
);
CREATE INDEX welcome_send_log_event_created_at_idx ON welcome_send_log (event_created_at);
CREATE INDEX welcome_send_log_status_idx ON welcome_send_log (status, event_created_at) WHERE status <> 'SENT';

COMMENT ON TABLE welcome_send_log IS
    'Welcome handler: one row per WelcomeCode of an add_external_contact / add_half_external_contact event, written in the same XA transaction as the handler''s dedup record (handler_dedup), so a row exists exactly when the handler''s run committed. Retryable failures roll back (no row) and are redelivered while the 20 s window allows.';
COMMENT ON COLUMN welcome_send_log.welcome_send_id IS 'Row id.';
COMMENT ON COLUMN welcome_send_log.welcome_code IS 'The event''s WelcomeCode: single use, valid 20 s after CreateTime; unique here, so one code has one outcome.';
COMMENT ON COLUMN welcome_send_log.app IS 'WeCom app name the event came to (wecom.apps).';
COMMENT ON COLUMN welcome_send_log.user_id IS 'UserID of the member the customer added.';
COMMENT ON COLUMN welcome_send_log.external_user_id IS 'ExternalUserID of the customer.';
COMMENT ON COLUMN welcome_send_log.state IS 'The event''s State (the "contact me" channel), which can select the text; null when absent.';
COMMENT ON COLUMN welcome_send_log.change_type IS 'add_external_contact or add_half_external_contact.';
COMMENT ON COLUMN welcome_send_log.callback_log_id IS 'callback_log row of the delivery the handler ran on.';
COMMENT ON COLUMN welcome_send_log.event_key IS '{app}:{event key} as in callback_log.event_key.';
COMMENT ON COLUMN welcome_send_log.event_created_at IS 'The event''s CreateTime (whole seconds, WeCom''s clock): the 20 s window starts here.';
COMMENT ON COLUMN welcome_send_log.deadline_at IS 'Last instant a send could start: CreateTime + 20 s - wecom.handler.welcome.deadline-margin. No WeCom call is made after it.';
COMMENT ON COLUMN welcome_send_log.attempt_count IS 'JMSXDeliveryCount of the delivery that committed this row: 1 + the attempts that rolled back (retryable errors).';
COMMENT ON COLUMN welcome_send_log.status IS 'SENT (WeCom accepted it now); ALREADY_SENT (41051: a welcome already reached the customer, e.g. our own earlier attempt whose commit failed; never retried); EXPIRED (the window closed before a send succeeded: no call after the deadline); FAILED (a non-retryable error, see errcode/errmsg).';
COMMENT ON COLUMN welcome_send_log.errcode IS 'WeCom errcode of the last call (0 SENT, 41051 ALREADY_SENT); null when no WeCom answer was read (timeout, connection, no call made).';
COMMENT ON COLUMN welcome_send_log.errmsg IS 'WeCom errmsg of the last call, or our description of what went wrong (never a token or secret).';
COMMENT ON COLUMN welcome_send_log.effect_unknown IS 'True when WeCom may have sent the welcome although the row says EXPIRED: the last call timed out or lost its connection after the request went out, or earlier attempts rolled back and this one found no time left to call.';
COMMENT ON COLUMN welcome_send_log.text_key IS 'The configuration key the text came from (wecom.welcome.<app>.state.<state>.text or wecom.welcome.<app>.text).';
COMMENT ON COLUMN welcome_send_log.sent_at IS 'When WeCom answered errcode 0 (our clock); set exactly for SENT.';
COMMENT ON COLUMN welcome_send_log.latency_ms IS 'sent_at - event_created_at in milliseconds: how long the customer waited for the welcome (CreateTime is whole seconds, so up to 1 s too high).';
COMMENT ON COLUMN welcome_send_log.recorded_at IS 'Start of the transaction that wrote the row.';
COMMENT ON INDEX welcome_send_log_pkey IS 'Row id.';
COMMENT ON INDEX welcome_send_log_welcome_code_key IS 'One outcome per WelcomeCode; also answers "what happened to this code".';
COMMENT ON INDEX welcome_send_log_event_created_at_idx IS 'Time-range reports (welcomes per day, latency percentiles).';
COMMENT ON INDEX welcome_send_log_status_idx IS 'The welcomes that did not go out (EXPIRED, FAILED, ALREADY_SENT) by time: what an operator looks at.';
