-- V70: the transaction manager's recovery logs live in PostgreSQL (issue 16), so that any node of the recovery
-- group can finish the in-doubt transactions of a node that died. Open Liberty creates and owns the tables
-- (WAS_TRAN_LOG<identity>, WAS_PARTNER_LOG<identity>, WAS_LEASES_LOG) in this schema at its first start;
-- their names depend on each node's recovery identity, so no migration declares them. Never edit or delete
-- their rows by hand while a node may be in doubt: they are the only record of prepared transactions.

CREATE SCHEMA IF NOT EXISTS wecom_tranlog;

COMMENT ON SCHEMA wecom_tranlog IS
    'Open Liberty''s transaction recovery logs and the recovery group''s leases (tables created by the server; '
    'server.xml dataSource tranlogDb). Read-only for people: they decide which prepared XA branches commit.';
