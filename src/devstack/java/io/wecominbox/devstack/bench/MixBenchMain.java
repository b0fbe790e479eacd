package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.api.ApiCall;
import io.wecominbox.simulator.api.ApiTiming;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.api.WeComErrors;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.platform.RetrySchedule;
import io.wecominbox.testsupport.StackEnv;
import jakarta.jms.JMSContext;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The benchmark a user would run (issue 21 item 4): WeCom's realistic mix over HTTP through the real callback
 * URL (signed, two apps, 20 % adds with a WelcomeCode, 80 % members' text messages), open loop in steps, WeCom's
 * re-sends, the consumers running against a fake WeCom API 100 ± 30 ms away; per step what WeCom, the customer
 * and the operator see, and the CPU per event of every process; then a closed loop against pgbench's
 * single-row insert. Run it through src/bench/mix-bench.sh.
 */
public final class MixBenchMain {

    private static final long POLL_MILLIS = 500;
    /** Time allowed before a step for the collection that moves its sealed callbacks out of the young generation. */
    private static final long PRE_STEP_GC_MILLIS = 1_500;
    static final String FAKE_API = "fake API";

    private MixBenchMain() {
    }

    public static void main(String[] args) throws Exception {
        MixBenchOptions options;
        try {
            options = MixBenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        List<WeComApp> apps = apps(options.apps());
        // the fake API's HTTP threads (its executor's "wecom-sim-api") apart from the sender's
        CpuMeter cpu = new CpuMeter(options.watch(), options.ticksPerSecond()).withOwnThreads(FAKE_API, "wecom-sim-api")
                .withJitApart("liberty").withJitApart("artemis");
        MixReport report = new MixReport(options, cpu.components(), LoadAverage.now());
        report.apps(apps.stream().map(WeComApp::name).toList());
        BrokerQueues queues = options.brokerConsole().map(url -> new BrokerQueues(URI.create(url),
                IngestBenchMain.env("ARTEMIS_ADMIN_USER", "admin"), IngestBenchMain.env("ARTEMIS_ADMIN_PASSWORD", "")))
                .orElse(null);
        ApiTiming timing = new ApiTiming(Duration.ofMillis(options.apiLatencyMillis()),
                Duration.ofMillis(options.apiJitterMillis()), options.slowTailRate(),
                Duration.ofMillis(options.slowTailMillis()));
        RetrySchedule schedule = new RetrySchedule(1.0, new Random(options.seed() + 2));
        try (FakeWeComApi api = FakeWeComApi.start(options.apiPort(), apps, timing);
             IngestTarget target = new IngestTarget(options.baseUrl());
             MixOpenLoop loop = new MixOpenLoop(target, options.maxConnections(), options.ackTimeout(),
                     options.resend() ? () -> new ResendPlan(schedule.offsetsForOneEvent()) : null);
             PgBench pgbench = options.pgbench().isPresent() ? new PgBench(options.pgbench().get(),
                     IngestBenchMain.db()) : null;
             AckLog ackLog = options.ackLog().map(AckLog::new).orElse(null)) {
            MixFeed feed = new MixFeed(apps, new EventMix(options.addShare(), apps.size(), options.seed()),
                    options.seed(), api.welcomeCodes());
            Stepper stepper = new Stepper(options, feed, loop, api, queues, cpu, ackLog);
            log("warm-up: %.0f/s for %d s (not reported)", options.warmupRate(), options.warmupSeconds());
            log("  %s", MixReport.line(stepper.step(options.warmupRate(), options.warmupSeconds(),
                    Math.min(options.pauseSeconds(), 10), false)));
            if (options.backlog() > 0) {
                putBacklog(options, apps.get(0).name());
                report.note(String.format(java.util.Locale.ROOT, "before the first step, %d members' text messages "
                        + "were put straight onto the queues of %s (in equal parts), as a burst leaves them",
                        options.backlog(), String.join(", ", options.backlogQueues())));
            }
            if (pgbench != null) {
                report.pgbench(show(pgbench.single(options.concurrency(), options.pgbenchSeconds(), cpu)));
            }
            for (double rate : options.rates()) {
                log("open loop: %.0f/s for %d s, then %d s of pause", rate, options.stepSeconds(),
                        options.pauseSeconds());
                MixStepResult step = stepper.step(rate, options.stepSeconds(), options.pauseSeconds(), true);
                report.step(step);
                log("  %s", MixReport.line(step));
            }
            options.ackLog().ifPresent(file -> report.note("every first attempt of the steps, with its due instant "
                    + "(UTC) and ACK ms: " + file.getFileName()));
            loop.stopResending(); // late re-sends would land in the closed loop and pgbench
            report.note("re-sends still due after the last step's pause were dropped, so that the closed loop and "
                    + "pgbench after it run clean");
            if (options.closedSeconds() > 0) {
                closedLoop(options, feed, target, queues, cpu, report);
            }
            if (pgbench != null) {
                report.pgbench(show(pgbench.single(options.concurrency(), options.pgbenchSeconds(), cpu)
                        .renamed(PgBench.SINGLE_NAME + " (after)")));
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

    /** The backlog of --backlog, through the broker's own port, as the stack's application user. */
    private static void putBacklog(MixBenchOptions options, String app) {
        log("backlog: %d text messages onto %s", options.backlog(), options.backlogQueues());
        try (ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("tcp://"
                + StackEnv.get("BROKER_HOST", "127.0.0.1") + ":" + StackEnv.get("BROKER_PORT", "61616"),
                StackEnv.get("BROKER_USER", "wecom"), StackEnv.get("BROKER_PASSWORD", ""));
             JMSContext transacted = factory.createContext(JMSContext.SESSION_TRANSACTED)) {
            HandlerBacklog.put(transacted, app, "mix" + options.seed(), options.backlog(), options.backlogQueues());
        }
    }

    /** N senders with the consumers running, after the handler queues had a pause to drain (not purged). */
    private static void closedLoop(MixBenchOptions options, MixFeed feed, IngestTarget target, BrokerQueues queues,
                                   CpuMeter cpu, MixReport report) throws Exception {
        long waiting = waitForDrain(queues, options.pauseSeconds());
        log("closed loop: %d senders for %d s (sealing %d callbacks first; %d messages still on the handler queues)",
                options.concurrency(), options.closedSeconds(), options.closedCapacity(), waiting);
        // sealed "now": the welcomes of the later callbacks may expire before they are sent; the closed loop
        // measures callbacks/s, not welcomes
        List<CallbackFeed.Callback> callbacks = feed.plan(Instant.now(), 1e9, options.closedCapacity()).stream()
                .map(MixFeed.Planned::callback).toList();
        System.gc(); // as before each step
        PhaseResult closed = show(new ClosedLoopRun(target).run("mix closed loop, consumers running",
                options.concurrency(), options.closedSeconds(), callbacks, cpu));
        report.closed(closed);
        report.note(String.format(java.util.Locale.ROOT, "the closed loop started with %s messages on the handler "
                + "queues (after up to %d s of drain)", waiting < 0 ? "?" : Long.toString(waiting),
                options.pauseSeconds()));
    }

    private static long waitForDrain(BrokerQueues queues, long seconds) throws InterruptedException {
        if (queues == null) {
            return -1;
        }
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        long left;
        while ((left = queues.backlogOrUnknown()) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
        }
        return left;
    }

    /** One open-loop step and its pause, measured. */
    private record Stepper(MixBenchOptions options, MixFeed feed, MixOpenLoop loop, FakeWeComApi api,
                           BrokerQueues queues, CpuMeter cpu, AckLog ackLog) {

        /** {@code reported}: a step of the report, whose first attempts go to the ACK log (not the warm-up). */
        MixStepResult step(double rate, long stepSeconds, long pauseSeconds, boolean reported) throws Exception {
            int count = (int) Math.round(rate * stepSeconds);
            // sealed ahead for due instants a little in the future (sealing takes ~20 µs an event), then moved to
            // the old generation at once: the driver's young pauses during the step stay short (they delay sends
            // and answers alike, and would be charged to the server)
            Instant startWall = Instant.now().plusMillis(PRE_STEP_GC_MILLIS + 500 + count / 20);
            List<MixFeed.Planned> planned = feed.plan(startWall, rate, count);
            System.gc();
            long lead = Duration.between(Instant.now(), startWall).toNanos();
            if (lead < 0) {
                log("  sealing overran the planned start by %d ms: the first events start late", -lead / 1_000_000);
            }
            long startNanos = System.nanoTime() + Math.max(0, lead);
            DeliveryTally tally = new DeliveryTally(rate, reported ? ackLog : null);
            api.forgetCalls(); // what is counted below is this step's and its pause's
            CpuMeter.Reading before = cpu.read();
            CountDownLatch firstDone = loop.send(planned, startNanos, tally);
            HandlerDrain drain = new HandlerDrain(depths());
            long endNanos = System.nanoTime();
            long pauseEnd = endNanos + pauseSeconds * 1_000_000_000L;
            while (System.nanoTime() < pauseEnd) {
                Thread.sleep(Math.min(POLL_MILLIS, Math.max(1, (pauseEnd - System.nanoTime()) / 1_000_000)));
                if (!drain.allDrained()) {
                    drain.sample((System.nanoTime() - endNanos) / 1e9, depths());
                }
            }
            CpuMeter.Reading after = cpu.read();
            MixOpenLoop.awaitFirstAttempts(firstDone, options.ackTimeout()); // done unless the pause was short
            WelcomeOutcome welcomes = api.codes().map(c -> WelcomeOutcome.of(planned, c, Instant.now()))
                    .orElse(WelcomeOutcome.of(List.of(), null, Instant.now()));
            List<ApiCall> replies = api.calls(WeComApiPaths.MESSAGE_SEND);
            long sent = replies.stream().filter(ApiCall::succeeded).count();
            long refused = replies.stream()
                    .filter(c -> c.errcode().orElse(0) == WeComErrors.API_FREQUENCY_LIMIT).count();
            Map<String, Double> percent = cpu.usage(before, after);
            double seconds = (after.nanos() - before.nanos()) / 1e9;
            return new MixStepResult(rate, MixStepResult.DeliverySummary.of(tally), welcomes, sent, refused,
                    drain.results(), MixStepResult.perEvent(percent, seconds, count), percent);
        }

        private SortedMap<String, Long> depths() {
            if (queues == null) {
                return new TreeMap<>();
            }
            try {
                return queues.backlogByQueue();
            } catch (Exception e) {
                return new TreeMap<>(); // a missed poll: the next one counts
            }
        }
    }

    private static List<WeComApp> apps(List<String> wanted) {
        SimulatorConfig config = SimulatorConfig.from(new Properties(), EnvironmentOverrides.ofSystem());
        List<WeComApp> apps = new ArrayList<>();
        for (WeComApp app : config.apps().values()) {
            if (wanted.isEmpty() || wanted.contains(app.name())) {
                apps.add(app);
            }
        }
        if (apps.isEmpty()) {
            throw new IllegalArgumentException("no WeCom app matches --apps " + wanted);
        }
        return apps;
    }

    private static PhaseResult show(PhaseResult result) {
        log("%s: %s", result.name(), BenchReport.line(result));
        return result;
    }

    static void log(String format, Object... args) {
        System.err.printf("[mix-bench] " + format + "%n", args);
    }
}
