package io.wecominbox.jdbc;

import java.sql.SQLException;
import javax.transaction.xa.XAException;
import javax.transaction.xa.Xid;
import org.postgresql.core.BaseConnection;
import org.postgresql.xa.PGXAConnection;

/**
 * One XA branch on PostgreSQL, with the error the driver gives for a server shutdown corrected.
 *
 * <p>When PostgreSQL is restarted (fast shutdown) while a COMMIT PREPARED runs, the session ends with
 * SQLState 57P01 (admin_shutdown) and the prepared transaction stays prepared. The driver (42.7) reports
 * XAER_RMFAIL only for SQLState class 08 and XAER_RMERR for everything else, and XAER_RMERR on commit tells
 * the transaction manager that this branch has been rolled back: it stops trying, the other branches (the
 * broker's) commit, and the prepared PostgreSQL branch is later rolled back by recovery. Found by the
 * end-to-end suite: a welcome sent and its message consumed, but its welcome_send_log and dedup rows gone.
 * XAER_RMFAIL makes Liberty retry the commit until the server is back, as it must.
 */
public class RecoverablePgXaConnection extends PGXAConnection {

    public RecoverablePgXaConnection(BaseConnection connection) throws SQLException {
        super(connection);
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        try {
            super.commit(xid, onePhase);
        } catch (XAException e) {
            throw asRetryableIfServerWentAway(e);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        try {
            super.rollback(xid);
        } catch (XAException e) {
            throw asRetryableIfServerWentAway(e);
        }
    }

    static XAException asRetryableIfServerWentAway(XAException e) {
        if (e.errorCode != XAException.XAER_RMERR || !serverWentAway(e.getCause())) {
            return e;
        }
        XAException retryable = new XAException(e.getMessage() + " (the server went away: retry later)");
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
}
