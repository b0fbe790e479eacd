package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.platform.EventType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Command-line options of {@link IngestBenchMain}; src/bench/ingest-bench.sh fills most of them in. */
record BenchOptions(String baseUrl, List<String> apps, List<EventType> mix, List<Double> rates, long stepSeconds,
                    int refineSteps, double warmupRate, long warmupSeconds, int concurrency, long closedSeconds,
                    int closedCapacity, Optional<Path> pgbench, long pgbenchSeconds, Map<String, Long> watch,
                    double ticksPerSecond, double sloP99Millis, Optional<Path> report, long seed,
                    String command, List<String> phases, int apiPort, Optional<String> brokerConsole,
                    long drainSeconds, long stepDrainSeconds, Optional<String> restartCommand,
                    Optional<Path> libertyPidFile, double coldRate, long coldSeconds, double coldSloP99Millis) {

    static final List<String> ALL_PHASES = List.of("pgbench", "paused", "running", "cold");

    boolean runs(String phase) {
        return phases.contains(phase);
    }

    static final String USAGE = """
            usage: IngestBenchMain --base-url URL [options]   (DB_* and WECOM_APP* from the environment)
              --base-url URL          Liberty's HTTP root, e.g. http://127.0.0.1:39080
              --apps a,b              apps to post for (default: all in WECOM_APPS)
              --mix t1,t2             event types, taken in turn (default add_external_contact,text_message)
              --rates r1,r2,...       open-loop arrival rates per second, rising (default 50,...,1600,3200)
              --step-seconds N        length of each open-loop step (default 20)
              --refine N              extra steps bisecting between the last sustained and the first
                                      saturated rate (default 2)
              --warmup-rate R --warmup-seconds N   unreported warm-up of the JITs and pools (default 100/s, 30 s)
              --concurrency N         closed-loop senders and pgbench clients (default 16)
              --closed-seconds N      closed-loop length (default 30)
              --closed-capacity N     callbacks sealed ahead for the closed loop (default 60000)
              --pgbench PATH          pgbench binary; without it the comparison is skipped
              --pgbench-seconds N     length of each pgbench run (default 30)
              --watch NAME=PID        a process tree whose CPU to report (repeatable: liberty, artemis, postgres)
              --clock-ticks N         getconf CLK_TCK (default 100)
              --slo-p99-ms X          the ACK latency target (default 50)
              --report FILE           also write the markdown report there
              --seed N                reproducible event content
              --command TEXT          the command line to quote in the report
              --phases p1,p2          which to run, in this order whatever the list says (default all):
                                      pgbench (before and after), paused (handler queues paused),
                                      running (every consumer running), cold (restart, then 200/s)
              --api-port N            run the simulator's fake WeCom API here for the consumers (0: none)
              --broker-console URL    Jolokia of the broker console (ARTEMIS_ADMIN_USER/_PASSWORD from the
                                      environment), e.g. http://127.0.0.1:8161/console/jolokia
              --drain-seconds N       after the paused phase: wait this long for the backlog to drain once
                                      resumed, then purge what is left (default 60)
              --step-drain-seconds N  before each running step: wait this long for the handler queues to
                                      drain, then purge what is left (default 20)
              --restart-command CMD   shell command that stops and starts the server (cold phase)
              --liberty-pid-file F    where the restarted server's pid is (CPU after the restart)
              --cold-rate R --cold-seconds N --cold-slo-p99-ms X   cold phase (default 200/s, 30 s, 200 ms)
            """;

    static BenchOptions parse(String... args) {
        String baseUrl = null;
        List<String> apps = new ArrayList<>();
        List<EventType> mix = List.of(EventType.ADD_EXTERNAL_CONTACT, EventType.TEXT_MESSAGE);
        List<Double> rates = List.of(50.0, 100.0, 200.0, 400.0, 800.0, 1600.0, 3200.0);
        long stepSeconds = 20;
        int refine = 2;
        double warmupRate = 100;
        long warmupSeconds = 30;
        int concurrency = 16;
        long closedSeconds = 30;
        int closedCapacity = 60_000;
        Optional<Path> pgbench = Optional.empty();
        long pgbenchSeconds = 30;
        Map<String, Long> watch = new LinkedHashMap<>();
        double ticks = 100;
        double slo = 50;
        Optional<Path> report = Optional.empty();
        long seed = System.nanoTime();
        String command = "";
        List<String> phases = ALL_PHASES;
        int apiPort = 0;
        Optional<String> console = Optional.empty();
        long drain = 60;
        long stepDrain = 20;
        Optional<String> restart = Optional.empty();
        Optional<Path> pidFile = Optional.empty();
        double coldRate = 200;
        long coldSeconds = 30;
        double coldSlo = 200;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
            }
            String value = args[++i];
            switch (option) {
                case "--base-url" -> baseUrl = value;
                case "--apps" -> apps = csv(value);
                case "--mix" -> mix = csv(value).stream().map(EventType::fromScenarioName).toList();
                case "--rates" -> rates = csv(value).stream().map(Double::valueOf).sorted().toList();
                case "--step-seconds" -> stepSeconds = Long.parseLong(value);
                case "--refine" -> refine = Integer.parseInt(value);
                case "--warmup-rate" -> warmupRate = Double.parseDouble(value);
                case "--warmup-seconds" -> warmupSeconds = Long.parseLong(value);
                case "--concurrency" -> concurrency = Integer.parseInt(value);
                case "--closed-seconds" -> closedSeconds = Long.parseLong(value);
                case "--closed-capacity" -> closedCapacity = Integer.parseInt(value);
                case "--pgbench" -> pgbench = Optional.of(Path.of(value));
                case "--pgbench-seconds" -> pgbenchSeconds = Long.parseLong(value);
                case "--watch" -> {
                    String[] kv = value.split("=", 2);
                    if (kv.length == 2 && !kv[1].isBlank()) {
                        watch.put(kv[0], Long.parseLong(kv[1].trim()));
                    }
                }
                case "--clock-ticks" -> ticks = Double.parseDouble(value);
                case "--slo-p99-ms" -> slo = Double.parseDouble(value);
                case "--report" -> report = Optional.of(Path.of(value));
                case "--seed" -> seed = Long.parseLong(value);
                case "--command" -> command = value;
                case "--phases" -> {
                    List<String> wanted = csv(value);
                    if (!ALL_PHASES.containsAll(wanted)) {
                        throw new IllegalArgumentException("--phases takes " + ALL_PHASES + "\n" + USAGE);
                    }
                    phases = ALL_PHASES.stream().filter(wanted::contains).toList();
                }
                case "--api-port" -> apiPort = Integer.parseInt(value);
                case "--broker-console" -> console = Optional.of(value);
                case "--drain-seconds" -> drain = Long.parseLong(value);
                case "--step-drain-seconds" -> stepDrain = Long.parseLong(value);
                case "--restart-command" -> restart = Optional.of(value);
                case "--liberty-pid-file" -> pidFile = Optional.of(Path.of(value));
                case "--cold-rate" -> coldRate = Double.parseDouble(value);
                case "--cold-seconds" -> coldSeconds = Long.parseLong(value);
                case "--cold-slo-p99-ms" -> coldSlo = Double.parseDouble(value);
                default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
            }
        }
        if (baseUrl == null) {
            throw new IllegalArgumentException("--base-url is required\n" + USAGE);
        }
        return new BenchOptions(baseUrl, apps, mix, rates, stepSeconds, refine, warmupRate, warmupSeconds,
                concurrency, closedSeconds, closedCapacity, pgbench, pgbenchSeconds, watch, ticks, slo, report, seed,
                command, phases, apiPort, console, drain, stepDrain, restart, pidFile, coldRate, coldSeconds, coldSlo);
    }

    private static List<String> csv(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
