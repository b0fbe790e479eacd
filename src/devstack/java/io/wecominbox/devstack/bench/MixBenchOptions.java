package io.wecominbox.devstack.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Command-line options of {@link MixBenchMain}; src/bench/mix-bench.sh fills in the stack's part. */
record MixBenchOptions(String baseUrl, List<String> apps, double addShare, List<Double> rates, long stepSeconds,
                       long pauseSeconds, double warmupRate, long warmupSeconds, int concurrency, long closedSeconds,
                       int closedCapacity, Optional<Path> pgbench, long pgbenchSeconds, Map<String, Long> watch,
                       double ticksPerSecond, Optional<Path> report, long seed, String command, int apiPort,
                       Optional<String> brokerConsole, long apiLatencyMillis, long apiJitterMillis,
                       double slowTailRate, long slowTailMillis, Duration ackTimeout, boolean resend,
                       int maxConnections, int backlog, List<String> backlogQueues, Optional<Path> ackLog) {

    static final String USAGE = """
            usage: MixBenchMain --base-url URL [options]   (DB_*, WECOM_APP* and ARTEMIS_ADMIN_* from the environment)
              --base-url URL          the callback URL's root, e.g. http://127.0.0.1:39080
              --apps a,b              apps to post for, in turn (default: all in WECOM_APPS, the stack's two)
              --add-share X           share of adds with a WelcomeCode, the rest members' text messages (default 0.2)
              --rates r1,r2,...       open-loop steps, events/s (default 100,200,300,500,700,1000)
              --step-seconds N        arrivals per step (default 20)
              --pause-seconds N       after each step: drain watched, welcomes counted (default 25)
              --warmup-rate R --warmup-seconds N   unreported warm-up (default 100/s, 20 s)
              --concurrency N         closed-loop senders, consumers running (default 16)
              --closed-seconds N      closed-loop length (default 30; 0: none)
              --closed-capacity N     callbacks sealed ahead for the closed loop (default 30000)
              --pgbench PATH          pgbench binary (single-row insert before and after); without it no ratios
              --pgbench-seconds N     length of each pgbench run (default 20)
              --watch NAME=PID        a process tree whose CPU to report (liberty, artemis, postgres, redis)
              --clock-ticks N         getconf CLK_TCK (default 100)
              --report FILE           also write the markdown report there
              --seed N                the mix and the event content (default: the time)
              --command TEXT          the command line to quote in the report
              --api-port N            the fake WeCom API for the consumers (0: none; welcomes are then not counted)
              --api-latency-ms N --api-jitter-ms N   the fake API's distance (default 100 ± 30)
              --api-slow-tail R@MS    a share of API calls that take MS instead (default none: 0@3000)
              --broker-console URL    Jolokia of the broker console, for each handler queue's depth
              --ack-timeout-ms N      how long WeCom waits for the 200 (default 5000)
              --resend on|off         WeCom's re-sends (+5 s, +10 s, +84-90 s) when no in-time 200 came (default on)
              --max-connections N     the driver's connections, i.e. requests in flight (default 2000)
              --backlog N             before the first step, N members' text messages straight onto handler queues,
                                      as a burst leaves them (default 0)
              --backlog-queues a,b    the handlers that get that backlog, in equal parts (default crm,conversation)
              --ack-log FILE          every first attempt of the steps as CSV (rate, due instant UTC, ACK ms; blank:
                                      not answered in time), to find when the slow answers came (default none)
            """;

    static MixBenchOptions parse(String... args) {
        String baseUrl = null;
        List<String> apps = new ArrayList<>();
        double addShare = 0.2;
        List<Double> rates = List.of(100.0, 200.0, 300.0, 500.0, 700.0, 1000.0);
        long stepSeconds = 20;
        long pauseSeconds = 25;
        double warmupRate = 100;
        long warmupSeconds = 20;
        int concurrency = 16;
        long closedSeconds = 30;
        int closedCapacity = 30_000;
        Optional<Path> pgbench = Optional.empty();
        long pgbenchSeconds = 20;
        Map<String, Long> watch = new LinkedHashMap<>();
        double ticks = 100;
        Optional<Path> report = Optional.empty();
        long seed = System.nanoTime();
        String command = "";
        int apiPort = 0;
        Optional<String> console = Optional.empty();
        long latency = 100;
        long jitter = 30;
        double tailRate = 0;
        long tailMillis = 3000;
        long ackTimeoutMillis = 5000;
        boolean resend = true;
        int maxConnections = 2000;
        int backlog = 0;
        List<String> backlogQueues = List.of("crm", "conversation");
        Optional<Path> ackLog = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
            }
            String value = args[++i];
            switch (option) {
                case "--base-url" -> baseUrl = value;
                case "--apps" -> apps = csv(value);
                case "--add-share" -> addShare = Double.parseDouble(value);
                case "--rates" -> rates = csv(value).stream().map(Double::valueOf).toList();
                case "--step-seconds" -> stepSeconds = Long.parseLong(value);
                case "--pause-seconds" -> pauseSeconds = Long.parseLong(value);
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
                case "--report" -> report = Optional.of(Path.of(value));
                case "--seed" -> seed = Long.parseLong(value);
                case "--command" -> command = value;
                case "--api-port" -> apiPort = Integer.parseInt(value);
                case "--api-latency-ms" -> latency = Long.parseLong(value);
                case "--api-jitter-ms" -> jitter = Long.parseLong(value);
                case "--api-slow-tail" -> {
                    String[] tail = value.split("@", 2);
                    tailRate = Double.parseDouble(tail[0]);
                    if (tail.length == 2) {
                        tailMillis = Long.parseLong(tail[1]);
                    }
                }
                case "--broker-console" -> console = Optional.of(value);
                case "--ack-timeout-ms" -> ackTimeoutMillis = Long.parseLong(value);
                case "--resend" -> resend = switch (value) {
                    case "on" -> true;
                    case "off" -> false;
                    default -> throw new IllegalArgumentException("--resend takes on or off\n" + USAGE);
                };
                case "--max-connections" -> maxConnections = Integer.parseInt(value);
                case "--backlog" -> backlog = Integer.parseInt(value);
                case "--backlog-queues" -> backlogQueues = csv(value);
                case "--ack-log" -> ackLog = Optional.of(Path.of(value));
                default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
            }
        }
        if (baseUrl == null) {
            throw new IllegalArgumentException("--base-url is required\n" + USAGE);
        }
        return new MixBenchOptions(baseUrl, apps, addShare, rates, stepSeconds, pauseSeconds, warmupRate,
                warmupSeconds, concurrency, closedSeconds, closedCapacity, pgbench, pgbenchSeconds, watch, ticks,
                report, seed, command, apiPort, console, latency, jitter, tailRate, tailMillis,
                Duration.ofMillis(ackTimeoutMillis), resend, maxConnections, Math.max(0, backlog), backlogQueues,
                ackLog);
    }

    private static List<String> csv(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
