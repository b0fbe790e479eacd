package io.wecominbox.crash;

import io.wecominbox.crash.ChaosPlan.Fault;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.InDoubt;
import io.wecominbox.testsupport.LibertyProcess;
import io.wecominbox.testsupport.LoadBalancer;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import io.wecominbox.testsupport.StackScripts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Plays a round's faults in order on its own thread while the traffic runs: each no earlier than its offset from
 * the start of the traffic and after the one before it is undone (a node restarted and ready, the primary broker
 * back, Redis back, the cut restored). A fault that cannot be played or undone is a failure of the round.
 */
final class FaultPlayer extends Thread {

    private final ChaosPlan plan;
    private final Instant trafficStart;
    private final LibertyProcess[] nodes;
    private final LoadBalancer lb;
    private final Proxies proxies;
    private final List<String> failures = new ArrayList<>();
    private final List<String> timings = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private volatile String progress = "not started";

    FaultPlayer(ChaosPlan plan, Instant trafficStart, LibertyProcess[] nodes, LoadBalancer lb, Proxies proxies) {
        super("chaos-faults-" + plan.seed());
        setDaemon(true);
        this.plan = plan;
        this.trafficStart = trafficStart;
        this.nodes = nodes;
        this.lb = lb;
        this.proxies = proxies;
    }

    @Override
    public void run() {
        for (Fault fault : plan.faults()) {
            long wait = Duration.between(Instant.now(), trafficStart.plus(fault.at())).toMillis();
            if (wait > 0) {
                Poll.sleep(wait);
            }
            progress = fault.describe();
            long started = System.nanoTime();
            try {
                play(fault);
            } catch (Exception | AssertionError e) {
                synchronized (this) {
                    failures.add("fault " + fault.describe() + " failed: " + e);
                }
            }
            synchronized (this) {
                timings.add(String.format(Locale.ROOT, "%.0f", (System.nanoTime() - started) / 1e9));
            }
        }
        progress = "done";
    }

    private void play(Fault fault) throws Exception {
        switch (fault.kind()) {
            case KILL_NODE -> killNode(nodes[fault.node() - 1], fault);
            case PG_RESTART_FAST -> restartDatabase("fast");
            case PG_RESTART_IMMEDIATE -> restartDatabase("immediate");
            case BROKER_FAILOVER -> brokerFailoverAndBack(fault.hold());
            case REDIS_RESTART -> {
                StackScripts.run("redis.sh", "stop");
                Poll.sleep(fault.hold().toMillis());
                StackScripts.run("redis.sh", "start");
            }
            case NET_CUT_DB -> cut(fault, proxies == null ? null : proxies.database());
            case NET_CUT_BROKER -> cut(fault, proxies == null ? null : proxies.brokers());
            case STALL_NODE -> nodes[fault.node() - 1].freeze(fault.hold());
        }
    }

    private void killNode(LibertyProcess node, Fault fault) throws Exception {
        if (fault.inDoubt()) {
            boolean found = node.killInDoubt(Duration.ofSeconds(1), () -> InDoubt.database() > 0);
            // pg_prepared_xacts does not say whose a branch is: the other node's may have been the one seen, and
            // the count after the kill (the victim's stay, the survivor's complete) tells more
            note("node" + fault.node() + (found ? " killed frozen while PostgreSQL held a prepared branch (either "
                + "node's; " + InDoubt.database() + " left right after the kill)"
                : " killed, no prepared branch seen within 1 s"));
        } else {
            node.kill();
        }
        Poll.sleep(fault.hold().toMillis());
        node.start(); // launch, then ready (180 s at most)
        int number = fault.node();
        if (!Poll.until(Duration.ofSeconds(60), () -> lb.nodeStatus(number).equals("UP"))) {
            throw new IllegalStateException("node " + number + " restarted but HAProxy says " + lb.nodeStatus(number));
        }
    }

    private void restartDatabase(String mode) {
        long started = System.nanoTime();
        int exit = StackScripts.exitCode("postgres.sh", "restart", mode);
        if (exit != 0) {
            throw new IllegalStateException("postgres.sh restart " + mode + " exited " + exit);
        }
        note(String.format(Locale.ROOT, "database %s restart took %.1f s", mode, (System.nanoTime() - started) / 1e9));
    }

    /** kill -9 of the primary, the backup live within 60 s, the hold on the backup, then the failback. */
    private void brokerFailoverAndBack(Duration hold) {
        String host = StackEnv.get("BROKER_HOST", "127.0.0.1");
        StackScripts.run("artemis.sh", "kill-primary");
        long killed = System.nanoTime();
        if (!Poll.until(Duration.ofSeconds(60), () -> BrokerConsole.accepts(host, BrokerConsole.backupPort()))) {
            throw new IllegalStateException("the backup did not take over within 60 s (see "
                + "target/stack/logs/artemis-backup.log)");
        }
        note(String.format(Locale.ROOT, "backup live %.1f s after the kill", (System.nanoTime() - killed) / 1e9));
        Poll.sleep(hold.toMillis());
        StackScripts.run("artemis.sh", "start"); // failback: returns once the primary accepts again
    }

    private static void cut(Fault fault, List<io.wecominbox.testsupport.TcpProxy> cut) {
        if (cut == null) {
            throw new IllegalStateException(fault.kind() + " without the TCP proxies in place");
        }
        cut.forEach(io.wecominbox.testsupport.TcpProxy::cut);
        try {
            Poll.sleep(fault.hold().toMillis());
        } finally {
            cut.forEach(io.wecominbox.testsupport.TcpProxy::restore);
        }
    }

    synchronized List<String> failures() {
        return List.copyOf(failures);
    }

    /** Seconds each fault took, played and undone, e.g. "[31, 4]". */
    synchronized String timings() {
        return timings.toString().replace(" ", "");
    }

    private synchronized void note(String note) {
        notes.add(note);
    }

    /** What the faults met, e.g. whether a kill found a prepared branch; "-" when nothing to say. */
    synchronized String notes() {
        return notes.isEmpty() ? "-" : String.join("; ", notes);
    }

    String progress() {
        return progress;
    }
}
