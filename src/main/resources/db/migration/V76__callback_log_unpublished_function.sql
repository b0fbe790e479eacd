-- V76: the relay's backlog, read once a second for its gauges (wecom_relay_backlog, the oldest unpublished row's
-- age). The relay's mark leaves a dead entry in callback_log_unpublished_idx for every row published since the
-- last vacuum. The planner counts through a bitmap of that index, which visits the heap page of every such entry
-- at every read: 19 ms a read at 200 callbacks/s, growing until the next vacuum (docs/benchmarks.md). A plain
-- index scan marks the entries it finds dead and skips them at the next read, so it costs only what was
-- published since the last read. The setting holds inside the function only.

CREATE FUNCTION callback_log_unpublished(OUT waiting bigint, OUT oldest_seconds double precision)
LANGUAGE sql STABLE
SET enable_bitmapscan = off
AS $$
    SELECT count(*), coalesce(extract(epoch FROM now() - min(received_at))::double precision, 0)
    FROM callback_log WHERE published_at IS NULL
$$;

COMMENT ON FUNCTION callback_log_unpublished() IS
    'Rows of callback_log the publication relay has not published yet: how many, and the age of the oldest in seconds (0 when none). Read by the relay once a second for its gauges; counts through callback_log_unpublished_idx without a bitmap, so the dead entries the relay''s marks leave are skipped once seen.';
