package io.wecominbox.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import javax.transaction.xa.XAException;
import org.junit.jupiter.api.Test;

class RecoverablePgXaConnectionTest {

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
}
