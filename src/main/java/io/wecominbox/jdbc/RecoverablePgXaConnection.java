package io.wecominbox.jdbc;

import java.sql.SQLException;
import javax.transaction.xa.XAException;
import javax.transaction.xa.Xid;
import org.postgresql.core.BaseConnection;
import org.postgresql.xa.PGXAConnection;

/**
 * One XA branch on PostgreSQL, with the error codes of the second phase corrected.
 *
 * <p>When PostgreSQL is restarted (fast shutdown) while a COMMIT PREPARED runs, the session ends with
 * SQLState 57P01 (admin_shutdown) and the prepared transaction stays prepared. The driver (42.7) reports
 * XAER_RMFAIL only for SQLState class 08 and XAER_RMERR for everything else, and XAER_RMERR on commit tells
 * the transaction manager that this branch has been rolled back: it stops trying, the other branches (the
 * broker's) commit, and the prepared PostgreSQL branch is later rolled back by recovery. Found by the
 * end-to-end suite: a welcome sent and its message consumed, but its welcome_send_log and dedup rows gone.
 * XAER_RMFAIL makes Liberty retry the commit until the server is back, as it must.
 *
 * <p>The same holds for every other failure of COMMIT PREPARED and ROLLBACK PREPARED: PostgreSQL finishes a
 * prepared transaction atomically, so after any error but "no such prepared transaction" (42704) the branch
 * is still prepared, holding its locks (a second session finishing it: 55000 "is busy"; a cancel: 57014; out
 * of memory: 53200 ...). Liberty (RegisteredResources.deliverOutcome) treats XAER_RMERR from commit or
 * rollback as final, marks the branch rolled back and never calls it again, and with no log record left
 * nothing recovers it until the next restart. Those failures are reported as XAER_RMFAIL too: Liberty then
 * reconnects and retries (every heuristicRetryInterval, without limit by default) until PostgreSQL answers
 * with success or XAER_NOTA. PREPARE needs no correction: the driver already reports its failures as
 * XAER_RMFAIL, and Liberty rolls such a branch back on a fresh connection whatever the code.
 */
public class RecoverablePgXaConnection extends PGXAConnection {

    /** SQLState undefined_object: COMMIT/ROLLBACK PREPARED found no such prepared transaction. */
    private static final String NO_SUCH_PREPARED_TRANSACTION = "42704";

    public RecoverablePgXaConnection(BaseConnection connection) throws SQLException {
        super(connection);
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        try {
            super.commit(xid, onePhase);
        } catch (XAException e) {
            throw onePhase ? asRetryableIfServerWentAway(e) : asRetryableWhileStillPrepared(e);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        try {
            super.rollback(xid);
        } catch (XAException e) {
            throw asRetryableWhileStillPrepared(e);
        }
    }

    static XAException asRetryableIfServerWentAway(XAException e) {
        if (e.errorCode != XAException.XAER_RMERR || !serverWentAway(e.getCause())) {
            return e;
        }
        return retryable(e, "the server went away");
    }

    /**
     * XAER_RMERR caused by a statement PostgreSQL refused or did not finish, other than "no such prepared
     * transaction", becomes XAER_RMFAIL: the branch is still there and must be finished later. XAER_RMERR
     * without a database error (a misuse of the connection) and 42704 (nothing left to finish) stay as the
     * driver reports them.
     */
    static XAException asRetryableWhileStillPrepared(XAException e) {
        if (e.errorCode != XAException.XAER_RMERR) {
            return e;
        }
        SQLException cause = firstSqlException(e.getCause());
        if (cause == null || NO_SUCH_PREPARED_TRANSACTION.equals(cause.getSQLState())) {
            return e;
        }
        return retryable(e, "SQLState " + cause.getSQLState() + ": the branch may still be prepared");
    }

    private static XAException retryable(XAException e, String why) {
        XAException retryable = new XAException(e.getMessage() + " (" + why + ": retry later)");
        retryable.errorCode = XAException.XAER_RMFAIL;
        retryable.initCause(e);
        return retryable;
    }

    /** 57P01/02/03: admin or crash shutdown, cannot connect now; 08: connection exceptions. */
    static boolean serverWentAway(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("57P") || sql.getSQLState().startsWith("08"))) {
                return true;
            }
        }
        return false;
    }

    private static SQLException firstSqlException(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }
}
