package io.wecominbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.Test;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * The error codes Liberty's transaction manager receives from a PostgreSQL branch, call by call. The real
 * driver code (pgjdbc 42.7) runs against a scripted session instead of a server: each test says which
 * statement fails with which SQLState, as PostgreSQL would report it.
 */
class RecoverablePgXaConnectionTest {

    private static final Xid XID = new TestXid(1);

    // ---- the mapping functions ----

    private static XAException driverError(int errorCode, String sqlState) {
        XAException e = new XAException("Error committing prepared transaction");
        e.errorCode = errorCode;
        e.initCause(new SQLException("FATAL: terminating connection due to administrator command", sqlState));
        return e;
    }

    @Test
    void aServerShutdownDuringCommitBecomesRetryable() {
        XAException mapped = RecoverablePgXaConnection.asRetryableIfServerWentAway(
            driverError(XAException.XAER_RMERR, "57P01"));
        assertEquals(XAException.XAER_RMFAIL, mapped.errorCode);
    }

    @Test
    void aLostConnectionDuringCommitBecomesRetryable() {
        assertEquals(XAException.XAER_RMFAIL, RecoverablePgXaConnection.asRetryableIfServerWentAway(
            driverError(XAException.XAER_RMERR, "08006")).errorCode);
    }

    @Test
    void otherDatabaseErrorsKeepTheDriversCode() {
        XAException original = driverError(XAException.XAER_RMERR, "42704");
        assertSame(original, RecoverablePgXaConnection.asRetryableIfServerWentAway(original));
    }

    @Test
    void anUnknownTransactionStaysUnknown() {
        XAException original = driverError(XAException.XAER_NOTA, "57P01");
        assertSame(original, RecoverablePgXaConnection.asRetryableIfServerWentAway(original));
    }

    @Test
    void aSecondPhaseErrorWithoutADatabaseCauseKeepsTheDriversCode() {
        XAException misuse = new XAException(XAException.XAER_RMERR);
        assertSame(misuse, RecoverablePgXaConnection.asRetryableWhileStillPrepared(misuse));
    }

    // ---- commit, second phase (COMMIT PREPARED on a fresh session, as Liberty's retry and recovery do) ----

    @Test
    void aShutdownDuringCommitPreparedIsRetried() {
        assertEquals(XAException.XAER_RMFAIL, commitPreparedFailingWith(fatal("57P01")));
    }

    @Test
    void aLostConnectionDuringCommitPreparedIsRetried() {
        assertEquals(XAException.XAER_RMFAIL, commitPreparedFailingWith(error("08006")));
    }

    @Test
    void aBusyPreparedTransactionIsCommittedLater() {
        // another session holds it (55000): it is still prepared, and XAER_RMERR would make Liberty forget it
        assertEquals(XAException.XAER_RMFAIL, commitPreparedFailingWith(error("55000")));
    }

    @Test
    void aCancelledCommitPreparedIsRetried() {
        assertEquals(XAException.XAER_RMFAIL, commitPreparedFailingWith(error("57014")));
    }

    @Test
    void aCommitOfAPreparedTransactionThatIsGoneIsNota() {
        // already committed (the first attempt got through before the session died): nothing left to do
        assertEquals(XAException.XAER_NOTA, commitPreparedFailingWith(error("42704")));
    }

    @Test
    void aBranchThatVanishedUnderTheSessionThatPreparedItKeepsTheDriversRmerr() throws Exception {
        Session session = new Session();
        RecoverablePgXaConnection branch = session.branch();
        branch.start(XID, XAResource.TMNOFLAGS);
        branch.end(XID, XAResource.TMSUCCESS);
        assertEquals(XAResource.XA_OK, branch.prepare(XID));
        session.failOn("COMMIT PREPARED", error("42704"));
        // nothing is left prepared, and the driver's "heuristic" report is kept
        assertEquals(XAException.XAER_RMERR, assertThrows(XAException.class, () -> branch.commit(XID, false)).errorCode);
    }

    // ---- rollback ----

    @Test
    void aBusyPreparedTransactionIsRolledBackLater() {
        assertEquals(XAException.XAER_RMFAIL, rollbackPreparedFailingWith(error("55000")));
    }

    @Test
    void aShutdownDuringRollbackPreparedIsRetried() {
        assertEquals(XAException.XAER_RMFAIL, rollbackPreparedFailingWith(fatal("57P01")));
    }

    @Test
    void aRollbackOfAPreparedTransactionThatIsGoneIsNota() {
        assertEquals(XAException.XAER_NOTA, rollbackPreparedFailingWith(error("42704")));
    }

    @Test
    void aRollbackOfAnUnpreparedBranchOnAClosedSessionIsRetryable() throws Exception {
        Session session = new Session();
        RecoverablePgXaConnection branch = session.branch();
        branch.start(XID, XAResource.TMNOFLAGS);
        branch.end(XID, XAResource.TMSUCCESS);
        session.failOn("ROLLBACK", error("08003"));
        // not prepared: Liberty takes XAER_RMFAIL here as rolled back (the server ends the session's work)
        assertEquals(XAException.XAER_RMFAIL, assertThrows(XAException.class, () -> branch.rollback(XID)).errorCode);
    }

    // ---- prepare, start, end, recover: what the transaction manager gets, unchanged by this class ----

    @Test
    void aShutdownDuringPrepareIsAlreadyRetryableAndTheRetryRollsBackWhatMayBePrepared() throws Exception {
        Session session = new Session();
        RecoverablePgXaConnection branch = session.branch();
        branch.start(XID, XAResource.TMNOFLAGS);
        branch.end(XID, XAResource.TMSUCCESS);
        session.failOn("PREPARE TRANSACTION", fatal("57P01"));
        // the server may have prepared it before it ended the session: the driver says XAER_RMFAIL, Liberty
        // marks the branch prepared-and-failed and rolls it back on a fresh session, where that is ROLLBACK
        // PREPARED (on the old session the driver would send a plain ROLLBACK: the branch is still current)
        assertEquals(XAException.XAER_RMFAIL, assertThrows(XAException.class, () -> branch.prepare(XID)).errorCode);

        Session fresh = new Session();
        fresh.branch().rollback(XID);
        assertTrue(fresh.sent.get(0).startsWith("ROLLBACK PREPARED '"), fresh.sent.toString());
    }

    @Test
    void afterAFailedPrepareTheSameSessionWouldOnlyRollBackTheOpenTransaction() throws Exception {
        // Why the fresh session above matters. pgjdbc 42.7.13+ keeps the xid current after a failed PREPARE, so
        // a rollback on the same XAResource sends a plain ROLLBACK, which leaves a branch that the server did
        // prepare in pg_prepared_xacts while reporting success. Liberty never does that: after XAER_RMFAIL or
        // XAER_RMERR from prepare it marks the resource FAILED (JTAXAResourceImpl.prepare,
        // RegisteredResources.prepareResource) and rollback() first calls reconnectRM() for a new XAResource
        // (issue 23: 06:29:23 reconnectRM failed with 57P03, the retry at 06:29:33 sent ROLLBACK PREPARED for
        // the same gid and got 42704, nothing had been prepared). Pinned here so that a driver or server
        // upgrade that changes either side shows up.
        Session session = new Session();
        RecoverablePgXaConnection branch = session.branch();
        branch.start(XID, XAResource.TMNOFLAGS);
        branch.end(XID, XAResource.TMSUCCESS);
        session.failOn("PREPARE TRANSACTION", fatal("57P01"));
        assertThrows(XAException.class, () -> branch.prepare(XID));

        branch.rollback(XID);
        assertEquals("ROLLBACK", session.sent.get(session.sent.size() - 1));
    }

    @Test
    void anIntegrityViolationAtPrepareVotesRollback() throws Exception {
        Session session = new Session();
        RecoverablePgXaConnection branch = session.branch();
        branch.start(XID, XAResource.TMNOFLAGS);
        branch.end(XID, XAResource.TMSUCCESS);
        session.failOn("PREPARE TRANSACTION", error("23505"));
        assertEquals(XAException.XA_RBINTEGRITY, assertThrows(XAException.class, () -> branch.prepare(XID)).errorCode);
    }

    @Test
    void aShutdownDuringOnePhaseCommitIsAlreadyRetryable() throws Exception {
        Session session = new Session();
        RecoverablePgXaConnection branch = session.branch();
        branch.start(XID, XAResource.TMNOFLAGS);
        branch.end(XID, XAResource.TMSUCCESS);
        session.failOn("COMMIT", fatal("57P01"));
        // never prepared: nothing can stay in pg_prepared_xacts, whatever the outcome
        assertEquals(XAException.XAER_RMFAIL, assertThrows(XAException.class, () -> branch.commit(XID, true)).errorCode);
    }

    @Test
    void aStartOnADeadSessionFailsBeforeAnythingIsPrepared() {
        Session session = new Session();
        session.failOn("BEGIN", fatal("57P01"));
        RecoverablePgXaConnection branch = session.branch();
        // Liberty refuses the enlistment for XAER_RMERR and XAER_RMFAIL alike (WTRN0078E): no branch exists
        assertEquals(XAException.XAER_RMERR,
            assertThrows(XAException.class, () -> branch.start(XID, XAResource.TMNOFLAGS)).errorCode);
        assertEquals(List.of("BEGIN"), session.sent);
    }

    @Test
    void endSendsNothingToTheServer() throws Exception {
        Session session = new Session();
        RecoverablePgXaConnection branch = session.branch();
        branch.start(XID, XAResource.TMNOFLAGS);
        session.failOn("", fatal("57P01")); // any statement from here on would fail
        branch.end(XID, XAResource.TMSUCCESS);
        assertEquals(List.of("BEGIN"), session.sent);
    }

    @Test
    void aRecoveryScanOnADeadSessionFails() {
        // Liberty's recovery retries the scan after any exception (XARecoveryData.recover returns false)
        Session session = new Session();
        session.failOn("SELECT gid FROM pg_prepared_xacts", fatal("57P01"));
        assertEquals(XAException.XAER_RMERR,
            assertThrows(XAException.class, () -> session.branch().recover(XAResource.TMSTARTRSCAN)).errorCode);
    }

    // ---- helpers ----

    private static int commitPreparedFailingWith(SQLException failure) {
        Session session = new Session();
        session.failOn("COMMIT PREPARED", failure);
        RecoverablePgXaConnection branch = session.branch();
        return assertThrows(XAException.class, () -> branch.commit(XID, false)).errorCode;
    }

    private static int rollbackPreparedFailingWith(SQLException failure) {
        Session session = new Session();
        session.failOn("ROLLBACK PREPARED", failure);
        RecoverablePgXaConnection branch = session.branch();
        return assertThrows(XAException.class, () -> branch.rollback(XID)).errorCode;
    }

    /** An error as PostgreSQL sends it (severity, SQLState, message), as the driver turns it into an exception. */
    private static SQLException fromServer(String severity, String sqlState) {
        return new PSQLException(new ServerErrorMessage(
            "S" + severity + "\0V" + severity + "\0C" + sqlState + "\0Mfailed for this test\0"));
    }

    private static SQLException fatal(String sqlState) {
        return fromServer("FATAL", sqlState);
    }

    private static SQLException error(String sqlState) {
        return fromServer("ERROR", sqlState);
    }

    /** A database session without a server: records what the driver sends, fails the scripted statements. */
    private static final class Session {
        final List<String> sent = new ArrayList<>();
        private final Map<String, SQLException> failures = new LinkedHashMap<>();

        void failOn(String statementPrefix, SQLException failure) {
            failures.put(statementPrefix, failure);
        }

        RecoverablePgXaConnection branch() {
            BaseConnection connection = (BaseConnection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {BaseConnection.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "execSQLUpdate", "execSQLQuery" -> {
                        String sql = (String) args[0];
                        sent.add(sql);
                        for (Map.Entry<String, SQLException> f : failures.entrySet()) {
                            if (sql.startsWith(f.getKey())) {
                                throw f.getValue();
                            }
                        }
                        if (method.getName().equals("execSQLQuery")) {
                            throw new UnsupportedOperationException("no result sets in this test: " + sql);
                        }
                        yield null;
                    }
                    case "getTransactionState" -> TransactionState.IDLE;
                    case "isReadOnly" -> false;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "scripted session";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
            try {
                return new RecoverablePgXaConnection(connection);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private record TestXid(int n) implements Xid {
        @Override
        public int getFormatId() {
            return 0x57434f4d;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return ("gtrid-" + n).getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public byte[] getBranchQualifier() {
            return ("bqual-" + n).getBytes(StandardCharsets.US_ASCII);
        }
    }
}
