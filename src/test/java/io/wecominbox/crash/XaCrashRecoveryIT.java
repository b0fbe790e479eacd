package io.wecominbox.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.InDoubt;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import java.time.Duration;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of Liberty under load, several times, while a two-phase commit is in doubt when one can be caught
 * (at least one kill must catch one), then a restart: the server itself must resolve every in-doubt branch, the sender's and
 * the message-driven bean's, and every committed probe must be consumed exactly once.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
class XaCrashRecoveryIT {

    private static final int ROUNDS = Integer.getInteger("crash.rounds", 4);
    private static final String PREPARED_HERE =
            "SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database()";

    private static final LibertyProcess LIBERTY = new LibertyProcess();

    @BeforeAll
    static void installApplication() throws Exception {
        LIBERTY.installApplication();
    }

    @AfterAll
    static void stopServer() throws Exception {
        LIBERTY.stop();
        LIBERTY.removeApplication();
    }

    @Test
    void afterRepeatedKillsEveryInDoubtBranchIsRecoveredAndEveryCommittedMessageIsConsumedExactlyOnce()
            throws Exception {
        String label = "crash-" + UUID.randomUUID();
        Set<Long> acknowledged = ProbeLoad.newAcknowledgedSet();
        Random random = new Random();
        int sent = 0;
        long inDoubtAtKills = 0;
        long brokerInDoubtAtKills = 0;
        int killsInDoubt = 0;

        for (int round = 1; round <= ROUNDS; round++) {
            LIBERTY.start();
            int before = acknowledged.size();
            try (ProbeLoad load = new ProbeLoad(6, label, acknowledged)) {
                // a fresh server answers its first requests slowly: kill only once the load flows
                assertTrue(Poll.until(Duration.ofSeconds(90), () -> acknowledged.size() >= before + 6),
                        "round " + round + ": the server acknowledges probes");
                Poll.sleep(random.nextInt(1500));
                // prepared since the hunt began: this round's own, not the last round's still recovering
                long hunt = InDoubt.databaseMillis();
                if (LIBERTY.killInDoubt(Duration.ofSeconds(20), () -> InDoubt.databaseSince(hunt) > 0)) {
                    killsInDoubt++;
                }
                sent += load.attempts();
                inDoubtAtKills += InDoubt.databaseSince(hunt);
            }
            brokerInDoubtAtKills += BrokerConsole.preparedTransactions();
        }

        long recoveryStarted = System.nanoTime();
        LIBERTY.start();
        boolean drained = Poll.until(Duration.ofSeconds(240), () ->
                Sql.count(PREPARED_HERE) == 0
                        && BrokerConsole.preparedTransactions() == 0
                        && Sql.count("SELECT count(*) FROM pipeline_probe p WHERE label = ? AND NOT EXISTS "
                        + "(SELECT 1 FROM pipeline_probe_receipt r WHERE r.probe_id = p.probe_id)", label) == 0);
        long recoverySeconds = Duration.ofNanos(System.nanoTime() - recoveryStarted).toSeconds();
        Poll.sleep(3000); // room for a duplicate delivery to show up

        long rows = Sql.count("SELECT count(*) FROM pipeline_probe WHERE label = ?", label);
        long consumedOnce = Sql.count("SELECT count(*) FROM pipeline_probe p WHERE label = ? AND "
                + "(SELECT count(*) FROM pipeline_probe_receipt r WHERE r.probe_id = p.probe_id) = 1", label);
        long duplicated = Sql.count("SELECT count(*) FROM pipeline_probe p WHERE label = ? AND "
                + "(SELECT count(*) FROM pipeline_probe_receipt r WHERE r.probe_id = p.probe_id) > 1", label);
        long orphanReceipts = Sql.count("SELECT count(*) FROM pipeline_probe_receipt r WHERE NOT EXISTS "
                + "(SELECT 1 FROM pipeline_probe p WHERE p.probe_id = r.probe_id)");
        long acknowledgedMissing = acknowledged.stream()
                .filter(id -> Sql.count("SELECT count(*) FROM pipeline_probe WHERE probe_id = ?", id) == 0)
                .count();

        System.out.printf("crash summary: rounds=%d requests=%d acknowledged=%d committed=%d consumedOnce=%d "
                        + "duplicated=%d orphanReceipts=%d killsInDoubt=%d inDoubtAtKills(pg)=%d "
                        + "inDoubtAtKills(broker)=%d recoveredInSeconds=%d%n",
                ROUNDS, sent, acknowledged.size(), rows, consumedOnce, duplicated, orphanReceipts, killsInDoubt,
                inDoubtAtKills, brokerInDoubtAtKills, recoverySeconds);

        // without a branch in doubt at some kill the test would pass without recovering anything
        assertTrue(killsInDoubt > 0 && inDoubtAtKills > 0, "a kill left a prepared PostgreSQL transaction to"
                + " recover (kills in doubt=" + killsInDoubt + ", pg=" + inDoubtAtKills + ", broker="
                + brokerInDoubtAtKills + ")");
        assertTrue(acknowledged.size() > 0, "the load had probes acknowledged, so 'none missing' means something");
        assertTrue(drained, "in-doubt branches left: pg=" + Sql.count(PREPARED_HERE)
                + " broker=" + BrokerConsole.preparedTransactions());
        assertEquals(0, acknowledgedMissing, "every acknowledged probe is committed");
        assertEquals(0, duplicated, "no committed message consumed twice");
        assertEquals(0, orphanReceipts, "no message without its row");
        assertEquals(rows, consumedOnce, "every committed probe consumed exactly once");
        assertTrue(rows > 0, "the load committed something");
    }
}
