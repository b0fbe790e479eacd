package io.wecominbox.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.FakeWeCom;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import io.wecominbox.testsupport.StackScripts;
import jakarta.json.JsonObject;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Exactly-once end to end on the real stack: Liberty as a real process, PostgreSQL, Artemis, Redis, and the
 * WeCom simulator on both sides (its platform posts signed callbacks with WeCom's re-sends, its fake API is
 * the app's WECOM_API_BASE_URL). Each case counts effects where they happen (see {@link Effects} for what
 * counts as duplicate or missing), prints one summary line and fails on any duplicate or missing effect.
 * Runs after Arquillian's tests (failsafe execution crash-tests): it starts, freezes and kills the server.
 * WeCom's retry gaps are shortened by the simulator's time scale; the ACK timeout (5 s) and the welcome
 * code's 20 s are real time. The cases run in any order: each starts from a running server and leaves one.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
class ExactlyOnceE2EIT {

    private static final String PREPARED_HERE =
        "SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database()";

    /** Handlers with a dedup record (the others' effect is an upsert that a replay repeats harmlessly). */
    private static final List<String> DEDUP_HANDLERS = List.of("welcome", "crm", "bot");

    private static final LibertyProcess LIBERTY = new LibertyProcess();

    @BeforeAll
    static void startServer() throws Exception {
        LIBERTY.installApplication();
        LIBERTY.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        LIBERTY.stop();
        LIBERTY.removeApplication();
    }

    @Test
    void everyDuplicateSourceAtOnceAndAReplayStillGiveOneWelcomePerCodeOneCrmMessagePerEventAndOneReplyPerMessage()
            throws Exception {
        try (WeComSimulator sim = simulator(0.1)) {
            sim.lostAckRate(0.08);
            sim.slowAckPretendRate(0.04);
            EventFeed feed = new EventFeed(sim, new EventMix("a" + System.nanoTime(), 0.15, 11), 120, 10).start();
            Poll.sleep(2000);
            DatabaseStall.blockCallbackInserts(Duration.ofMillis(2500)); // the ingest answers 503
            Poll.sleep(1000);
            LIBERTY.freeze(Duration.ofMillis(6500)); // answers later than WeCom's 5 s: real slow ACKs
            List<EventFeed.Sent> sent = feed.awaitDeliveries(sim.longestDelivery().plusSeconds(30));
            sim.lostAckRate(0);
            sim.slowAckPretendRate(0);

            Effects before = EffectAudit.settled("a:duplicate-sources", sim, sent);
            assertExactlyOnce(before);

            // an operator replays the whole batch through dedup: nothing may happen again
            List<String> keys = EffectAudit.eventKeys(sent);
            JsonObject replay = ReplayClient.replayAndWait(keys, List.of(), null, Duration.ofSeconds(120));
            long replayEffects = ReplayClient.outcome(replay, DEDUP_HANDLERS, "effects");
            Poll.sleep(3000); // room for a late effect of the replay to show
            Effects effects = EffectAudit.audit("a:duplicate-sources", sim, sent)
                .with("replayedMessages", replay.getInt("done"))
                .with("replayDuplicates", ReplayClient.outcome(replay, DEDUP_HANDLERS, "duplicates"))
                .with("replayEffects", replayEffects);

            // and once more with a batch id to crm and bot: exactly one more of each. Not for the chaos-marked
            // events: the switch fails the re-run's first attempt after its reply went out too, and a re-run
            // sends without WeCom's duplicate check (it must really send again), so that reply would go out
            // twice: the re-run's crash window, documented as open (docs/handlers-welcome-contact-bot.md).
            List<EventFeed.Sent> unmarked = sent.stream()
                .filter(s -> !s.event().xml().contains(EventMix.CHAOS_MARKER)).toList();
            String batch = "e2e-" + System.currentTimeMillis();
            ReplayClient.replayAndWait(EffectAudit.eventKeys(unmarked), List.of("crm", "bot"), batch,
                Duration.ofSeconds(120));
            Poll.sleep(3000);
            EffectAudit.Rerun rerun = EffectAudit.auditRerun(sim, unmarked, batch);
            effects = effects.with("batchRerun", "crm+" + rerun.crmMessages() + "/" + rerun.crmExpected()
                + ",bot+" + rerun.botReplies() + "/" + rerun.botExpected());
            report(effects);
            rerun.duplicates().stream().limit(20).forEach(d -> System.out.println("  duplicate: " + d));
            rerun.missing().stream().limit(20).forEach(m -> System.out.println("  missing: " + m));

            assertEquals(before.effects(), effects.effects(), "the replay without a batch id added no effect");
            assertEquals(0, replayEffects, "the replay's own outcomes: no welcome, crm or bot effect ran again");
            assertExactlyOnce(effects);
            assertEquals(List.of(), rerun.duplicates().stream().limit(10).toList(), "re-run duplicates");
            assertEquals(List.of(), rerun.missing().stream().limit(10).toList(), "re-run missing");
            assertTrue(effects.deliveries().timeouts() > 0, "the frozen server answered some deliveries too late");
            assertTrue(effects.deliveries().httpErrors() > 0, "the stalled database made the ingest answer 5xx");
            assertTrue(effects.deliveries().lostAcks() > 0, "some ACKs were lost");
            assertTrue(effects.redeliveries() > 0, "the chaos switch made JMS redeliver");
            assertTrue(effects.duplicatesAbsorbed() > 0, "the handlers saw duplicates and absorbed them");
        }
    }

    @Test
    void aBrokerRestartAndADatabaseRestartMidRunLeaveTheSameEffectsAfterRecovery() throws Exception {
        assumeTrue(StackScripts.stackOwnsBroker(), "the broker is not one the stack started: it may not be restarted");
        assumeTrue(StackScripts.exitCode("postgres.sh", "can-restart") == 0,
            "postgres.sh will not restart this database (reason above)");
        try (WeComSimulator sim = simulator(0.25)) { // the late retry (~21 s) outlasts each outage
            EventFeed feed = new EventFeed(sim, new EventMix("c" + System.nanoTime(), 0.1, 13), 150, 6).start();
            Poll.sleep(3000);
            StackScripts.run("artemis.sh", "stop");
            Poll.sleep(2000);
            StackScripts.run("artemis.sh", "start");
            Poll.sleep(4000);
            long databaseRestart = System.nanoTime();
            assertEquals(0, StackScripts.exitCode("postgres.sh", "restart"), "postgres.sh restart failed");
            long databaseDownMillis = Duration.ofNanos(System.nanoTime() - databaseRestart).toMillis();
            List<EventFeed.Sent> sent = feed.awaitDeliveries(sim.longestDelivery().plusSeconds(60));

            Effects effects = EffectAudit.settled("c:broker+database-restart", sim, sent)
                .with("databaseRestartMillis", databaseDownMillis);
            report(effects);
            assertExactlyOnce(effects);
            assertNothingInDoubt();
            // No count of 5xx to expect any more: callbacks wait in callback_log for the broker and, while the
            // broker is up, in the broker for the database (issue 12); a commit caught by the shutdown may
            // still be answered 503, which WeCom re-sends (assertExactlyOnce holds either way).
        }
    }

    @Test
    void aKillDuringInFlightWorkLosesAndDoublesNothingAndRecoversEveryInDoubtTransaction() throws Exception {
        // real time: the late retry (~84-90 s) outlasts the restart, which took 40-70 s on a loaded 2-core machine
        // (at 0.5, ~42 s, WeCom gave up on events before the server was back, and the case failed for that)
        try (WeComSimulator sim = simulator(1.0)) {
            EventFeed feed = new EventFeed(sim, new EventMix("b" + System.nanoTime(), 0.1, 17), 100, 10).start();
            Poll.sleep(3000);
            // within 6 s, while the feed still runs
            boolean killedInDoubt = LIBERTY.killInDoubt(Duration.ofSeconds(6), () -> Sql.count(PREPARED_HERE) > 0);
            long inDoubtPg = Sql.count(PREPARED_HERE);
            long inDoubtBroker = BrokerConsole.preparedTransactions();

            long restarted = System.nanoTime();
            LIBERTY.start();
            boolean recovered = Poll.until(Duration.ofSeconds(180),
                () -> Sql.count(PREPARED_HERE) == 0 && BrokerConsole.preparedTransactions() == 0);
            long recoveredInSeconds = Duration.ofNanos(System.nanoTime() - restarted).toSeconds();
            List<EventFeed.Sent> sent = feed.awaitDeliveries(sim.longestDelivery().plusSeconds(60));

            Effects effects = EffectAudit.settled("b:kill-9", sim, sent).with("inDoubtAtKill(pg)", inDoubtPg)
                .with("inDoubtAtKill(broker)", inDoubtBroker).with("recoveredInSeconds", recoveredInSeconds);
            report(effects);
            // without a branch in doubt at the kill this case would prove nothing about recovery
            assertTrue(killedInDoubt && inDoubtPg > 0, "the kill found a prepared transaction: pg=" + inDoubtPg
                + " broker=" + inDoubtBroker);
            assertTrue(recovered, "in-doubt transactions left: pg=" + Sql.count(PREPARED_HERE)
                + " broker=" + BrokerConsole.preparedTransactions());
            assertExactlyOnce(effects);
            assertNothingInDoubt();
        }
    }

    /** The simulator for one case, on the API port the server calls; retry gaps multiplied by {@code timeScale}. */
    private static WeComSimulator simulator(double timeScale) {
        SimulatorConfig config = SimulatorConfig.from(new Properties(),
            new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        return WeComSimulator.builder().config(config).apiPort(FakeWeCom.apiPort()).timeScale(timeScale)
            .callbackBase(URI.create(StackEnv.baseUrl() + "/wecom/callback")).build().start();
    }

    private static void report(Effects effects) {
        System.out.println(effects.summaryLine());
        effects.duplicates().stream().limit(20).forEach(d -> System.out.println("  duplicate: " + d));
        effects.missing().stream().limit(20).forEach(m -> System.out.println("  missing: " + m));
    }

    private static void assertExactlyOnce(Effects effects) {
        assertEquals(List.of(), effects.duplicates().stream().limit(10).toList(), "duplicate effects");
        assertEquals(List.of(), effects.missing().stream().limit(10).toList(), "missing effects");
        assertTrue(effects.welcomesExpected() > 0 && effects.crmExpected() > 0 && effects.botExpected() > 0,
            "the mix reached every counted handler");
    }

    private static void assertNothingInDoubt() {
        assertEquals(0, Sql.count(PREPARED_HERE), "prepared PostgreSQL transactions");
        assertEquals(0, BrokerConsole.preparedTransactions(), "prepared broker transactions");
    }
}
