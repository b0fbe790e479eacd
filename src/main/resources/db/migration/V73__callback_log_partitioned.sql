-- V73: callback_log partitioned by month of received_at (issue 22 item 5, retention). Old deliveries then
-- leave by dropping a month's partition, not by a DELETE that rewrites and vacuums millions of rows, and the
-- content of deliveries past their content window is erased (content_erased_at) while the audit columns stay.
--
-- The table is made again: PostgreSQL cannot turn a table into a partitioned one in place. Every row is copied
-- (ids, times and attempts unchanged), so run it with the application stopped; it takes about a minute per few
-- million rows (docs/dba.md, "Retention"). The views over callback_log are made again from their own
-- definitions and comments, and the comments of the table, its columns and indexes carried over, so that
-- their prose stays single-sourced in the migrations that wrote it.

-- 1. What depends on callback_log, kept to be made again: views (transitively), their comments, and the
--    comments of the table, its columns and its indexes.
CREATE TEMP TABLE v73_views ON COMMIT DROP AS
WITH RECURSIVE dependent(oid) AS (
    SELECT DISTINCT r.ev_class FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
    WHERE d.refobjid = 'callback_log'::regclass AND r.ev_class <> 'callback_log'::regclass
    UNION
    SELECT DISTINCT r.ev_class FROM dependent v JOIN pg_depend d ON d.refobjid = v.oid
        JOIN pg_rewrite r ON r.oid = d.objid
    WHERE r.ev_class <> v.oid
)
SELECT c.oid, c.relname, pg_get_viewdef(c.oid) AS definition, obj_description(c.oid, 'pg_class') AS comment
FROM pg_class c WHERE c.oid IN (SELECT oid FROM dependent) AND c.relkind = 'v';

CREATE TEMP TABLE v73_view_columns ON COMMIT DROP AS
SELECT c.relname, a.attname, col_description(c.oid, a.attnum) AS comment
FROM v73_views v JOIN pg_class c ON c.oid = v.oid JOIN pg_attribute a ON a.attrelid = c.oid
WHERE a.attnum > 0 AND NOT a.attisdropped AND col_description(c.oid, a.attnum) IS NOT NULL;

CREATE TEMP TABLE v73_comments ON COMMIT DROP AS
SELECT 'table'::text AS kind, NULL::text AS name, obj_description('callback_log'::regclass, 'pg_class') AS comment
UNION ALL
SELECT 'column', a.attname, col_description('callback_log'::regclass, a.attnum)
FROM pg_attribute a WHERE a.attrelid = 'callback_log'::regclass AND a.attnum > 0 AND NOT a.attisdropped
UNION ALL
SELECT 'index', i.relname, obj_description(i.oid, 'pg_class')
FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = 'callback_log'::regclass;

DO $$
DECLARE v record;
BEGIN
    FOR v IN SELECT relname FROM v73_views ORDER BY oid DESC LOOP
        EXECUTE format('DROP VIEW %I', v.relname);
    END LOOP;
END $$;

-- 2. The old table out of the way, names freed.
ALTER TABLE callback_log RENAME TO callback_log_v72;
ALTER INDEX callback_log_pkey RENAME TO callback_log_v72_pkey;
ALTER INDEX callback_log_event_key_idx RENAME TO callback_log_v72_event_key_idx;
ALTER INDEX callback_log_received_at_idx RENAME TO callback_log_v72_received_at_idx;
ALTER INDEX callback_log_unpublished_idx RENAME TO callback_log_v72_unpublished_idx;
ALTER INDEX callback_log_parked_idx RENAME TO callback_log_v72_parked_idx;
ALTER TABLE callback_log_v72 RENAME CONSTRAINT callback_log_attempt_check TO callback_log_v72_attempt_check;
ALTER SEQUENCE callback_log_callback_log_id_seq RENAME TO callback_log_v72_callback_log_id_seq;

-- 3. The partitioned table. Ids come from a sequence of its own (an identity column on a partitioned table needs
--    PostgreSQL 17), continuing where the old one stopped; the primary key must hold the partition key.
CREATE SEQUENCE callback_log_callback_log_id_seq AS bigint;
SELECT setval('callback_log_callback_log_id_seq',
              greatest((SELECT max(callback_log_id) FROM callback_log_v72),
                       (SELECT last_value FROM callback_log_v72_callback_log_id_seq), 1));

CREATE TABLE callback_log (
    callback_log_id         bigint        NOT NULL DEFAULT nextval('callback_log_callback_log_id_seq'),
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
    attempt                 integer       NOT NULL CONSTRAINT callback_log_attempt_check CHECK (attempt >= 1),
    seconds_since_previous  numeric(12,3),
    remote_addr             text,
    outcome                 text          NOT NULL,
    published_at            timestamptz,
    parked_id               text,
    content_erased_at       timestamptz,
    CONSTRAINT callback_log_pkey PRIMARY KEY (callback_log_id, received_at),
    -- erased content is the empty string, never half of it
    CONSTRAINT callback_log_erased_check CHECK (content_erased_at IS NULL OR (raw_body = '' AND plaintext = ''))
) PARTITION BY RANGE (received_at);
ALTER SEQUENCE callback_log_callback_log_id_seq OWNED BY callback_log.callback_log_id;

-- Rows no month partition takes (the partitions ahead were not made in time, or a clock far off): never
-- refused, kept here until the retention job finds them (metric wecom.retention.default.partition.rows).
CREATE TABLE callback_log_default PARTITION OF callback_log DEFAULT;

-- One month's partition, made if missing; the retention job makes those of the coming months ahead.
CREATE FUNCTION callback_log_month_partition(month_start timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    from_ts timestamptz := date_trunc('month', month_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    to_ts   timestamptz := from_ts + interval '1 month';
    name    text := 'callback_log_p' || to_char(from_ts AT TIME ZONE 'UTC', 'YYYYMM');
BEGIN
    IF to_regclass(name) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF callback_log FOR VALUES FROM (%L) TO (%L)', name, from_ts, to_ts);
        EXECUTE format('COMMENT ON TABLE %I IS %L', name,
            'callback_log deliveries received from ' || to_char(from_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD')
            || ' to ' || to_char(to_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ' (UTC, end excluded); dropped whole by'
            || ' the retention job once all of it is past wecom.retention.callback-log.drop-after.');
    END IF;
    RETURN name;
END $$;

-- the months of the rows kept, then this one and the next two
DO $$
DECLARE m timestamptz;
BEGIN
    FOR m IN SELECT generate_series(
                 date_trunc('month', coalesce((SELECT min(received_at) FROM callback_log_v72), now()) AT TIME ZONE 'UTC')
                     AT TIME ZONE 'UTC',
                 now() + interval '2 months', interval '1 month') LOOP
        PERFORM callback_log_month_partition(m);
    END LOOP;
END $$;

INSERT INTO callback_log (callback_log_id, received_at, app, corp_id, agent_id, query_string, raw_body, plaintext,
    msg_type, event_type, change_type, event_key, event_created_at, attempt, seconds_since_previous, remote_addr,
    outcome, published_at, parked_id)
SELECT callback_log_id, received_at, app, corp_id, agent_id, query_string, raw_body, plaintext, msg_type,
    event_type, change_type, event_key, event_created_at, attempt, seconds_since_previous, remote_addr, outcome,
    published_at, parked_id
FROM callback_log_v72 ORDER BY callback_log_id;

-- 4. The same indexes, on every partition (the parent's are partitioned indexes), and one for the erasure.
CREATE INDEX callback_log_event_key_idx ON callback_log (event_key, received_at);
CREATE INDEX callback_log_received_at_idx ON callback_log (received_at);
CREATE INDEX callback_log_unpublished_idx ON callback_log (callback_log_id) WHERE published_at IS NULL;
CREATE INDEX callback_log_parked_idx ON callback_log (parked_id) WHERE parked_id IS NOT NULL;
CREATE INDEX callback_log_content_kept_idx ON callback_log (received_at) WHERE content_erased_at IS NULL;

DROP TABLE callback_log_v72;

-- 5. The comments carried over, then the views made again.
DO $$
DECLARE c record;
BEGIN
    FOR c IN SELECT * FROM v73_comments WHERE comment IS NOT NULL LOOP
        IF c.kind = 'table' THEN
            EXECUTE format('COMMENT ON TABLE callback_log IS %L', c.comment);
        ELSIF c.kind = 'column' THEN
            EXECUTE format('COMMENT ON COLUMN callback_log.%I IS %L', c.name, c.comment);
        ELSIF to_regclass(replace(c.name, 'callback_log_v72', 'callback_log')) IS NOT NULL THEN
            EXECUTE format('COMMENT ON INDEX %I IS %L', replace(c.name, 'callback_log_v72', 'callback_log'), c.comment);
        END IF;
    END LOOP;
END $$;

DO $$
DECLARE v record; c record;
BEGIN
    FOR v IN SELECT * FROM v73_views ORDER BY oid LOOP
        EXECUTE format('CREATE VIEW %I AS %s', v.relname, v.definition);
        IF v.comment IS NOT NULL THEN
            EXECUTE format('COMMENT ON VIEW %I IS %L', v.relname, v.comment);
        END IF;
        FOR c IN SELECT * FROM v73_view_columns WHERE relname = v.relname LOOP
            EXECUTE format('COMMENT ON COLUMN %I.%I IS %L', v.relname, c.attname, c.comment);
        END LOOP;
    END LOOP;
END $$;

COMMENT ON TABLE callback_log IS
    'One row per accepted WeCom callback delivery (POST /wecom/callback/{app}), retries included; committed alone before the 200, then published to wecom.events by the relay (published_at). Never unique-keyed. Partitioned by month of received_at (V73): a month leaves by dropping its partition (docs/dba.md, "Retention").';
COMMENT ON COLUMN callback_log.callback_log_id IS
    'Row id (sequence callback_log_callback_log_id_seq); the JMS message carries it as property callbackLogId. Unique by itself, though the primary key must also hold received_at, the partition key.';
COMMENT ON COLUMN callback_log.content_erased_at IS
    'When the retention job erased raw_body and plaintext (then both empty), past wecom.retention.callback-log.erase-after; null while the content is kept. The audit columns stay until the month''s partition is dropped.';
COMMENT ON CONSTRAINT callback_log_erased_check ON callback_log IS 'Erased content is the empty string in both raw_body and plaintext.';
COMMENT ON INDEX callback_log_pkey IS 'Row id (with the partition key, as PostgreSQL requires of a partitioned table''s unique keys).';
COMMENT ON INDEX callback_log_content_kept_idx IS 'Deliveries whose content is still kept, oldest first: what the retention job erases next.';
COMMENT ON SEQUENCE callback_log_callback_log_id_seq IS 'callback_log ids; the ingest takes a group''s ids from it up front.';
COMMENT ON TABLE callback_log_default IS
    'The default partition of callback_log: deliveries whose month has no partition (none made in time). Normally empty; the retention job reports its rows and deletes them past the drop window.';
COMMENT ON FUNCTION callback_log_month_partition(timestamptz) IS
    'Makes the partition of callback_log for the month (UTC) of the given time if it does not exist; returns its name (callback_log_pYYYYMM).';
