-- V60: the reconciliation pull (issue 15). WeCom gives up on a callback after its fourth try (~90 s); what it
-- could not deliver is fetched from its API (get_follow_user_list, batch/get_by_user) by a reconcile run and
-- handed to the contact and crm handlers as pulled events. One relationship fact must give one effect,
-- whichever source (callback or pull) saw it first: external_contact_generation numbers each time a
-- relationship (member, customer) begins, so both sources derive the same business key (docs/handlers.md).

CREATE TABLE reconcile_run (
    run_id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    app             text        NOT NULL,
    trigger         text        NOT NULL CHECK (trigger IN ('SCHEDULE', 'OPERATOR')),
    requested_by    text,
    state           text        NOT NULL CHECK (state IN ('RUNNING', 'DONE', 'FAILED', 'CANCELLED')),
    started_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz,
    runner_node     text        NOT NULL,
    lease_until     timestamptz NOT NULL,
    members         text[],
    chunk_index     integer     NOT NULL DEFAULT 0 CHECK (chunk_index >= 0),
    page_cursor     text,
    pages           integer     NOT NULL DEFAULT 0,
    api_calls       integer     NOT NULL DEFAULT 0,
    records_seen    integer     NOT NULL DEFAULT 0,
    records_new     integer     NOT NULL DEFAULT 0,
    records_known   integer     NOT NULL DEFAULT 0,
    marked_gone     integer     NOT NULL DEFAULT 0,
    errors          integer     NOT NULL DEFAULT 0,
    resumes         integer     NOT NULL DEFAULT 0,
    stop_reason     text,
    CHECK ((state = 'RUNNING') = (finished_at IS NULL))
);
CREATE UNIQUE INDEX reconcile_run_one_running_idx ON reconcile_run (app) WHERE state = 'RUNNING';
CREATE INDEX reconcile_run_started_at_idx ON reconcile_run (started_at DESC);

COMMENT ON TABLE reconcile_run IS
    'One row per reconciliation pass of one WeCom app (scheduled, or POST /api/ops/reconcile-runs): its progress (persisted with every page, in the same XA transaction as the page''s JMS messages, so a crash resumes from the last committed page), its counts and why it stopped. At most one RUNNING pass per app (partial unique index); the node running it holds a lease (lease_until) that it renews with every page.';
COMMENT ON COLUMN reconcile_run.run_id IS 'Run id (GET /api/ops/reconcile-runs/{id}); the JMS property reconcileRunId and the ReconcileRunId field of every event it published; external_contact.reconcile_run_id.';
COMMENT ON COLUMN reconcile_run.app IS 'WeCom app name (wecom.apps) whose customers were pulled.';
COMMENT ON COLUMN reconcile_run.trigger IS 'SCHEDULE (wecom.reconcile.interval) or OPERATOR (admin API).';
COMMENT ON COLUMN reconcile_run.requested_by IS 'Admin API principal for OPERATOR runs; null for scheduled ones.';
COMMENT ON COLUMN reconcile_run.state IS 'RUNNING, DONE (complete pass: every member''s customers paged, unlisted relationships published as gone), FAILED (stopped early: see stop_reason; nothing was marked gone), CANCELLED (reserved: no API cancels a pass yet).';
COMMENT ON COLUMN reconcile_run.started_at IS 'When the pass started (our clock). Relationships known before it and not listed by a complete pass are marked gone as of this time.';
COMMENT ON COLUMN reconcile_run.finished_at IS 'When it became DONE, FAILED or CANCELLED; null while RUNNING.';
COMMENT ON COLUMN reconcile_run.runner_node IS 'Server running it (host/server name); taken over by another node when lease_until has passed.';
COMMENT ON COLUMN reconcile_run.lease_until IS 'The runner''s lease; renewed with every committed page. A RUNNING pass past it (its node died) is resumed by the next node that looks.';
COMMENT ON COLUMN reconcile_run.members IS 'get_follow_user_list as fetched at the start of the pass (members with the customer-contact feature); null until fetched. A resumed pass pages the same list.';
COMMENT ON COLUMN reconcile_run.chunk_index IS 'Which chunk of members (wecom.reconcile.members-per-call, at most 100) batch/get_by_user is paging now.';
COMMENT ON COLUMN reconcile_run.page_cursor IS 'next_cursor of the last committed page within that chunk; null = the chunk starts from its beginning.';
COMMENT ON COLUMN reconcile_run.pages IS 'batch/get_by_user pages committed.';
COMMENT ON COLUMN reconcile_run.api_calls IS 'WeCom API calls made (retries included), the quota this pass cost.';
COMMENT ON COLUMN reconcile_run.records_seen IS 'follow_info records (member, customer) listed.';
COMMENT ON COLUMN reconcile_run.records_new IS 'Records the contact store did not know as a current relationship: published to the contact and crm handlers (see reconcile_found).';
COMMENT ON COLUMN reconcile_run.records_known IS 'Records already current in external_contact (marked seen by this run).';
COMMENT ON COLUMN reconcile_run.marked_gone IS 'Relationships we held as current that the complete pass did not list: published as gone (a del_follow_user of this run) to the contact handler (external_contact.status GONE unless it changed meanwhile) and the crm handler (told once per generation).';
COMMENT ON COLUMN reconcile_run.errors IS 'API calls that failed (rate limit, token, transport); each was retried with back-off.';
COMMENT ON COLUMN reconcile_run.resumes IS 'How often the pass was resumed after its node stopped or crashed.';
COMMENT ON COLUMN reconcile_run.stop_reason IS 'Why it stopped (DONE: "complete"; FAILED: the last error, never a token or secret).';
COMMENT ON INDEX reconcile_run_pkey IS 'Run id.';
COMMENT ON INDEX reconcile_run_one_running_idx IS 'At most one RUNNING pass per app, whichever node starts it: the second insert fails.';
COMMENT ON INDEX reconcile_run_started_at_idx IS 'Recent runs first (GET /api/ops/reconcile-runs, the dashboard).';

CREATE TABLE reconcile_found (
    run_id              bigint      NOT NULL REFERENCES reconcile_run (run_id),
    app                 text        NOT NULL,
    user_id             text        NOT NULL,
    external_user_id    text        NOT NULL,
    follow_created_at   timestamptz,
    state               text,
    observed_at         timestamptz NOT NULL,
    PRIMARY KEY (run_id, app, user_id, external_user_id)
);
CREATE INDEX reconcile_found_relationship_idx ON reconcile_found (app, user_id, external_user_id);

COMMENT ON TABLE reconcile_found IS
    'What a reconcile run published: one row per relationship it found that the contact store did not hold as current, written in the same transaction as the pulled event''s JMS messages to the contact and crm handlers.';
COMMENT ON COLUMN reconcile_found.run_id IS 'The reconcile_run that found it.';
COMMENT ON COLUMN reconcile_found.app IS 'WeCom app name.';
COMMENT ON COLUMN reconcile_found.user_id IS 'follow_info.userid: the member.';
COMMENT ON COLUMN reconcile_found.external_user_id IS 'external_contact.external_userid: the customer.';
COMMENT ON COLUMN reconcile_found.follow_created_at IS 'follow_info.createtime: when the member FIRST added the customer (not the latest re-add).';
COMMENT ON COLUMN reconcile_found.state IS 'follow_info.state: the "contact me" channel of the add, if any.';
COMMENT ON COLUMN reconcile_found.observed_at IS 'When the page listing it was fetched (our clock): the relationship existed then.';
COMMENT ON INDEX reconcile_found_pkey IS 'One row per run and relationship.';
COMMENT ON INDEX reconcile_found_relationship_idx IS 'Which runs found one relationship.';

CREATE TABLE external_contact_generation (
    app                 text        NOT NULL,
    user_id             text        NOT NULL,
    external_user_id    text        NOT NULL,
    generation          integer     NOT NULL CHECK (generation >= 1),
    added_from          timestamptz,
    added_until         timestamptz,
    ended_at            timestamptz,
    begun_by            text        NOT NULL CHECK (begun_by IN ('CALLBACK', 'RECONCILE', 'DELETE')),
    reconcile_run_id    bigint,
    recorded_at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app, user_id, external_user_id, generation),
    CHECK (added_from IS NULL OR added_until IS NULL OR added_from <= added_until)
);

COMMENT ON TABLE external_contact_generation IS
    'Each time a relationship (member, customer) began, numbered 1, 2, ... per relationship: a delete and a re-add is a new generation. Written under a per-relationship advisory lock inside the consumer''s XA transaction by whichever handler (contact or crm) sees the fact first, from a callback (add_external_contact, del_*) or a pulled record, so both handlers and both sources derive the same business key wecom:{handler}:{app}:external_contact:relationship:{userid}:{external_userid}:{generation}.';
COMMENT ON COLUMN external_contact_generation.app IS 'WeCom app name.';
COMMENT ON COLUMN external_contact_generation.user_id IS 'UserID of the member.';
COMMENT ON COLUMN external_contact_generation.external_user_id IS 'ExternalUserID of the customer.';
COMMENT ON COLUMN external_contact_generation.generation IS 'Ordinal of this beginning of the relationship, from 1.';
COMMENT ON COLUMN external_contact_generation.added_from IS 'Earliest time the add can have happened: the callback''s CreateTime; for a pulled record follow_info.createtime (the first add) or just after the previous generation ended; null when only a delete is known.';
COMMENT ON COLUMN external_contact_generation.added_until IS 'Latest time the add can have happened: the callback''s CreateTime; for a pulled record when its page was fetched plus a clock-skew margin; for a delete-only generation the delete time. An add callback whose CreateTime falls within [added_from, added_until] (and not after ended_at) is this generation.';
COMMENT ON COLUMN external_contact_generation.ended_at IS 'When it ended: the delete callback''s CreateTime, or the start of the complete reconcile pass that no longer listed it; null while current.';
COMMENT ON COLUMN external_contact_generation.begun_by IS 'What made it known first: CALLBACK (add_external_contact), RECONCILE (a pulled record), DELETE (a delete arrived before its add).';
COMMENT ON COLUMN external_contact_generation.reconcile_run_id IS 'reconcile_run whose pulled record began it (begun_by RECONCILE), else null.';
COMMENT ON COLUMN external_contact_generation.recorded_at IS 'When the row was written (our clock).';
COMMENT ON INDEX external_contact_generation_pkey IS 'One row per relationship and generation.';

ALTER TABLE external_contact DROP CONSTRAINT external_contact_status_check;
ALTER TABLE external_contact ADD CONSTRAINT external_contact_status_check CHECK (status IN ('ADDED', 'HALF_ADDED',
    'DELETED_BY_MEMBER', 'DELETED_BY_CUSTOMER', 'TRANSFER_FAILED', 'GONE'));
COMMENT ON CONSTRAINT external_contact_status_check ON external_contact IS
    'The statuses of external_contact.status; GONE (V60) = not listed by a complete reconcile pass.';
COMMENT ON COLUMN external_contact.status IS 'ADDED (add_external_contact, known from an edit, or found by a reconcile pull), HALF_ADDED (add_half_external_contact: the customer added the member without verification), DELETED_BY_MEMBER (del_external_contact), DELETED_BY_CUSTOMER (del_follow_user), TRANSFER_FAILED (only known from a transfer_fail for this member), GONE (a complete reconcile pass no longer listed it: its delete callback was lost).';

ALTER TABLE external_contact ADD COLUMN reconcile_run_id bigint;
ALTER TABLE external_contact ADD COLUMN last_seen_run_id bigint;
ALTER TABLE external_contact ADD COLUMN last_seen_at timestamptz;
COMMENT ON COLUMN external_contact.reconcile_run_id IS 'reconcile_run that last changed this row (found it, or marked it GONE); null if only callbacks did.';
COMMENT ON COLUMN external_contact.last_seen_run_id IS 'The last reconcile_run whose pages listed this relationship; a complete pass marks current rows it did not list GONE.';
COMMENT ON COLUMN external_contact.last_seen_at IS 'When that run''s page listed it (our clock).';
CREATE INDEX external_contact_reconcile_run_idx ON external_contact (reconcile_run_id) WHERE reconcile_run_id IS NOT NULL;
COMMENT ON INDEX external_contact_reconcile_run_idx IS 'What one reconcile run changed in external_contact (docs/dba.md).';
