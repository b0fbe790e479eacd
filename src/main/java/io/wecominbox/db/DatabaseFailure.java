package io.wecominbox.db;

import java.sql.SQLException;

/**
 * The one shape of a database error that its caller cannot handle there: "{what} failed ({SQLState})", the
 * SQLException as the cause. The SQLState says what kind of failure it was without the statement's values,
 * which may be customers' identifiers.
 */
public final class DatabaseFailure {

    private DatabaseFailure() {
    }

    public static IllegalStateException of(String what, SQLException e) {
        return new IllegalStateException(what + " failed (" + e.getSQLState() + ")", e);
    }
}
