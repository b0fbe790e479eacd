-- V74: what the retention job needs beside callback_log's partitions (V73): the other tables' erasure marks
-- and age indexes, the policy in force (written by the job, so that a DBA reads it where the data is), and a
-- view of what is due.

ALTER TABLE conversation_message ADD COLUMN content_erased_at timestamptz;
ALTER TABLE conversation_message ADD CONSTRAINT conversation_message_erased_check
    CHECK (content_erased_at IS NULL OR (content IS NULL AND plaintext = ''));
CREATE INDEX conversation_message_content_kept_idx ON conversation_message (stored_at) WHERE content_erased_at IS NULL;
CREATE INDEX conversation_message_stored_at_idx ON conversation_message (stored_at);
CREATE INDEX bot_reply_log_recorded_at_idx ON bot_reply_log (recorded_at);

COMMENT ON COLUMN conversation_message.content_erased_at IS
    'When the retention job erased content (then null) and plaintext (then empty), past wecom.retention.conversation-message.erase-after; null while kept.';
COMMENT ON CONSTRAINT conversation_message_erased_check ON conversation_message IS
    'Erased means both: content null and plaintext empty.';
COMMENT ON INDEX conversation_message_content_kept_idx IS 'Messages whose content is still kept, oldest first: what the retention job erases next.';
COMMENT ON INDEX conversation_message_stored_at_idx IS 'Messages by age: what the retention job deletes next.';
COMMENT ON INDEX bot_reply_log_recorded_at_idx IS 'Replies by age: what the retention job deletes next.';

CREATE TABLE retention_policy (
    table_name   text        PRIMARY KEY,
    erase_after  interval,
    drop_after   interval    NOT NULL,
    applied_by   text        NOT NULL,
    applied_at   timestamptz NOT NULL
);
COMMENT ON TABLE retention_policy IS
    'The retention in force, one row per table, written by the retention job at each run from the wecom.retention.* settings (docs/dba.md, "Retention"). Read-only for people: change the settings instead.';
COMMENT ON COLUMN retention_policy.table_name IS 'The table the policy is for.';
COMMENT ON COLUMN retention_policy.erase_after IS 'Age after which its content columns are erased; 0 = kept; null = the table has no content to erase.';
COMMENT ON COLUMN retention_policy.drop_after IS 'Age after which its rows leave (callback_log: by whole months, dropping the partition); 0 = kept.';
COMMENT ON COLUMN retention_policy.applied_by IS 'The node whose run wrote this row.';
COMMENT ON COLUMN retention_policy.applied_at IS 'When that run started.';
COMMENT ON INDEX retention_policy_pkey IS 'One policy per table.';

-- Counts over the age indexes; on a large table the callback_log rows are counted partition by partition.
CREATE VIEW retention_due AS
WITH p AS (SELECT table_name, erase_after, drop_after, applied_at FROM retention_policy)
SELECT p.table_name,
       p.erase_after,
       p.drop_after,
       p.applied_at AS policy_applied_at,
       CASE WHEN p.erase_after IS NULL OR p.erase_after = interval '0' THEN 0 ELSE
           (SELECT count(*) FROM callback_log c WHERE c.content_erased_at IS NULL AND c.published_at IS NOT NULL
                AND c.received_at < now() - p.erase_after) END AS rows_to_erase,
       CASE WHEN p.drop_after = interval '0' THEN 0 ELSE
           (SELECT count(*) FROM callback_log c WHERE c.received_at < now() - p.drop_after) END AS rows_to_drop,
       (SELECT min(received_at) FROM callback_log) AS oldest_row
FROM p WHERE p.table_name = 'callback_log'
UNION ALL
SELECT p.table_name, p.erase_after, p.drop_after, p.applied_at,
       CASE WHEN p.erase_after IS NULL OR p.erase_after = interval '0' THEN 0 ELSE
           (SELECT count(*) FROM conversation_message m WHERE m.content_erased_at IS NULL
                AND m.stored_at < now() - p.erase_after) END,
       CASE WHEN p.drop_after = interval '0' THEN 0 ELSE
           (SELECT count(*) FROM conversation_message m WHERE m.stored_at < now() - p.drop_after) END,
       (SELECT min(stored_at) FROM conversation_message)
FROM p WHERE p.table_name = 'conversation_message'
UNION ALL
SELECT p.table_name, p.erase_after, p.drop_after, p.applied_at, 0,
       CASE WHEN p.drop_after = interval '0' THEN 0 ELSE
           (SELECT count(*) FROM bot_reply_log b WHERE b.recorded_at < now() - p.drop_after) END,
       (SELECT min(recorded_at) FROM bot_reply_log)
FROM p WHERE p.table_name = 'bot_reply_log'
UNION ALL
SELECT p.table_name, p.erase_after, p.drop_after, p.applied_at,
       CASE WHEN p.erase_after IS NULL OR p.erase_after = interval '0' THEN 0 ELSE
           (SELECT count(*) FROM callback_rejection r WHERE r.sample IS NOT NULL
                AND r.hour_bucket < now() - p.erase_after) END,
       CASE WHEN p.drop_after = interval '0' THEN 0 ELSE
           (SELECT count(*) FROM callback_rejection r WHERE r.hour_bucket < now() - p.drop_after) END,
       (SELECT min(hour_bucket) FROM callback_rejection)
FROM p WHERE p.table_name = 'callback_rejection';

COMMENT ON VIEW retention_due IS
    'Per table under a retention policy: the policy in force and what is due now (rows whose content is past erase_after, rows past drop_after), as the next retention run will find it. After a run both counts are near 0, but for callback_log rows_to_drop: its rows leave by whole months.';
COMMENT ON COLUMN retention_due.table_name IS 'The table.';
COMMENT ON COLUMN retention_due.erase_after IS 'As in retention_policy.';
COMMENT ON COLUMN retention_due.drop_after IS 'As in retention_policy.';
COMMENT ON COLUMN retention_due.policy_applied_at IS 'When the policy row was last written (the last retention run).';
COMMENT ON COLUMN retention_due.rows_to_erase IS 'Rows whose content is kept and past erase_after (callback_log: published ones only; an unpublished row is never erased).';
COMMENT ON COLUMN retention_due.rows_to_drop IS 'Rows older than drop_after.';
COMMENT ON COLUMN retention_due.oldest_row IS 'The oldest row''s time (received_at, stored_at, recorded_at or hour_bucket).';
