-- V31: replay / backfill (issue 7). An operator re-publishes past callback_log events to chosen handlers'
-- queues (POST /api/ops/replays). replay_run records every replay: who asked, when, for what, and how it
-- went. Each replayed message carries the JMS property replayId, which the handler's disposition keeps in
-- handler_disposition.replay_id, so "what did replay X do?" is one join (docs/dba.md).

CREATE TABLE replay_run (
    replay_id           bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    requested_by        text        NOT NULL,
    requested_at        timestamptz NOT NULL DEFAULT now(),
    selection           jsonb       NOT NULL,
    handlers            text[]      NOT NULL CHECK (cardinality(handlers) > 0),
    batch_id            text        CHECK (batch_id ~ '^[A-Za-z0-9._-]{1,64}$'),
    reason              text        CHECK (length(reason) <= 500),
    max_rate            integer     NOT NULL CHECK (max_rate > 0),
    state               text        NOT NULL CHECK (state IN ('RUNNING', 'DONE', 'CANCELLED', 'FAILED')),
    events_selected     integer     NOT NULL CHECK (events_selected >= 0),
    messages_total      integer     NOT NULL CHECK (messages_total >= 0),
    messages_published  integer     NOT NULL DEFAULT 0 CHECK (messages_published BETWEEN 0 AND messages_total),
    runner_node         text        NOT NULL,
    started_at          timestamptz,
    finished_at         timestamptz,
    failure             text,
    outcomes            jsonb,
    outcomes_at         timestamptz,
    CHECK ((state = 'RUNNING') = (finished_at IS NULL))
);
CREATE INDEX replay_run_requested_at_idx ON replay_run (requested_at DESC);
CREATE INDEX replay_run_running_idx ON replay_run (runner_node) WHERE state = 'RUNNING';

COMMENT ON TABLE replay_run IS
    'One row per replay / backfill requested through POST /api/ops/replays: who, when, which callback_log events, which handlers, the batch id and reason, and the counts. Published messages carry replayId; their dispositions are in handler_disposition.replay_id.';
COMMENT ON COLUMN replay_run.replay_id IS 'Replay id (GET /api/ops/replays/{id}); the JMS property replayId of every message it published.';
COMMENT ON COLUMN replay_run.requested_by IS 'Authenticated principal (admin API login) who requested it.';
COMMENT ON COLUMN replay_run.requested_at IS 'When the request was accepted.';
COMMENT ON COLUMN replay_run.selection IS 'The selection as requested: from/to (on callback_log.received_at), app, eventTypes, eventKeys, callbackLogIds; absent criteria are left out.';
COMMENT ON COLUMN replay_run.handlers IS 'Handlers the events were published to (queues wecom.handler.<name>).';
COMMENT ON COLUMN replay_run.batch_id IS 'Batch id of a forced re-run (in the dedup key, the business rows and the outbound calls); null = the replay went through dedup normally.';
COMMENT ON COLUMN replay_run.reason IS 'Free text from the requester (why), at most 500 characters.';
COMMENT ON COLUMN replay_run.max_rate IS 'Upper bound on published messages per second (chunks are paced to it).';
COMMENT ON COLUMN replay_run.state IS 'RUNNING (publishing), DONE (all published), CANCELLED (stopped on request; what was published stays published), FAILED (an error, or the server stopped while it ran; see failure).';
COMMENT ON COLUMN replay_run.events_selected IS 'Distinct events (event keys) the selection matched; each is replayed from its first delivery.';
COMMENT ON COLUMN replay_run.messages_total IS 'Messages to publish: per event, one per chosen handler that takes its event type.';
COMMENT ON COLUMN replay_run.messages_published IS 'Messages published so far; advanced in the same transaction as each chunk''s JMS sends.';
COMMENT ON COLUMN replay_run.runner_node IS 'Server that runs it (host/server name); at its next start it marks its own RUNNING replays FAILED.';
COMMENT ON COLUMN replay_run.started_at IS 'When publishing started.';
COMMENT ON COLUMN replay_run.finished_at IS 'When it became DONE, CANCELLED or FAILED; null while RUNNING.';
COMMENT ON COLUMN replay_run.failure IS 'Why it FAILED (no payload, no secret).';
COMMENT ON COLUMN replay_run.outcomes IS 'Per handler, once every published message has a final disposition (or the settle timeout passed): {"crm": {"published": n, "effects": n, "duplicates": n, "rejectedAttempts": n}}. Effects = PROCESSED, RETRIED, FORCED, PROCEEDED_WITHOUT_STORE; duplicates = DUPLICATE_HOT, DUPLICATE_COLD.';
COMMENT ON COLUMN replay_run.outcomes_at IS 'When outcomes were stored.';
COMMENT ON INDEX replay_run_pkey IS 'Replay id.';
COMMENT ON INDEX replay_run_requested_at_idx IS 'Recent replays first (GET /api/ops/replays).';
COMMENT ON INDEX replay_run_running_idx IS 'Replays still running on one node (marked FAILED when that node restarts).';

ALTER TABLE handler_disposition ADD COLUMN replay_id bigint;
COMMENT ON COLUMN handler_disposition.replay_id IS 'replay_run that published this delivery (JMS property replayId); null for deliveries from the ingest.';
CREATE INDEX handler_disposition_replay_id_idx ON handler_disposition (replay_id, handler, disposition)
    WHERE replay_id IS NOT NULL;
COMMENT ON INDEX handler_disposition_replay_id_idx IS 'What one replay did, per handler and disposition (only replayed deliveries are indexed).';
