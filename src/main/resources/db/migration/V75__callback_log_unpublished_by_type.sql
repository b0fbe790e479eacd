-- V75: the publication relay's deadline lane (issue 21 item 2) takes the waiting rows of a few event types,
-- oldest first, while the other lane takes everything else. Without this index the lane would walk every
-- waiting row of every type to find its own; after a broker outage that is the whole backlog, at each wake.

CREATE INDEX callback_log_unpublished_type_idx ON callback_log (event_type, callback_log_id) WHERE published_at IS NULL;

COMMENT ON INDEX callback_log_unpublished_type_idx IS
    'Rows the relay has not published yet, by event type then id: what the relay''s deadline lane (the types a deadline waits on, e.g. the welcome''s change_external_contact) takes next.';
