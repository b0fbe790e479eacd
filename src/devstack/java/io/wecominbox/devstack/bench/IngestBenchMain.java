package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.config.WeComApp;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The ingest benchmark: signed, encrypted, unique callbacks at rising fixed arrival rates until the stack
 * saturates, a closed-loop run at fixed concurrency, and pgbench (single insert, insert + two-phase commit)
 * at the same concurrency against the same database. Run it through src/bench/ingest-bench.sh.
 */
public final class IngestBenchMain {

    private IngestBenchMain() {
    }

    public static void main(String[] args) throws Exception {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        List<WeComApp> apps = apps(options);
        CpuMeter cpu = new CpuMeter(options.watch(), options.ticksPerSecond());
        BenchReport report = new BenchReport(options, cpu.components(), LoadAverage.now());
        BrokerQueues queues = options.brokerConsole().map(url -> new BrokerQueues(URI.create(url),
                env("ARTEMIS_ADMIN_USER", "admin"), env("ARTEMIS_ADMIN_PASSWORD", ""))).orElse(null);
        if (queues == null && options.runs("paused")) {
            throw new IllegalArgumentException("the paused phase needs --broker-console");
        }
        try (FakeWeComApi api = FakeWeComApi.start(options.apiPort(), apps);
             IngestTarget target = new IngestTarget(options.baseUrl());
             PgBench pgbench = options.pgbench().isPresent() && options.runs("pgbench")
                     ? new PgBench(options.pgbench().get(), db()) : null) {
            CallbackFeed feed = new CallbackFeed(apps, options.mix(), options.seed(), api.welcomeCodes());
            OpenLoopStep open = new OpenLoopStep(target);
            log("warm-up: %.0f/s for %d s (not reported)", options.warmupRate(), options.warmupSeconds());
            PhaseResult warm = open.run("warm-up", options.warmupRate(),
                    feed.next((int) (options.warmupRate() * options.warmupSeconds())), cpu);
            log("  %s", BenchReport.line(warm));
            if (pgbench != null) {
                report.pgbench(show(pgbench.single(options.concurrency(), options.pgbenchSeconds(), cpu)));
                report.pgbench(show(pgbench.twoPhase(options.concurrency(), options.pgbenchSeconds(), cpu)));
            }
            if (options.runs("paused")) {
                consumersPaused(options, feed, target, open, cpu, report, queues);
            }
            if (options.runs("running")) {
                BenchReport.Phase phase = report.phase("consumers running", "every handler consuming, calling the "
                        + (api.running() ? "fake WeCom API on port " + options.apiPort() : "configured WeCom API")
                        + "; before each step the handler queues get " + options.stepDrainSeconds()
                        + " s to drain, the rest is purged");
                drainOrPurge(queues, options.stepDrainSeconds(), phase);
                closedLoop(options, feed, target, cpu, phase);
                risingRates(options, feed, open, cpu, phase, queues, true);
                drainOrPurge(queues, options.stepDrainSeconds(), phase);
            }
            if (pgbench != null) {
                log("pgbench again, to see how much the machine drifted during the run");
                report.pgbench(show(pgbench.single(options.concurrency(), options.pgbenchSeconds(), cpu)
                        .renamed(PgBench.SINGLE_NAME + " (after)")));
                report.pgbench(show(pgbench.twoPhase(options.concurrency(), options.pgbenchSeconds(), cpu)
                        .renamed(PgBench.TWO_PHASE_NAME + " (after)")));
            }
            if (options.runs("cold")) {
                drainOrPurge(queues, options.stepDrainSeconds(), null); // a start that inherits no backlog
                coldStart(options, feed, cpu, report);
            }
        } finally {
            if (queues != null) {
                try {
                    queues.resume(); // never leave the stack's consumers paused
                } catch (Exception e) {
                    log("could not resume the handler queues: %s", e.getMessage());
                }
            }
        }
        String markdown = report.markdown();
        System.out.println();
        System.out.println(markdown);
        Optional<Path> file = options.report();
        if (file.isPresent()) {
            Files.writeString(file.get(), markdown);
            log("report written to %s", file.get());
        }
    }

    /** Handler queues paused: callbacks stored and enqueued, nobody consuming; then resumed and drained. */
    private static void consumersPaused(BenchOptions options, CallbackFeed feed, IngestTarget target, OpenLoopStep open,
                                        CpuMeter cpu, BenchReport report, BrokerQueues queues) throws Exception {
        BenchReport.Phase phase = report.phase("consumers paused", "every queue on a wecom.handler.* address "
                + "paused through the broker's management API: callbacks are stored and enqueued, not consumed");
        drainOrPurge(queues, options.stepDrainSeconds(), phase);
        log("pausing the handler queues: %s", queues.pause());
        closedLoop(options, feed, target, cpu, phase);
        risingRates(options, feed, open, cpu, phase, queues, false);
        long backlog = queues.backlog();
        log("resuming the handler queues (%d messages waiting)", backlog);
        long resumed = System.nanoTime();
        queues.resume();
        CpuMeter.Reading before = cpu.read();
        long left = waitForDrain(queues, options.drainSeconds());
        double seconds = (System.nanoTime() - resumed) / 1e9;
        String cpuText = cpu.usage(before, cpu.read()).entrySet().stream()
                .map(e -> e.getKey() + " " + Math.round(e.getValue()) + " %").collect(Collectors.joining(", "));
        if (left == 0) {
            phase.notes.add(String.format(Locale.ROOT, "resumed with %d messages on the handler queues: drained in "
                    + "%.1f s (%.0f messages/s; CPU %s)", backlog, seconds, backlog / seconds, cpuText));
        } else {
            long purged = queues.purge();
            phase.notes.add(String.format(Locale.ROOT, "resumed with %d messages on the handler queues: %d consumed "
                    + "in %.0f s (%.0f messages/s; CPU %s), then what was left purged (%d removed; the rest were "
                    + "being delivered)", backlog, backlog - left,
                    seconds, (backlog - left) / seconds, cpuText, purged));
        }
        log("  %s", phase.notes.get(phase.notes.size() - 1));
    }

    private static void closedLoop(BenchOptions options, CallbackFeed feed, IngestTarget target, CpuMeter cpu,
                                   BenchReport.Phase phase) throws InterruptedException {
        if (options.closedSeconds() <= 0) {
            return;
        }
        log("%s, closed loop: %d senders for %d s (sealing %d callbacks first)", phase.name, options.concurrency(),
                options.closedSeconds(), options.closedCapacity());
        List<CallbackFeed.Callback> closedFeed = feed.next(options.closedCapacity());
        phase.closed.add(show(new ClosedLoopRun(target).run("ingest closed loop, " + phase.name,
                options.concurrency(), options.closedSeconds(), closedFeed, cpu)));
    }

    private static void coldStart(BenchOptions options, CallbackFeed feed, CpuMeter cpu, BenchReport report)
            throws Exception {
        if (options.restartCommand().isEmpty()) {
            throw new IllegalArgumentException("the cold phase needs --restart-command");
        }
        List<CallbackFeed.Callback> callbacks = feed.next((int) Math.round(options.coldRate() * options.coldSeconds()));
        log("cold start: restarting the server, then %.0f/s for %d s from the first ready answer",
                options.coldRate(), options.coldSeconds());
        ColdStartRun.Outcome outcome = new ColdStartRun(options.baseUrl(), options.restartCommand().get(),
                options.libertyPidFile()).run(options.coldRate(), callbacks, cpu);
        log("  stopped in %.1f s, ready %.1f s after its start; %s", outcome.stopSeconds(),
                outcome.startToReadySeconds(), BenchReport.line(outcome.result()));
        report.cold(outcome);
    }

    /** Waits up to {@code seconds} for the handler queues to empty; purges what is left. */
    private static void drainOrPurge(BrokerQueues queues, long seconds, BenchReport.Phase phase) throws Exception {
        if (queues == null) {
            return;
        }
        long left = waitForDrain(queues, seconds);
        if (left > 0) {
            long purged = queues.purge();
            log("handler queues not drained after %d s: purged %d messages (of %d; the rest were being delivered)",
                    seconds, purged, left);
        }
    }

    /** Polls the handler queues' backlog until it is 0 or the time is up; returns what is left. */
    private static long waitForDrain(BrokerQueues queues, long seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long left;
        while ((left = queues.backlog()) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }
        return left;
    }

    /** The listed rates in order until one saturates, then a few bisecting steps below it. */
    private static void risingRates(BenchOptions options, CallbackFeed feed, OpenLoopStep open, CpuMeter cpu,
                                    BenchReport.Phase phase, BrokerQueues queues, boolean drainBetween)
            throws Exception {
        double good = Double.NaN;
        double bad = Double.NaN;
        List<Double> queue = new ArrayList<>(options.rates());
        int refined = 0;
        while (!queue.isEmpty()) {
            double rate = queue.remove(0);
            if (drainBetween) { // the first step too: the closed loop before it leaves a backlog
                drainOrPurge(queues, options.stepDrainSeconds(), phase);
            }
            Thread.sleep(2000); // let the previous step's tail and any checkpoint noise settle
            List<CallbackFeed.Callback> callbacks = feed.next((int) Math.round(rate * options.stepSeconds()));
            log("%s, open loop: %.0f/s for %d s", phase.name, rate, options.stepSeconds());
            long backlogBefore = backlog(queues);
            PhaseResult step = open.run("open " + Math.round(rate) + "/s", rate, callbacks, cpu);
            BenchReport.Step row = new BenchReport.Step(step, backlogBefore, backlog(queues));
            boolean sustained = BenchReport.step(phase, row);
            log("  %s; backlog %d -> %d%s", BenchReport.line(step), row.backlogBefore(), row.backlogAfter(),
                    sustained ? "" : "  <- saturated");
            if (sustained) {
                good = Double.isNaN(good) ? rate : Math.max(good, rate);
            } else {
                bad = Double.isNaN(bad) ? rate : Math.min(bad, rate);
                queue.removeIf(r -> r >= rate);
            }
            if (queue.isEmpty() && !Double.isNaN(bad) && refined < options.refineSteps()) {
                double low = Double.isNaN(good) ? bad / 4 : good;
                double mid = Math.round((low + bad) / 2 / 10) * 10.0;
                if (mid > low && mid < bad) {
                    queue.add(mid);
                    refined++;
                }
            }
        }
    }

    private static long backlog(BrokerQueues queues) {
        return queues == null ? -1 : queues.backlogOrUnknown();
    }

    private static PhaseResult show(PhaseResult result) {
        log("%s: %s", result.name(), BenchReport.line(result));
        return result;
    }

    private static List<WeComApp> apps(BenchOptions options) {
        SimulatorConfig config = SimulatorConfig.from(new Properties(), EnvironmentOverrides.ofSystem());
        List<WeComApp> apps = new ArrayList<>();
        for (WeComApp app : config.apps().values()) {
            if (options.apps().isEmpty() || options.apps().contains(app.name())) {
                apps.add(app);
            }
        }
        if (apps.isEmpty()) {
            throw new IllegalArgumentException("no WeCom app matches --apps " + options.apps());
        }
        return apps;
    }

    static PgBench.Db db() {
        return new PgBench.Db(env("DB_HOST", "127.0.0.1"), Integer.parseInt(env("DB_PORT", "5432")),
                env("DB_NAME", "wecom_inbox"), env("DB_USER", "wecom"), env("DB_PASSWORD", ""));
    }

    static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    static void log(String format, Object... args) {
        System.err.printf("[bench] " + format + "%n", args);
    }
}
