-- V30: retry diagnosis over callback_log. When one event shows up several times, the on-call person must
-- see at once whether WeCom was retrying (our answer was too slow or lost: gaps of ~5 s, ~5 s, then ~84-90 s
-- after the first) or something else repeated it (a replay, a re-send after a non-2xx answer). A customer
-- acting again is a new event with a new key, so it never appears here as a repeat.
--
-- Tolerances (measured from the FIRST delivery of the key, at our side):
--   second delivery   2.5 s .. 8 s     WeCom's first retry, ~5 s after it gave up waiting
--   third delivery    7 s .. 16 s      WeCom's second retry, ~10 s after the first
--   fourth delivery   70 s .. 110 s    WeCom's late retry, observed 84-90 s after the first
-- WeCom makes at most three retries, so a fifth delivery is never the platform's.

CREATE VIEW callback_delivery_gap AS
WITH ordered AS (
    SELECT c.callback_log_id,
           c.app,
           c.event_key,
           c.event_type,
           c.change_type,
           c.received_at,
           row_number() OVER w AS delivery_number,
           lag(c.callback_log_id) OVER w AS previous_callback_log_id,
           lag(c.received_at) OVER w AS previous_received_at,
           first_value(c.received_at) OVER w AS first_received_at
    FROM callback_log c
    WINDOW w AS (PARTITION BY c.event_key ORDER BY c.received_at, c.callback_log_id)
)
SELECT o.callback_log_id,
       o.app,
       o.event_key,
       o.event_type,
       o.change_type,
       o.received_at,
       o.delivery_number,
       o.previous_callback_log_id,
       o.previous_received_at,
       round(extract(epoch FROM o.received_at - o.previous_received_at)::numeric, 3) AS gap_seconds,
       round(extract(epoch FROM o.received_at - o.first_received_at)::numeric, 3) AS seconds_since_first,
       CASE
           WHEN o.delivery_number = 1 THEN 'FIRST'
           WHEN o.delivery_number = 2
                AND o.received_at - o.first_received_at BETWEEN interval '2.5 seconds' AND interval '8 seconds'
               THEN 'PLATFORM_RETRY'
           WHEN o.delivery_number = 3
                AND o.received_at - o.first_received_at BETWEEN interval '7 seconds' AND interval '16 seconds'
               THEN 'PLATFORM_RETRY'
           WHEN o.delivery_number IN (2, 3, 4)
                AND o.received_at - o.first_received_at BETWEEN interval '70 seconds' AND interval '110 seconds'
               THEN 'PLATFORM_RETRY'
           ELSE 'OTHER_REPEAT'
       END AS classification
FROM ordered o;

COMMENT ON VIEW callback_delivery_gap IS
    'Every callback_log delivery with the previous delivery of the same event key and the gap, classified: FIRST, PLATFORM_RETRY (WeCom''s ~5 s / ~10 s / ~84-90 s retry schedule, tolerances in V30), OTHER_REPEAT (outside that schedule: a replay, a re-send after a non-2xx answer, a proxy). Filter by event_key or received_at: both are indexed in callback_log.';
COMMENT ON COLUMN callback_delivery_gap.callback_log_id IS 'The delivery (callback_log row).';
COMMENT ON COLUMN callback_delivery_gap.app IS 'WeCom app the callback came to.';
COMMENT ON COLUMN callback_delivery_gap.event_key IS 'Event key: equal for every delivery of one event.';
COMMENT ON COLUMN callback_delivery_gap.event_type IS 'Event type (Event for MsgType=event, else MsgType).';
COMMENT ON COLUMN callback_delivery_gap.change_type IS 'ChangeType, where the event has one.';
COMMENT ON COLUMN callback_delivery_gap.received_at IS 'When this delivery arrived.';
COMMENT ON COLUMN callback_delivery_gap.delivery_number IS 'Order of this delivery among all deliveries of the key (1 = first).';
COMMENT ON COLUMN callback_delivery_gap.previous_callback_log_id IS 'The previous delivery of the same key, if any.';
COMMENT ON COLUMN callback_delivery_gap.previous_received_at IS 'When the previous delivery of the same key arrived.';
COMMENT ON COLUMN callback_delivery_gap.gap_seconds IS 'Seconds since the previous delivery of the same key (null for the first).';
COMMENT ON COLUMN callback_delivery_gap.seconds_since_first IS 'Seconds since the first delivery of the same key.';
COMMENT ON COLUMN callback_delivery_gap.classification IS 'FIRST, PLATFORM_RETRY or OTHER_REPEAT (see the view comment).';

-- Retry rate: deliveries per distinct event, per app and hour. 1.0 means WeCom never had to retry.
CREATE VIEW callback_retry_rate_hourly AS
SELECT date_trunc('hour', received_at) AS hour,
       app,
       count(*) AS deliveries,
       count(DISTINCT event_key) AS events,
       round(count(*)::numeric / count(DISTINCT event_key), 3) AS retry_rate
FROM callback_log
GROUP BY 1, 2;

COMMENT ON VIEW callback_retry_rate_hourly IS
    'Deliveries per distinct event key, per app and hour (1.000 = no retries). A rise means our answers got slow or lost. Filter on hour to stay on the received_at index.';
COMMENT ON COLUMN callback_retry_rate_hourly.hour IS 'Hour of arrival (UTC).';
COMMENT ON COLUMN callback_retry_rate_hourly.app IS 'WeCom app.';
COMMENT ON COLUMN callback_retry_rate_hourly.deliveries IS 'Deliveries received in that hour.';
COMMENT ON COLUMN callback_retry_rate_hourly.events IS 'Distinct event keys among them.';
COMMENT ON COLUMN callback_retry_rate_hourly.retry_rate IS 'deliveries / events.';

-- The span of each repeated event: how long after its first delivery the last one came. The hot dedup
-- window must cover it with room to spare (2-3 x its P99).
CREATE VIEW callback_retry_span AS
SELECT event_key,
       app,
       count(*) AS deliveries,
       min(received_at) AS first_received_at,
       max(received_at) AS last_received_at,
       round(extract(epoch FROM max(received_at) - min(received_at))::numeric, 3) AS span_seconds
FROM callback_log
GROUP BY event_key, app
HAVING count(*) > 1;

COMMENT ON VIEW callback_retry_span IS
    'One row per event key delivered more than once: first and last arrival and the span between them. The P99 of span_seconds over recent days, times 2-3, is the hot window it implies.';
COMMENT ON COLUMN callback_retry_span.event_key IS 'Event key.';
COMMENT ON COLUMN callback_retry_span.app IS 'WeCom app.';
COMMENT ON COLUMN callback_retry_span.deliveries IS 'How many deliveries of the key arrived.';
COMMENT ON COLUMN callback_retry_span.first_received_at IS 'First arrival.';
COMMENT ON COLUMN callback_retry_span.last_received_at IS 'Last arrival.';
COMMENT ON COLUMN callback_retry_span.span_seconds IS 'Seconds from the first to the last arrival.';
