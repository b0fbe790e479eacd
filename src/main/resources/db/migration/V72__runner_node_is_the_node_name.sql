-- V72 (issue 20): replays and reconcile passes run under the node's name (NODE_NAME), like its heartbeat and
-- its transaction recovery identity, no longer under host/server name: the column comments say so.
COMMENT ON COLUMN replay_run.runner_node IS
    'Node that runs it (its node name, NODE_NAME, unless wecom.replay.node overrides it); at its next start it marks its own RUNNING replays FAILED.';
COMMENT ON COLUMN reconcile_run.runner_node IS
    'Node running it (its node name, NODE_NAME, unless wecom.reconcile.node overrides it); taken over by another node when lease_until has passed.';
