package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.config.WeComApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

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
        CallbackFeed feed = new CallbackFeed(apps, options.mix(), options.seed());
        BenchReport report = new BenchReport(options, cpu.components(), LoadAverage.now());
        try (IngestTarget target = new IngestTarget(options.baseUrl());
             PgBench pgbench = options.pgbench().isPresent() ? new PgBench(options.pgbench().get(), db()) : null) {
            OpenLoopStep open = new OpenLoopStep(target);
            log("warm-up: %.0f/s for %d s (not reported)", options.warmupRate(), options.warmupSeconds());
            PhaseResult warm = open.run("warm-up", options.warmupRate(),
                    feed.next((int) (options.warmupRate() * options.warmupSeconds())), cpu);
            log("  %s", BenchReport.line(warm));
            if (pgbench != null) {
                report.comparison(show(pgbench.single(options.concurrency(), options.pgbenchSeconds(), cpu)));
                report.comparison(show(pgbench.twoPhase(options.concurrency(), options.pgbenchSeconds(), cpu)));
            }
            log("closed loop: %d senders for %d s (sealing %d callbacks first)", options.concurrency(),
                    options.closedSeconds(), options.closedCapacity());
            List<CallbackFeed.Callback> closedFeed = feed.next(options.closedCapacity());
            report.comparison(show(new ClosedLoopRun(target).run("ingest closed loop", options.concurrency(),
                    options.closedSeconds(), closedFeed, cpu)));
            closedFeed = null; // let the sealed callbacks go before the open-loop steps seal their own
            risingRates(options, feed, open, cpu, report);
            if (pgbench != null) {
                log("pgbench again, to see how much the machine drifted during the run");
                report.comparison(show(pgbench.single(options.concurrency(), options.pgbenchSeconds(), cpu)));
                report.comparison(show(pgbench.twoPhase(options.concurrency(), options.pgbenchSeconds(), cpu)));
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

    /** The listed rates in order until one saturates, then a few bisecting steps below it. */
    private static void risingRates(BenchOptions options, CallbackFeed feed, OpenLoopStep open, CpuMeter cpu,
                                    BenchReport report) throws InterruptedException {
        double good = Double.NaN;
        double bad = Double.NaN;
        List<Double> queue = new ArrayList<>(options.rates());
        int refined = 0;
        while (!queue.isEmpty()) {
            double rate = queue.remove(0);
            Thread.sleep(2000); // let the previous step's tail and any checkpoint noise settle
            log("open loop: %.0f/s for %d s", rate, options.stepSeconds());
            PhaseResult step = open.run("open " + Math.round(rate) + "/s", rate,
                    feed.next((int) Math.round(rate * options.stepSeconds())), cpu);
            boolean sustained = report.step(step);
            log("  %s%s", BenchReport.line(step), sustained ? "" : "  <- saturated");
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

    private static PgBench.Db db() {
        return new PgBench.Db(env("DB_HOST", "127.0.0.1"), Integer.parseInt(env("DB_PORT", "5432")),
                env("DB_NAME", "wecom_inbox"), env("DB_USER", "wecom"), env("DB_PASSWORD", ""));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    static void log(String format, Object... args) {
        System.err.printf("[bench] " + format + "%n", args);
    }
}
