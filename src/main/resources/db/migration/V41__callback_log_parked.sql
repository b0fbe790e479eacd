-- V41: deliveries the ACK path kept in the broker while PostgreSQL was down (queue wecom.ingest.pending) are
-- written here by the drainer when it returns. The parked id makes that write idempotent: a drain interrupted
-- between this commit and the broker's acknowledgement finds its rows already here instead of adding twins.
ALTER TABLE callback_log ADD COLUMN parked_id text;
CREATE INDEX callback_log_parked_idx ON callback_log (parked_id) WHERE parked_id IS NOT NULL;

COMMENT ON COLUMN callback_log.parked_id IS
    'Set when the delivery was acknowledged while PostgreSQL was down and kept in the broker (wecom.ingest.pending) until the drainer wrote it; received_at is then the original arrival, attempt numbered at the drain. Null for deliveries stored at once.';
COMMENT ON INDEX callback_log_parked_idx IS 'The drainer''s check that a parked delivery is not written twice.';
