-- V22: the bot handler's record of every reply (issue 5), written in the same XA transaction as its dedup
-- record. A deliberate re-run (batch id) is a second row under a second dedup key.

CREATE TABLE bot_reply_log (
    bot_reply_id      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dedup_key         text        NOT NULL,
    app               text        NOT NULL,
    msg_id            text        NOT NULL,
    to_user           text        NOT NULL,
    batch_id          text,
    callback_log_id   bigint,
    event_created_at  timestamptz,
    attempt_count     integer     NOT NULL CHECK (attempt_count >= 1),
    status            text        NOT NULL CHECK (status IN ('SENT', 'FAILED')),
    errcode           integer,
    errmsg            text,
    wecom_msgid       text,
    duplicate_check   boolean     NOT NULL,
    sent_at           timestamptz,
    recorded_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT bot_reply_log_dedup_key_key UNIQUE (dedup_key)
);
CREATE INDEX bot_reply_log_msg_idx ON bot_reply_log (app, msg_id);

COMMENT ON TABLE bot_reply_log IS
    'Bot handler: one row per reply it committed (message/send), in the same XA transaction as its dedup record. A normal delivery and each deliberate re-run (batch id) have their own dedup key and row.';
COMMENT ON COLUMN bot_reply_log.bot_reply_id IS 'Row id.';
COMMENT ON COLUMN bot_reply_log.dedup_key IS 'wecom:bot:{app}:msg:{MsgId}[:{batch_id}] as in handler_dedup; unique.';
COMMENT ON COLUMN bot_reply_log.app IS 'WeCom app name the message came to and the reply went out from.';
COMMENT ON COLUMN bot_reply_log.msg_id IS 'MsgId of the member''s text message answered.';
COMMENT ON COLUMN bot_reply_log.to_user IS 'UserID the reply went to (the message''s FromUserName).';
COMMENT ON COLUMN bot_reply_log.batch_id IS 'Batch id of a deliberate re-run (JMS property batchId); also sent to WeCom in the request field wecom_inbox_batch_id. Null for a normal delivery.';
COMMENT ON COLUMN bot_reply_log.callback_log_id IS 'callback_log row of the delivery.';
COMMENT ON COLUMN bot_reply_log.event_created_at IS 'The message''s CreateTime.';
COMMENT ON COLUMN bot_reply_log.attempt_count IS 'JMSXDeliveryCount of the delivery that committed this row.';
COMMENT ON COLUMN bot_reply_log.status IS 'SENT (errcode 0) or FAILED (a non-retryable error; retryable ones roll back and are redelivered).';
COMMENT ON COLUMN bot_reply_log.errcode IS 'WeCom errcode; null when no WeCom answer was read.';
COMMENT ON COLUMN bot_reply_log.errmsg IS 'WeCom errmsg or our description (never a token or secret).';
COMMENT ON COLUMN bot_reply_log.wecom_msgid IS 'msgid WeCom gave the reply (for recall or support).';
COMMENT ON COLUMN bot_reply_log.duplicate_check IS 'Whether the request asked WeCom for enable_duplicate_check (on for normal deliveries: a redelivery after a "maybe sent" timeout is then dropped by WeCom; off for a re-run, which must send again).';
COMMENT ON COLUMN bot_reply_log.sent_at IS 'When WeCom answered errcode 0; null for FAILED.';
COMMENT ON COLUMN bot_reply_log.recorded_at IS 'Start of the transaction that wrote the row.';
COMMENT ON INDEX bot_reply_log_pkey IS 'Row id.';
COMMENT ON INDEX bot_reply_log_dedup_key_key IS 'One reply per dedup key (a re-run has its own key).';
COMMENT ON INDEX bot_reply_log_msg_idx IS 'Every reply to one message.';
