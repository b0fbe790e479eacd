package io.wecominbox.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.e2e.EffectAudit;
import io.wecominbox.e2e.Effects;
import io.wecominbox.e2e.EventFeed;
import io.wecominbox.e2e.EventMix;
import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.ChildProcess;
import io.wecominbox.testsupport.FakeWeCom;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.SkipOutsideCi;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import io.wecominbox.testsupport.StackScripts;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * kill -9 of the primary broker of the shared-store pair mid-burst, one Liberty node, WeCom played by the
 * simulator (signed callbacks, its re-sends, its API): the backup takes the journal over, the connection
 * factories, the message-driven beans and the publication relay find it by themselves (server.xml lists both
 * brokers), and every acknowledged delivery's effects exist exactly once. The kill is aimed at a two-phase
 * commit (the broker frozen while PostgreSQL holds a prepared branch): the broker's prepared branch lives in the
 * shared journal and the transaction manager completes it against the backup. Then the primary starts again
 * (failback) and the same effects are still there, once. Leaves the primary live on BROKER_PORT, no backup.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
class BrokerFailoverIT {

    private static final String PREPARED_HERE =
        "SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database()";
    /** The consumers reconnect at most this far apart (server.xml, maxRetryInterval of the activation specs). */
    private static final Duration CATCH_UP = Duration.ofSeconds(10);

    private static final LibertyProcess LIBERTY = new LibertyProcess();

    @BeforeAll
    static void startBackupAndServer() throws Exception {
        SkipOutsideCi.assumeOrFailInCi(StackScripts.stackOwnsBroker(),
            "the broker is not one the stack started: it may not be killed");
        StackScripts.run("artemis.sh", "start-backup");
        LIBERTY.installApplication();
        LIBERTY.start();
    }

    @AfterAll
    static void leaveThePrimaryLive() throws Exception {
        try {
            LIBERTY.stop();
            LIBERTY.removeApplication();
        } finally {
            // the suites after this one use the broker on BROKER_PORT: the primary, alone, as before
            StackScripts.run("artemis.sh", "start");
            StackScripts.run("artemis.sh", "stop-backup");
        }
    }

    @Test
    void theBackupTakesOverAKilledPrimaryMidBurstWithNothingLostOrDoubledAndThePrimaryTakesItBack() throws Exception {
        String host = StackEnv.get("BROKER_HOST", "127.0.0.1");
        int primaryPort = Integer.parseInt(StackEnv.get("BROKER_PORT", "61616"));
        try (WeComSimulator sim = simulator(0.25)) { // WeCom's late retry (~21 s) outlasts the failover
            EventFeed feed = new EventFeed(sim, new EventMix("f" + System.nanoTime(), 0.0, 23), 150, 10).start();
            Poll.sleep(4000);

            // the kill: preferably while PostgreSQL holds a prepared branch (the broker frozen in that moment)
            long[] killedAt = {0};
            long inDoubtPgAtKill = killPrimaryInDoubt(Duration.ofSeconds(5), killedAt);
            Instant killed = Instant.now();
            long dispositionsAtKill = Sql.count("SELECT count(*) FROM handler_disposition");
            boolean tookOver = Poll.until(Duration.ofSeconds(60),
                () -> BrokerConsole.accepts(host, BrokerConsole.backupPort()));
            double failoverSeconds = secondsSince(killedAt[0]);
            assertTrue(tookOver, "the backup did not open BROKER_BACKUP_PORT; see target/stack/logs/artemis-backup.log");
            assertTrue(!BrokerConsole.accepts(host, primaryPort), "the primary is gone");
            long brokerPreparedAtTakeover = preparedOnLiveBroker();
            // the consumers work on the backup: new dispositions after the kill
            boolean resumed = Poll.until(Duration.ofSeconds(60),
                () -> Sql.count("SELECT count(*) FROM handler_disposition") > dispositionsAtKill);
            double resumedSeconds = secondsSince(killedAt[0]);
            // Bound on expired welcomes: the failover (the backup takes the journal, every consumer reconnects,
            // at most 10 s apart: server.xml maxRetryInterval) can come near a code's 20 s, so a code valid
            // during it may expire; one issued after the consumers were back may not.
            List<Effects.Outage> failover = List.of(new Effects.Outage("primary killed until the handlers resumed",
                killed, Instant.now().plus(CATCH_UP)));

            List<EventFeed.Sent> sent = feed.awaitDeliveries(sim.longestDelivery().plusSeconds(60));
            Effects onBackup = EffectAudit.settled("broker-failover", sim, sent);
            // before the failback: what the backup's journal held prepared is completed against the backup
            boolean recovered = Poll.until(Duration.ofSeconds(90),
                () -> Sql.count(PREPARED_HERE) == 0 && BrokerConsole.preparedTransactions() == 0);
            double recoveredSeconds = secondsSince(killedAt[0]);

            // failback: the primary takes the journal back; the effects are the same, once
            long failbackStarted = System.nanoTime();
            Instant failbackFrom = Instant.now();
            StackScripts.run("artemis.sh", "start");
            double failbackSeconds = secondsSince(failbackStarted);
            List<Effects.Outage> bothSwitches = List.of(failover.get(0),
                new Effects.Outage("failback", failbackFrom, Instant.now().plus(CATCH_UP)));
            Poll.sleep(5000); // room for a duplicate to show after the second switch
            Effects afterFailback = EffectAudit.audit("broker-failback", sim, sent);

            long acknowledged = sent.stream()
                .filter(s -> s.outcome().getNow(null) != null && s.outcome().getNow(null).acknowledged()).count();
            System.out.println(onBackup.summaryLine());
            System.out.println(afterFailback.summaryLine());
            System.out.printf("broker failover summary: events=%d acknowledged=%d effects=%d duplicated=%d lost=%d "
                    + "failoverSeconds=%.1f handlersResumedSeconds=%.1f inDoubtAtKill(pg)=%d "
                    + "brokerPreparedAtTakeover=%d inDoubtResolvedSeconds=%.1f failbackSeconds=%.1f "
                    + "afterFailback(effects=%d duplicated=%d lost=%d)%n",
                sent.size(), acknowledged, onBackup.effects(), onBackup.duplicates().size(), onBackup.missing().size(),
                failoverSeconds, resumedSeconds, inDoubtPgAtKill, brokerPreparedAtTakeover,
                recoveredSeconds, failbackSeconds, afterFailback.effects(), afterFailback.duplicates().size(),
                afterFailback.missing().size());
            onBackup.duplicates().stream().limit(20).forEach(d -> System.out.println("  duplicate: " + d));
            onBackup.missing().stream().limit(20).forEach(m -> System.out.println("  missing: " + m));

            assertTrue(resumed, "no handler committed anything on the backup");
            assertEquals(List.of(), onBackup.duplicates().stream().limit(10).toList(), "duplicate effects");
            assertEquals(List.of(), onBackup.missing().stream().limit(10).toList(), "lost effects");
            assertTrue(onBackup.welcomesExpected() > 0 && onBackup.crmExpected() > 0 && onBackup.botExpected() > 0
                    && onBackup.contactExpected() > 0 && onBackup.conversationExpected() > 0,
                "the mix reached every counted handler");
            assertEquals(List.of(), onBackup.expiredUnexplainedBy(failover).stream().limit(10).toList(),
                "welcomes expired though the failover did not touch their code's 20 s (" + onBackup.welcomesExpired()
                    + " expired; codes valid during it: " + onBackup.welcomesAtRisk(failover) + ")");
            assertTrue(recovered, "in doubt after the failover: pg=" + Sql.count(PREPARED_HERE)
                + " broker=" + BrokerConsole.preparedTransactions());
            assertTrue(inDoubtPgAtKill > 0 || brokerPreparedAtTakeover > 0,
                "nothing was in doubt at the kill: this run proves nothing about in-flight XA");
            assertEquals(onBackup.effects(), afterFailback.effects(), "failback changed the effects");
            assertEquals(List.of(), afterFailback.duplicates().stream().limit(10).toList(), "duplicates after failback");
            assertEquals(List.of(), afterFailback.missing().stream().limit(10).toList(), "lost after failback");
            assertEquals(List.of(), afterFailback.expiredUnexplainedBy(bothSwitches).stream().limit(10).toList(),
                "welcomes expired after the failback though neither switch touched their code's 20 s");
            assertTrue(BrokerConsole.accepts(host, primaryPort), "the primary is live again");
        }
    }

    /**
     * Freezes the primary broker (SIGSTOP of its process group) and looks for a prepared PostgreSQL branch; kills
     * it frozen when there is one, else lets it go on for a moment and looks again; kills it anyway at the end.
     * Returns the prepared PostgreSQL branches it saw at the kill (0: none found in time); {@code killedAt} gets
     * the moment of the kill.
     */
    private static long killPrimaryInDoubt(Duration within, long[] killedAt) throws Exception {
        String group = "-" + Files.readString(StackEnv.buildDir().resolve("stack/pids/artemis.pid")).trim();
        long deadline = System.nanoTime() + within.toNanos();
        long found = 0;
        while (found == 0 && System.nanoTime() < deadline) {
            signal("-STOP", group);
            found = Sql.count(PREPARED_HERE);
            if (found == 0) {
                signal("-CONT", group);
                Poll.sleep(ThreadLocalRandom.current().nextInt(20, 100));
            }
        }
        killedAt[0] = System.nanoTime();
        signal("-KILL", group); // SIGKILL also ends a stopped process
        StackScripts.run("artemis.sh", "kill-primary"); // and the script forgets its pid
        return found;
    }

    private static void signal(String signal, String processGroup) throws Exception {
        Process kill = ChildProcess.sharingOutput("kill", signal, "--", processGroup).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill " + signal + " " + processGroup + " failed");
        }
    }

    /** Prepared transactions in the journal, as the live (backup) broker's console shows them once it answers. */
    private static long preparedOnLiveBroker() {
        long[] prepared = {-1};
        boolean answered = Poll.until(Duration.ofSeconds(30), () -> {
            try {
                prepared[0] = BrokerConsole.preparedTransactions();
                return true;
            } catch (IllegalStateException notYet) {
                return false;
            }
        });
        // unanswered, "nothing prepared in the broker" would be a guess; the in-doubt check below counts on it
        assertTrue(answered, "the backup's console did not answer within 30 s of the takeover; see "
            + "target/stack/logs/artemis-backup.log");
        return prepared[0];
    }

    /** The simulator on the API port the server calls; retry gaps multiplied by {@code timeScale}. */
    private static WeComSimulator simulator(double timeScale) {
        SimulatorConfig config = SimulatorConfig.from(new Properties(),
            new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        return WeComSimulator.builder().config(config).apiPort(FakeWeCom.apiPort())
            .timeScale(timeScale).callbackBase(URI.create(StackEnv.baseUrl() + "/wecom/callback")).build().start();
    }

    private static double secondsSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e9;
    }
}
