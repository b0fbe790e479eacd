-- V40: the ACK path commits callback_log alone (one local PostgreSQL transaction, no XA, no broker); the row
-- is published to wecom.events afterwards by the publication relay, which marks it here. A row with no
-- published_at is waiting for the broker (outage, or a crash between commit and send).

-- Rows stored before this migration were published in the XA transaction that stored them: they get the
-- migration's time (a constant default is stored once in the catalogue, so this does not rewrite the table).
ALTER TABLE callback_log ADD COLUMN published_at timestamptz DEFAULT now();
ALTER TABLE callback_log ALTER COLUMN published_at DROP DEFAULT;

-- Only the waiting rows: the relay reads them oldest first, and this index stays as small as the backlog.
CREATE INDEX callback_log_unpublished_idx ON callback_log (callback_log_id) WHERE published_at IS NULL;

COMMENT ON COLUMN callback_log.published_at IS
    'When the publication relay''s JMS transaction carrying this row to wecom.events committed; null while the row waits for the broker. Rows from before V40 carry the migration time.';
COMMENT ON INDEX callback_log_unpublished_idx IS
    'The relay''s backlog: unpublished rows in id (= commit) order; empty when the broker keeps up.';
COMMENT ON TABLE callback_log IS
    'One row per accepted WeCom callback delivery (POST /wecom/callback/{app}), retries included; committed alone before the 200, then published to wecom.events by the relay (published_at). Never unique-keyed.';
COMMENT ON COLUMN callback_log.outcome IS
    'What the ingest did: ENQUEUED = stored for publication to wecom.events (see published_at for when it was published).';
