package io.wecominbox.simulator;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Command-line options of {@link SimulatorMain}. */
record SimulatorOptions(Optional<Path> config, Optional<URI> callbackBase, int apiPort, Optional<String> scenario,
                        double timeScale, boolean apiOnly, Duration ackTimeout, Duration statusEvery,
                        Duration linger, List<String> apps, Optional<Long> seed, boolean printSampleConfig) {

    static final String USAGE = """
            usage: SimulatorMain --config FILE --callback-base URL --scenario NAME|FILE [options]
                   SimulatorMain --config FILE --api-only [--api-port N]
                   SimulatorMain --print-sample-config
              --config FILE          wecom.apps / wecom.app.<name>.* properties; env vars override (WECOM_APP_<NAME>_TOKEN)
              --callback-base URL    callbacks for app <name> go to URL/<name>
              --api-port N           WeCom API port (default 9090, 0 = any free port)
              --scenario NAME|FILE   demo, smoke (classpath scenarios/) or a .properties file
              --time-scale X         multiply retry delays (+5 s, +10 s, +84..90 s), e.g. 0.1
              --ack-timeout-ms N     how long WeCom waits for the app's 200 (default 5000)
              --apps a,b             play the scenario for these apps only (default: all)
              --status-every-s N     live status line period (default 5)
              --linger-s N           keep the API up N s after the last delivery (default 5)
              --seed N               reproducible event content and fault rolls
              --api-only             only serve the API (until Ctrl-C)
              --print-sample-config  print a config with freshly generated credentials and exit
            """;

    static SimulatorOptions parse(String... args) {
        Optional<Path> config = Optional.empty();
        Optional<URI> callbackBase = Optional.empty();
        int apiPort = 9090;
        Optional<String> scenario = Optional.empty();
        double timeScale = 1.0;
        boolean apiOnly = false;
        boolean sample = false;
        Duration ackTimeout = Duration.ofSeconds(5);
        Duration statusEvery = Duration.ofSeconds(5);
        Duration linger = Duration.ofSeconds(5);
        List<String> apps = new ArrayList<>();
        Optional<Long> seed = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--api-only" -> apiOnly = true;
                case "--print-sample-config" -> sample = true;
                case "--help", "-h" -> throw new IllegalArgumentException("");
                default -> {
                    if (i + 1 >= args.length) throw new IllegalArgumentException(option + " needs a value");
                    String value = args[++i];
                    switch (option) {
                        case "--config" -> config = Optional.of(Path.of(value));
                        case "--callback-base" -> callbackBase = Optional.of(URI.create(value));
                        case "--api-port" -> apiPort = Integer.parseInt(value);
                        case "--scenario" -> scenario = Optional.of(value);
                        case "--time-scale" -> timeScale = Double.parseDouble(value);
                        case "--ack-timeout-ms" -> ackTimeout = Duration.ofMillis(Long.parseLong(value));
                        case "--status-every-s" -> statusEvery = Duration.ofSeconds(Long.parseLong(value));
                        case "--linger-s" -> linger = Duration.ofSeconds(Long.parseLong(value));
                        case "--apps" -> apps = List.of(value.split("\\s*,\\s*"));
                        case "--seed" -> seed = Optional.of(Long.parseLong(value));
                        default -> throw new IllegalArgumentException("unknown option " + option);
                    }
                }
            }
        }
        if (!sample) {
            if (config.isEmpty()) throw new IllegalArgumentException("--config is required");
            if (!apiOnly && (callbackBase.isEmpty() || scenario.isEmpty())) {
                throw new IllegalArgumentException("--callback-base and --scenario are required unless --api-only");
            }
        }
        return new SimulatorOptions(config, callbackBase, apiPort, scenario, timeScale, apiOnly, ackTimeout,
                statusEvery, linger, apps, seed, sample);
    }
}
