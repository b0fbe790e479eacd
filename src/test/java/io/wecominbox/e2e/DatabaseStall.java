package io.wecominbox.e2e;

import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Blocks inserts into callback_log for a while, as a DBA's long lock or a stuck migration would: the ingest
 * gives up after its lock timeout (1.5 s) and answers 503, so WeCom re-sends. Reads stay possible.
 */
final class DatabaseStall {

    private DatabaseStall() {
    }

    static void blockCallbackInserts(Duration duration) throws SQLException {
        try (Connection db = StackEnv.openDatabase()) {
            db.setAutoCommit(false);
            try (Statement lock = db.createStatement()) {
                // conflicts with INSERT's ROW EXCLUSIVE, not with SELECT's ACCESS SHARE
                lock.execute("LOCK TABLE callback_log IN SHARE ROW EXCLUSIVE MODE");
            }
            Poll.sleep(duration.toMillis());
            db.rollback();
        }
    }
}
