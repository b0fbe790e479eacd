-- V71: the nodes of a deployment (issue 16). Each Liberty node upserts its row every few seconds with its
-- own figures, so that any node's dashboard shows every node, and an operator sees which one went silent.
-- A row is never deleted by the application: a node that was renamed or retired stays visible as silent
-- until someone removes it (DELETE FROM cluster_node WHERE node_name = ...).

CREATE TABLE cluster_node (
    node_name            text        PRIMARY KEY,
    started_at           timestamptz NOT NULL,
    last_seen_at         timestamptz NOT NULL,
    stopped_at           timestamptz,
    accepted_last_minute bigint      NOT NULL DEFAULT 0 CHECK (accepted_last_minute >= 0),
    failed_last_minute   bigint      NOT NULL DEFAULT 0 CHECK (failed_last_minute >= 0),
    ack_p95_ms           double precision,
    ack_max_ms           double precision,
    relay_backlog        bigint      NOT NULL DEFAULT 0 CHECK (relay_backlog >= 0)
);

COMMENT ON TABLE cluster_node IS
    'One row per Liberty node of this deployment, refreshed by the node itself every few seconds (NodeHeartbeat).';
COMMENT ON COLUMN cluster_node.node_name IS
    'The node''s name (server.xml variable node.name, env NODE_NAME; default the Liberty server name); also its '
    'transaction recovery identity and the node label of its metrics.';
COMMENT ON COLUMN cluster_node.started_at IS 'When the node''s application last started.';
COMMENT ON COLUMN cluster_node.last_seen_at IS
    'The node''s last heartbeat (database clock). Silent for longer than a few beats: dead, frozen or cut off.';
COMMENT ON COLUMN cluster_node.stopped_at IS 'Set by an orderly shutdown; NULL while running or after a crash.';
COMMENT ON COLUMN cluster_node.accepted_last_minute IS 'Callbacks this node acknowledged (200) in the last minute.';
COMMENT ON COLUMN cluster_node.failed_last_minute IS 'Callbacks this node answered 5xx in the last minute.';
COMMENT ON COLUMN cluster_node.ack_p95_ms IS
    'This node''s worst 10-second ACK latency p95 of the last minute, in ms (histogram bucket bound); NULL without '
    'callbacks.';
COMMENT ON COLUMN cluster_node.ack_max_ms IS 'This node''s slowest ACK of the last minute, in ms.';
COMMENT ON COLUMN cluster_node.relay_backlog IS
    'callback_log rows not yet published, as this node''s relay last counted them (shared by all nodes).';
