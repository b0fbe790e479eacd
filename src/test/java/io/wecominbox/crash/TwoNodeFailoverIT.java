package io.wecominbox.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.e2e.EffectAudit;
import io.wecominbox.e2e.Effects;
import io.wecominbox.e2e.EventFeed;
import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.platform.DeliveryAttempt;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.FakeWeCom;
import io.wecominbox.testsupport.InDoubt;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.LoadBalancer;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import io.wecominbox.testsupport.StackScripts;
import io.wecominbox.testsupport.TransactionLogStall;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two Liberty nodes behind HAProxy (src/stack/nodes.sh, haproxy.sh), WeCom played by the simulator through
 * the load balancer with its real retry schedule: kill -9 of one node 2 s into a burst of welcome-bearing adds.
 * The survivor must take the callbacks at once, no welcome may go out twice, at least 95 % must go out (a code
 * lives 20 s: only those whose events the dead node held can miss it, and they are named), the survivor must
 * complete the dead node's in-doubt branches (peer recovery: nothing prepared left in PostgreSQL nor in the
 * broker, before any restart), and the killed node, restarted, must be routed to again. A second case kills
 * node 1 while it surely holds prepared branches (pipeline probes, found frozen) and has node 2 complete them.
 * Each case starts from both nodes up and leaves them so.
 */
@Tag("crash") // runs only in the crash-tests execution (pom.xml), never beside Arquillian's server
class TwoNodeFailoverIT {

    private static final int EVENTS = 200;
    private static final double PER_SECOND = 50;
    private static final String APP = "customer"; // the app with a welcome text (src/test/liberty)

    private static final LibertyProcess NODE1 = LibertyProcess.node(1);
    private static final LibertyProcess NODE2 = LibertyProcess.node(2);
    private static final LoadBalancer LB = new LoadBalancer();

    @BeforeAll
    static void startTwoNodesAndTheLoadBalancer() throws Exception {
        StackScripts.run("nodes.sh", "create", "2"); // links node 2's configuration (drop-ins too) to node 1's
        NODE1.installApplication(); // node 2 sees the same drop-in
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> launch(NODE2)); // both boot at once
        NODE1.launch();
        second.join();
        NODE1.awaitReady();
        NODE2.awaitReady();
        LB.start();
        assertTrue(Poll.until(Duration.ofSeconds(30),
                () -> LB.nodeStatus(1).equals("UP") && LB.nodeStatus(2).equals("UP")),
            "the load balancer sees both nodes UP: node1=" + LB.nodeStatus(1) + " node2=" + LB.nodeStatus(2));
    }

    private static void launch(LibertyProcess node) {
        try {
            node.launch();
        } catch (Exception e) {
            throw new IllegalStateException("could not start " + node.serverName(), e);
        }
    }

    @AfterAll
    static void stopEverything() throws Exception {
        LB.stop();
        NODE2.stop();
        NODE1.stop();
        NODE1.removeApplication();
    }

    @Test
    void killNineOfOneNodeMidBurstTheOtherAnswersAtOnceNoWelcomeGoesTwiceAndTheNodeRejoins() throws Exception {
        LibertyProcess victim = NODE1;
        int victimNumber = 1;
        try (WeComSimulator sim = simulator()) {
            Burst burst = new Burst(sim);
            boolean huntFound;
            long logWritesHeld;
            Instant killedAt;
            long goneAfterMs;
            long hunt;
            Set<String> preparedAtKill;
            long inDoubtBroker;
            Set<Long> probesAcknowledged = ProbeLoad.newAcknowledgedSet();
            // pipeline probes straight at the victim, node 1 (a database insert and a message in one XA
            // transaction, as XaCrashRecoveryIT sends): a welcome batch is prepared for a few milliseconds only,
            // and a kill that leaves nothing in doubt would not show peer recovery at work
            try (ProbeLoad probes = new ProbeLoad(3, "two-node-" + UUID.randomUUID(), probesAcknowledged)) {
                // a fresh server answers its first requests slowly: the burst starts once the probes flow
                assertTrue(Poll.until(Duration.ofSeconds(60), () -> probesAcknowledged.size() >= 6),
                    "node 1 acknowledges probes before the burst: " + probesAcknowledged.size() + " of 6");
                burst.thread.start();
                Poll.sleep(1000);
                // killed holding a prepared branch of its own 1-4 s into the 4 s burst: events keep coming after
                // the kill. Node 1's log writes are held back meanwhile, as a slow log disk would: its commits stop
                // between prepare and the logged decision, so its branches stay prepared while node 2's (its half
                // of the burst) complete within milliseconds, hence the attribution, looked at without freezing
                // node 1 (frozen looks on a loaded machine kept it stopped most of the hunt and met none of its
                // branches: "hunt found one=false"). The hunt counts from a second back: node 1's transactions
                // that prepared just before the stall wait at its log write too.
                hunt = InDoubt.databaseMillis() - 1000;
                try (TransactionLogStall slowLog = TransactionLogStall.of(victim.serverName())) {
                    huntFound = Poll.until(Duration.ofMillis(2500), () -> node1HoldsPreparedBranch(hunt));
                    logWritesHeld = slowLog.heldWrites();
                    victim.kill();
                }
                killedAt = victim.killedAt();
                goneAfterMs = Duration.between(killedAt, Instant.now()).toMillis();
                preparedAtKill = InDoubt.branchesSince(hunt);
                inDoubtBroker = BrokerConsole.preparedTransactions();
            }
            // node 2 completes what it prepared within milliseconds; the dead node's branches wait for peer
            // recovery (its lease lapses 10-15 s after the kill): what is still prepared 3 s on is node 1's
            boolean victimLeftInDoubt = !preparedAtKill.isEmpty() && Poll.holdsFor(Duration.ofSeconds(3),
                () -> !Collections.disjoint(preparedAtKill, InDoubt.branchesSince(hunt)));
            Set<String> stillPrepared = InDoubt.branchesSince(hunt);
            long inDoubtPg = preparedAtKill.stream().filter(stillPrepared::contains).count();
            burst.thread.join(TimeUnit.SECONDS.toMillis(30));
            List<SimEvent> events = burst.events();
            for (CompletableFuture<DeliveryOutcome> outcome : burst.outcomes()) {
                outcome.get(sim.longestDelivery().plusSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
            }
            // peer recovery: the survivor takes over the dead node's transaction log once its lease lapses and
            // completes its in-doubt branches (server.xml: lease 15 s, checked every 5 s), long before a restart
            boolean peerRecovered = Poll.until(Duration.ofSeconds(60), InDoubt::none);
            long peerRecoveredInSeconds = Duration.between(killedAt, Instant.now()).toSeconds();

            // the survivor's answers: every acknowledged attempt that started after the kill
            List<DeliveryAttempt> attempts = events.stream()
                .flatMap(e -> sim.deliveries().attempts(e.id()).stream()).toList();
            long acknowledged = burst.outcomes().stream().filter(o -> o.join().acknowledged()).count();
            List<DeliveryAttempt> answeredAfterKill = attempts.stream()
                .filter(a -> a.status().appAnsweredOk() && !a.sentAt().isBefore(killedAt)).toList();
            long fedAfterKill = events.stream().filter(e -> sim.deliveries().attempts(e.id()).stream()
                .allMatch(a -> !a.sentAt().isBefore(killedAt))).count();
            double survivorAnsweredWithinSeconds = answeredAfterKill.stream()
                .mapToLong(a -> Duration.between(killedAt, a.sentAt().plus(a.latency())).toMillis()).min()
                .orElse(-1000) / 1000.0;

            // welcomes, once every code has had its 20 s (a code the survivor can still use is used by then)
            Poll.sleep(Math.max(0, Duration.between(Instant.now(), burst.lastEventAt().plusSeconds(25)).toMillis()));
            Welcomes before = Welcomes.audit(sim, events, killedAt);
            // and every other effect, with the survivor alone: each delivery answered 200 has its callback_log
            // row, each add its crm message and its contact row, no welcome twice nor without its terminal row
            List<EventFeed.Sent> sent = burst.sent();
            Effects survivorAlone = EffectAudit.settled("two-node kill-node, survivor alone", sim, sent);

            long restarted = System.nanoTime();
            victim.start();
            boolean rejoined = Poll.until(Duration.ofSeconds(90), () -> LB.nodeStatus(victimNumber).equals("UP")
                && routesTo("node" + victimNumber));
            long rejoinedInSeconds = Duration.ofNanos(System.nanoTime() - restarted).toSeconds();
            // room for a late duplicate (the restarted node took its log back) to show: settled waits for it
            Effects afterRestart = EffectAudit.settled("two-node kill-node, after the restart", sim, sent);

            System.out.printf("two-node summary [kill-node]: events=%d fedAfterKill=%d acknowledged=%d "
                    + "answeredAfterKill=%d probesToVictim=%d killedAfterMs=%d goneAfterMs=%d lastEventAfterMs=%d "
                    + "welcomesSent=%d "
                    + "expired=%d notSent=%d duplicated=%d "
                    + "huntFound=%s logWritesHeld=%d victimLeftInDoubt=%s inDoubtAtKill(pg, node 1's)=%d "
                    + "preparedAtKill(pg)=%d "
                    + "inDoubtAtKill(broker)=%d peerRecoveredInSeconds=%s survivorAnsweredWithinSeconds=%.1f "
                    + "rejoinedInSeconds=%d welcomesSentAfterRestart=%d%n",
                events.size(), fedAfterKill, acknowledged, answeredAfterKill.size(), probesAcknowledged.size(),
                Duration.between(burst.startedAt(), killedAt).toMillis(), goneAfterMs,
                Duration.between(burst.startedAt(), burst.lastEventAt()).toMillis(),
                before.sent(), before.expired(),
                before.notSent().size(), afterRestart.duplicates().size(), huntFound, logWritesHeld,
                victimLeftInDoubt, inDoubtPg,
                preparedAtKill.size(), inDoubtBroker,
                peerRecovered ? Long.toString(peerRecoveredInSeconds) : "no", survivorAnsweredWithinSeconds,
                rejoinedInSeconds, afterRestart.welcomesSent());
            System.out.println(survivorAlone.summaryLine());
            System.out.println(afterRestart.summaryLine());
            before.notSent().forEach(code -> System.out.println("  not sent: " + code));
            survivorAlone.missing().stream().limit(20).forEach(m -> System.out.println("  missing: " + m));
            afterRestart.duplicates().stream().limit(20).forEach(d -> System.out.println("  duplicate: " + d));

            assertEquals(EVENTS, events.size(), "the whole burst went out");
            assertTrue(fedAfterKill > 0, "the kill came mid-burst: events first sent after it " + fedAfterKill);
            // without a branch of its own in doubt at the kill, peer recovery would have nothing to do
            assertTrue(victimLeftInDoubt, "the kill left node 1 holding a prepared branch (still prepared 3 s later,"
                + " which node 2's never are): hunt found one=" + huntFound + ", log writes held at the kill="
                + logWritesHeld + ", prepared at the kill="
                + preparedAtKill.size() + ", still prepared=" + inDoubtPg);
            assertTrue(answeredAfterKill.size() >= fedAfterKill, "the survivor answered the callbacks after the kill: "
                + answeredAfterKill.size() + " answers for " + fedAfterKill + " events sent after it");
            assertEquals(EVENTS, acknowledged, "every callback acknowledged in the end (WeCom gave up on none)");
            assertEquals(List.of(), before.duplicated(), "no welcome sent twice while a node was dead");
            assertTrue(before.sent() >= EVENTS * 95 / 100, "at least 95 % of welcomes sent: " + before.sent()
                + "; not sent: " + before.notSent());
            assertEquals(List.of(), survivorAlone.duplicates().stream().limit(10).toList(),
                "no effect doubled while a node was dead");
            assertEquals(List.of(), survivorAlone.missing().stream().limit(10).toList(),
                "every answered delivery kept, every add with its crm message, contact row and welcome outcome");
            assertTrue(survivorAlone.crmExpected() == EVENTS && survivorAlone.contactExpected() == EVENTS,
                "every add counted for crm and contact: crm " + survivorAlone.crmExpected() + ", contact "
                    + survivorAlone.contactExpected() + " of " + EVENTS);
            assertTrue(rejoined, "the restarted node is UP at the load balancer and answers through it: "
                + LB.nodeStatus(victimNumber));
            assertTrue(peerRecovered, "the survivor completed the dead node's in-doubt branches; left: pg="
                + InDoubt.database() + " broker=" + BrokerConsole.preparedTransactions());
            assertTrue(InDoubt.none(), "nothing in doubt after the restart either: pg=" + InDoubt.database()
                + " broker=" + BrokerConsole.preparedTransactions());
            assertEquals(List.of(), afterRestart.duplicates().stream().limit(10).toList(),
                "no effect doubled after the recovery either");
            assertEquals(List.of(), afterRestart.missing().stream().limit(10).toList(),
                "no effect lost after the recovery either");
        }
    }

    /**
     * With node 1's log held back: a branch prepared since {@code hunt} that stays prepared while node 2 has
     * time to complete its own (it does within milliseconds) is node 1's.
     */
    private static boolean node1HoldsPreparedBranch(long hunt) {
        Set<String> prepared = InDoubt.branchesSince(hunt);
        return !prepared.isEmpty() && Poll.holdsFor(Duration.ofMillis(500),
            () -> !Collections.disjoint(prepared, InDoubt.branchesSince(hunt)));
    }

    @Test
    void killedHoldingPreparedBranchesTheSurvivorCompletesThemWithoutARestartAndEveryProbeIsConsumedOnce()
            throws Exception {
        String label = "two-node-in-doubt-" + UUID.randomUUID();
        Set<Long> acknowledged = ProbeLoad.newAcknowledgedSet();
        boolean killedInDoubt;
        long inDoubtPg;
        long inDoubtBroker;
        Instant killedAt;
        // probes at node 1 only (a database insert and a message in one XA transaction): node 2 is idle, so
        // what is prepared while node 1 is frozen is node 1's
        try (ProbeLoad load = new ProbeLoad(4, label, acknowledged)) {
            assertTrue(Poll.until(Duration.ofSeconds(90), () -> acknowledged.size() >= 6), "node 1 takes probes");
            long hunt = InDoubt.databaseMillis();
            killedInDoubt = NODE1.killInDoubt(Duration.ofSeconds(20), () -> InDoubt.databaseSince(hunt) > 0);
            killedAt = NODE1.killedAt();
            inDoubtPg = InDoubt.databaseSince(hunt);
            inDoubtBroker = BrokerConsole.preparedTransactions();
        }
        // no restart: node 2 must take node 1's log over once its lease lapses and complete what it held
        boolean peerRecovered = Poll.until(Duration.ofSeconds(90), () -> InDoubt.none() && unconsumed(label) == 0);
        long peerRecoveredInSeconds = Duration.between(killedAt, Instant.now()).toSeconds();

        long restarted = System.nanoTime();
        NODE1.start();
        boolean rejoined = Poll.until(Duration.ofSeconds(90), () -> LB.nodeStatus(1).equals("UP") && routesTo("node1"));
        long rejoinedInSeconds = Duration.ofNanos(System.nanoTime() - restarted).toSeconds();
        Poll.sleep(3000); // room for a duplicate delivery (node 1 took its log back) to show
        long committed = Sql.count("SELECT count(*) FROM pipeline_probe WHERE label = ?", label);
        long duplicated = Sql.count("SELECT count(*) FROM pipeline_probe p WHERE label = ? AND "
            + "(SELECT count(*) FROM pipeline_probe_receipt r WHERE r.probe_id = p.probe_id) > 1", label);
        long acknowledgedMissing = acknowledged.stream()
            .filter(id -> Sql.count("SELECT count(*) FROM pipeline_probe WHERE probe_id = ?", id) == 0).count();

        System.out.printf("two-node summary [kill-in-doubt]: probesAcknowledged=%d committed=%d unconsumed=%d "
                + "duplicated=%d acknowledgedMissing=%d killedInDoubt=%s inDoubtAtKill(pg)=%d "
                + "inDoubtAtKill(broker)=%d peerRecoveredInSeconds=%s rejoinedInSeconds=%d%n",
            acknowledged.size(), committed, unconsumed(label), duplicated, acknowledgedMissing, killedInDoubt,
            inDoubtPg, inDoubtBroker, peerRecovered ? Long.toString(peerRecoveredInSeconds) : "no",
            rejoinedInSeconds);

        // without a branch in doubt at the kill this case would prove nothing about peer recovery
        assertTrue(killedInDoubt && inDoubtPg > 0, "the kill left node 1's prepared branches: pg=" + inDoubtPg
            + " broker=" + inDoubtBroker);
        assertTrue(peerRecovered, "node 2 completed node 1's in-doubt branches without node 1: left pg="
            + InDoubt.database() + " broker=" + BrokerConsole.preparedTransactions() + " unconsumed="
            + unconsumed(label));
        assertTrue(rejoined, "node 1 is routed to again: " + LB.nodeStatus(1));
        assertEquals(0, acknowledgedMissing, "every acknowledged probe is committed");
        assertEquals(0, duplicated, "no probe consumed twice");
        assertEquals(0, unconsumed(label), "every committed probe consumed");
        assertTrue(InDoubt.none(), "nothing in doubt after node 1 took its log back");
    }

    private static long unconsumed(String label) {
        return Sql.count("SELECT count(*) FROM pipeline_probe p WHERE label = ? AND NOT EXISTS "
            + "(SELECT 1 FROM pipeline_probe_receipt r WHERE r.probe_id = p.probe_id)", label);
    }

    /** True once a few GETs through the balancer met this node (round robin: every other one). */
    private static boolean routesTo(String node) {
        for (int i = 0; i < 4; i++) {
            if (LB.answeringNode("/health/ready").filter(node::equals).isPresent()) {
                return true;
            }
        }
        return false;
    }

    /** WeCom with its real retry schedule (+5 s, +10 s, +84-90 s), posting to the load balancer. */
    private static WeComSimulator simulator() {
        SimulatorConfig config = SimulatorConfig.from(new Properties(),
            new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        return WeComSimulator.builder().config(config).apiPort(FakeWeCom.apiPort()).timeScale(1.0)
            .callbackBase(URI.create(LB.baseUrl() + "/wecom/callback")).build().start();
    }

    /** EVENTS adds with a WelcomeCode at PER_SECOND, each delivered (and re-sent) by the simulator. */
    private static final class Burst {
        private final WeComSimulator sim;
        private final List<SimEvent> events = new ArrayList<>();
        private final List<CompletableFuture<DeliveryOutcome>> outcomes = new ArrayList<>();
        private volatile Instant startedAt = Instant.now();
        private volatile Instant lastEventAt = Instant.now();
        final Thread thread = new Thread(this::feed, "two-node-burst");

        Burst(WeComSimulator sim) {
            this.sim = sim;
            thread.setDaemon(true);
        }

        private void feed() {
            startedAt = Instant.now();
            long interval = (long) (1_000_000_000L / PER_SECOND);
            long next = System.nanoTime();
            for (int i = 0; i < EVENTS; i++) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Poll.sleep(TimeUnit.NANOSECONDS.toMillis(wait));
                }
                SimEvent event = sim.newEvent(APP, EventType.ADD_EXTERNAL_CONTACT);
                CompletableFuture<DeliveryOutcome> outcome = sim.deliverAsync(event);
                synchronized (this) {
                    events.add(event);
                    outcomes.add(outcome);
                }
                lastEventAt = Instant.now();
                next += interval;
            }
        }

        synchronized List<SimEvent> events() {
            return List.copyOf(events);
        }

        synchronized List<CompletableFuture<DeliveryOutcome>> outcomes() {
            return List.copyOf(outcomes);
        }

        /** The burst as the effect audit takes a feed: each event with how its delivery ended. */
        synchronized List<EventFeed.Sent> sent() {
            List<EventFeed.Sent> sent = new ArrayList<>(events.size());
            for (int i = 0; i < events.size(); i++) {
                sent.add(new EventFeed.Sent(events.get(i), outcomes.get(i)));
            }
            return sent;
        }

        Instant startedAt() {
            return startedAt;
        }

        Instant lastEventAt() {
            return lastEventAt;
        }
    }

    /**
     * Per WelcomeCode: successful send_welcome_msg calls at the simulator and welcome_send_log rows. Sent = one
     * successful send; duplicated = two sends or two rows; expired = an EXPIRED row and no send; the codes not
     * sent are named with their rows and when their event was first acknowledged relative to the kill.
     */
    private record Welcomes(int sent, int expired, List<String> notSent, List<String> duplicated) {

        static Welcomes audit(WeComSimulator sim, List<SimEvent> events, Instant killedAt) throws Exception {
            Map<String, List<String>> rows = new HashMap<>();
            try (Connection db = StackEnv.openDatabase();
                 PreparedStatement select = db.prepareStatement(
                     "SELECT welcome_code, status FROM welcome_send_log WHERE welcome_code = ANY(?)")) {
                select.setArray(1, db.createArrayOf("text", events.stream().map(SimEvent::welcomeCode).toArray()));
                try (ResultSet r = select.executeQuery()) {
                    while (r.next()) {
                        rows.computeIfAbsent(r.getString(1), k -> new ArrayList<>()).add(r.getString(2));
                    }
                }
            }
            int sent = 0, expired = 0;
            List<String> notSent = new ArrayList<>(), duplicated = new ArrayList<>();
            for (SimEvent e : events) {
                String code = e.welcomeCode();
                long sends = sim.successfulWelcomeSends(code);
                List<String> statuses = rows.getOrDefault(code, List.of());
                String what = code + " sends=" + sends + " rows=" + statuses + " " + firstAck(sim, e, killedAt);
                if (sends > 1 || statuses.size() > 1) {
                    duplicated.add(what);
                } else if (sends == 1) {
                    sent++;
                } else {
                    expired += statuses.equals(List.of("EXPIRED")) ? 1 : 0;
                    notSent.add(what);
                }
            }
            return new Welcomes(sent, expired, notSent, duplicated);
        }

        private static String firstAck(WeComSimulator sim, SimEvent e, Instant killedAt) {
            return sim.deliveries().attempts(e.id()).stream().filter(a -> a.status().appAnsweredOk()).findFirst()
                .map(a -> "acknowledged " + Duration.between(killedAt, a.sentAt()).toMillis() + " ms after the kill"
                    + " (attempt " + a.attempt() + ")")
                .orElse("never acknowledged");
        }
    }
}
