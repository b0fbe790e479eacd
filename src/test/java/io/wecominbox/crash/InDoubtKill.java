package io.wecominbox.crash;

import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.Sql;
import java.time.Duration;

/** The crash tests' kill: kill -9 at the first sight of a prepared (in-doubt) branch in this database. */
final class InDoubtKill {

    /** Transactions prepared in the test database and not yet committed or rolled back. */
    static final String PREPARED_HERE =
            "SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database()";

    private InDoubtKill() {
    }

    /** Kills at the first sight of a prepared branch, or after 3 s anyway. */
    static void killPreferablyInDoubt(LibertyProcess liberty) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() < deadline && Sql.count(PREPARED_HERE) == 0) {
            Thread.onSpinWait();
        }
        liberty.kill();
    }
}
