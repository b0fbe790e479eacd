-- V32: the DBA's welcome audit (issue 7), and the comments the earlier migrations left out.
--
-- welcome_audit answers "was this welcome sent, once, in time?" for every WelcomeCode in one row: how often
-- WeCom delivered the event (callback_log), what the welcome handler recorded (welcome_send_log) and how many
-- of the deliveries its dedup absorbed (handler_disposition). A code that was delivered but has no recorded
-- outcome (still being retried, dead-lettered, or no text configured) shows up too, as NOT_RECORDED.
--
-- Reading cost: a code with an outcome is found through welcome_send_log's unique index and its deliveries
-- through callback_log_event_key_idx; the NOT_RECORDED part reads callback_log's welcome adds (no index
-- serves "an add without an outcome"), so on a large callback_log filter the view by welcome_code or
-- event_key, or query welcome_send_log directly for time ranges (docs/dba.md).

CREATE VIEW welcome_audit AS
SELECT w.welcome_code,
       w.app,
       w.event_key,
       w.change_type,
       w.user_id,
       w.external_user_id,
       coalesce(d.deliveries, 0) AS deliveries,
       d.first_delivered_at,
       d.last_delivered_at,
       w.event_created_at,
       round(extract(epoch FROM d.first_delivered_at - w.event_created_at) * 1000)::bigint AS first_delivery_delay_ms,
       w.status,
       CASE WHEN w.status = 'SENT' THEN 1 ELSE 0 END AS successful_sends,
       w.status IN ('SENT', 'ALREADY_SENT') AS sent_once,
       coalesce(h.duplicates_absorbed, 0) AS duplicates_absorbed,
       w.attempt_count,
       w.errcode,
       w.errmsg,
       w.effect_unknown,
       w.sent_at,
       w.deadline_at,
       w.latency_ms,
       w.recorded_at
FROM welcome_send_log w
LEFT JOIN LATERAL (
    SELECT count(*) AS deliveries, min(c.received_at) AS first_delivered_at, max(c.received_at) AS last_delivered_at
    FROM callback_log c
    WHERE c.event_key = w.event_key) d ON true
LEFT JOIN LATERAL (
    SELECT count(*) AS duplicates_absorbed
    FROM handler_disposition hd
    WHERE hd.event_key = w.event_key AND hd.handler = 'welcome'
      AND hd.disposition IN ('DUPLICATE_HOT', 'DUPLICATE_COLD')) h ON true
UNION ALL
SELECT min((regexp_match(c.plaintext, '<WelcomeCode>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)'))[1]),
       c.app,
       c.event_key,
       min(c.change_type),
       min((regexp_match(c.plaintext, '<UserID>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)'))[1]),
       min((regexp_match(c.plaintext, '<ExternalUserID>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)'))[1]),
       count(*),
       min(c.received_at),
       max(c.received_at),
       min(c.event_created_at),
       round(extract(epoch FROM min(c.received_at) - min(c.event_created_at)) * 1000)::bigint,
       'NOT_RECORDED',
       0,
       false,
       0,
       NULL::integer,
       NULL::integer,
       NULL::text,
       NULL::boolean,
       NULL::timestamptz,
       NULL::timestamptz,
       NULL::bigint,
       NULL::timestamptz
FROM callback_log c
WHERE c.change_type IN ('add_external_contact', 'add_half_external_contact')
  AND c.event_key LIKE '%:welcome:%'
  AND NOT EXISTS (SELECT 1 FROM welcome_send_log w WHERE w.event_key = c.event_key)
GROUP BY c.event_key, c.app;

COMMENT ON VIEW welcome_audit IS
    'One row per WelcomeCode (add_external_contact / add_half_external_contact with a code): deliveries received, first and last delivery, the welcome handler''s outcome, whether exactly one welcome went out, errcode, and the latency from the event''s CreateTime. Codes delivered without a recorded outcome appear with status NOT_RECORDED. Filter by welcome_code or event_key (indexed); see V32 for the reading cost.';
COMMENT ON COLUMN welcome_audit.welcome_code IS 'The WelcomeCode (from welcome_send_log, or read from the delivered XML when no outcome is recorded).';
COMMENT ON COLUMN welcome_audit.app IS 'WeCom app the event came to.';
COMMENT ON COLUMN welcome_audit.event_key IS '{app}:{event key} as in callback_log.event_key (ends in :welcome:{WelcomeCode}).';
COMMENT ON COLUMN welcome_audit.change_type IS 'add_external_contact or add_half_external_contact.';
COMMENT ON COLUMN welcome_audit.user_id IS 'UserID of the member the customer added.';
COMMENT ON COLUMN welcome_audit.external_user_id IS 'ExternalUserID of the customer.';
COMMENT ON COLUMN welcome_audit.deliveries IS 'callback_log rows of this event: 1 = delivered once; more = WeCom retried (see callback_delivery_gap for why); 0 = the deliveries were already removed from callback_log.';
COMMENT ON COLUMN welcome_audit.first_delivered_at IS 'First delivery of the event to the ingest (our clock).';
COMMENT ON COLUMN welcome_audit.last_delivered_at IS 'Last delivery of the event (equal to the first when delivered once).';
COMMENT ON COLUMN welcome_audit.event_created_at IS 'The event''s CreateTime (whole seconds, WeCom''s clock): the code''s 20 s validity starts here.';
COMMENT ON COLUMN welcome_audit.first_delivery_delay_ms IS 'first_delivered_at - CreateTime in ms: how much of the 20 s WeCom (and the network) used before we saw the event; CreateTime is whole seconds, so up to 1 s too high.';
COMMENT ON COLUMN welcome_audit.status IS 'SENT, ALREADY_SENT, EXPIRED or FAILED as in welcome_send_log.status; NOT_RECORDED = delivered, but the welcome handler committed no outcome (still being redelivered, dead-lettered: see the DLQ, or no welcome text configured for the app, which sends and records nothing).';
COMMENT ON COLUMN welcome_audit.successful_sends IS 'How many of our send_welcome_msg calls WeCom accepted (errcode 0): 0 or 1; one outcome per code (unique welcome_code) and WeCom accepts a code once.';
COMMENT ON COLUMN welcome_audit.sent_once IS 'True when exactly one welcome reached the customer: SENT, or ALREADY_SENT (WeCom refused a second send because our earlier, uncommitted attempt had sent it). False when none did or it is unknown (EXPIRED with effect_unknown).';
COMMENT ON COLUMN welcome_audit.duplicates_absorbed IS 'Deliveries of this event the welcome handler''s dedup recognised as repeats (handler_disposition DUPLICATE_HOT / DUPLICATE_COLD; written about a second after the fact, kept for the disposition retention).';
COMMENT ON COLUMN welcome_audit.attempt_count IS 'JMS delivery attempts until the outcome committed (1 + retryable failures that rolled back).';
COMMENT ON COLUMN welcome_audit.errcode IS 'WeCom errcode of the last call (0 SENT, 41051 ALREADY_SENT, -1 busy ...); null when no WeCom answer was read or no outcome is recorded.';
COMMENT ON COLUMN welcome_audit.errmsg IS 'WeCom errmsg of the last call, or our description (never a token or secret).';
COMMENT ON COLUMN welcome_audit.effect_unknown IS 'True when WeCom may have sent the welcome although the status says EXPIRED (a timed-out or lost call).';
COMMENT ON COLUMN welcome_audit.sent_at IS 'When WeCom accepted the send (our clock); null unless SENT.';
COMMENT ON COLUMN welcome_audit.deadline_at IS 'Last instant a send could start (CreateTime + 20 s - margin).';
COMMENT ON COLUMN welcome_audit.latency_ms IS 'sent_at - CreateTime in ms: how long the customer waited (in time when below 20000); null unless SENT.';
COMMENT ON COLUMN welcome_audit.recorded_at IS 'When the welcome handler committed the outcome; null for NOT_RECORDED.';

-- Objects the earlier migrations left without a comment.
COMMENT ON INDEX callback_log_pkey IS 'Row id; the JMS message carries it as property callbackLogId.';
COMMENT ON INDEX pipeline_probe_pkey IS 'Probe id.';
COMMENT ON INDEX pipeline_probe_receipt_pkey IS 'Receipt id.';

-- Flyway's own history table (named by flyway.table): a DBA's \dt+ shows it beside ours.
COMMENT ON TABLE ${flyway:table} IS 'Flyway''s record of the applied schema migrations (src/main/resources/db/migration); written only by Flyway.';
COMMENT ON COLUMN ${flyway:table}.installed_rank IS 'Order in which the migrations were applied.';
COMMENT ON COLUMN ${flyway:table}.version IS 'Migration version (V<version>__...sql).';
COMMENT ON COLUMN ${flyway:table}.description IS 'Migration description, from its file name.';
COMMENT ON COLUMN ${flyway:table}.type IS 'SQL for a versioned SQL migration.';
COMMENT ON COLUMN ${flyway:table}.script IS 'Migration file name.';
COMMENT ON COLUMN ${flyway:table}.checksum IS 'Checksum of the file as applied; Flyway refuses to run when a file changed afterwards.';
COMMENT ON COLUMN ${flyway:table}.installed_by IS 'Database user that applied it.';
COMMENT ON COLUMN ${flyway:table}.installed_on IS 'When it was applied.';
COMMENT ON COLUMN ${flyway:table}.execution_time IS 'How long it ran, in milliseconds.';
COMMENT ON COLUMN ${flyway:table}.success IS 'False when it failed (then fix and repair before migrating again).';
COMMENT ON INDEX ${flyway:table}_pk IS 'One row per installed_rank.';
COMMENT ON INDEX ${flyway:table}_s_idx IS 'Flyway''s lookup of failed migrations.';
