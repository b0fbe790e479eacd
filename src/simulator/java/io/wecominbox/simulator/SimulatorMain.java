package io.wecominbox.simulator;

import io.wecominbox.crypto.EncodingAesKeys;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.scenario.Scenario;
import io.wecominbox.simulator.scenario.ScenarioFiles;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the simulator on its own: serves the WeCom API and plays a scenario against the app's callback URL,
 * printing a status line every few seconds and a summary at the end. See {@link SimulatorOptions#USAGE}.
 */
public final class SimulatorMain {

    private SimulatorMain() {
    }

    public static void main(String[] args) throws Exception {
        SimulatorOptions options;
        try {
            options = SimulatorOptions.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) System.err.println("error: " + e.getMessage());
            System.err.print(SimulatorOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.printSampleConfig()) {
            System.out.print(sampleConfig());
            return;
        }
        SimulatorConfig config = SimulatorConfig.load(options.config().orElseThrow(), EnvironmentOverrides.ofSystem());
        Scenario scenario = options.apiOnly() ? null : ScenarioFiles.load(options.scenario().orElseThrow());
        WeComSimulator.Builder builder = WeComSimulator.builder().config(config).apiPort(options.apiPort())
                .timeScale(options.timeScale()).ackTimeout(options.ackTimeout());
        options.callbackBase().filter(b -> !options.apiOnly()).ifPresent(builder::callbackBase);
        options.seed().ifPresent(builder::seed);

        try (WeComSimulator sim = builder.build().start()) {
            System.out.println("WeCom simulator: API at " + sim.apiBaseUrl() + " (the app's wecom.api.base-url), apps "
                    + config.apps().keySet());
            config.apiBaseUrl().filter(url -> !url.replaceAll("/+$", "").equals(sim.apiBaseUrl().toString()))
                    .ifPresent(url -> System.out.println("note: config says wecom.api.base-url=" + url
                            + ", which is not this simulator's address"));
            ScheduledExecutorService status = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "wecom-sim-status");
                t.setDaemon(true);
                return t;
            });
            long period = options.statusEvery().toMillis();
            status.scheduleAtFixedRate(() -> System.out.println("[sim] " + sim.statusLine()), period, period,
                    TimeUnit.MILLISECONDS);
            try {
                if (options.apiOnly()) {
                    serveUntilInterrupted();
                } else {
                    runScenario(sim, scenario, options);
                }
            } finally {
                status.shutdownNow();
            }
        }
    }

    private static void runScenario(WeComSimulator sim, Scenario scenario, SimulatorOptions options)
            throws InterruptedException {
        String[] apps = options.apps().toArray(String[]::new);
        for (String app : apps.length > 0 ? apps : sim.apps().keySet().toArray(String[]::new)) {
            System.out.println("callbacks for " + app + " -> " + sim.callbackUrl(app));
        }
        System.out.printf("scenario %s: %s (%.1f events/s for %ss, time scale %s)%n", scenario.name(),
                scenario.description(), scenario.eventsPerSecond(), scenario.duration().toSeconds(),
                options.timeScale());
        ScenarioResult result = sim.runScenario(scenario, apps);
        // The app may still be sending welcome messages for the last events: let those calls land.
        Thread.sleep(options.linger().toMillis());
        System.out.printf("[sim] DONE scenario=%s callbacks=%d acked=%d abandoned=%d attempts=%d elapsed=%.1fs | %s%n",
                result.scenario(), result.callbacks(), result.acknowledged(), result.abandoned(), result.attempts(),
                result.elapsed().toMillis() / 1000.0, sim.statusLine());
    }

    private static void serveUntilInterrupted() throws InterruptedException {
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
        stop.await();
    }

    /** A config with fresh random credentials, so nobody needs to commit "dev" secrets. */
    static String sampleConfig() {
        SecureRandom random = new SecureRandom();
        StringBuilder out = new StringBuilder("# WeCom Inbox / simulator config (generated; keep it out of git)\n")
                .append("wecom.apps=customer,contacts\n")
                .append("wecom.api.base-url=http://127.0.0.1:9090\n");
        String corpId = "ww" + hex(random, 8);
        int agentId = 1000002;
        for (String app : new String[] {"customer", "contacts"}) {
            String p = "wecom.app." + app + ".";
            out.append(p).append("corp-id=").append(corpId).append('\n')
                    .append(p).append("token=").append(hex(random, 12)).append('\n')
                    .append(p).append("encoding-aes-key=").append(EncodingAesKeys.generate()).append('\n')
                    .append(p).append("agent-id=").append(agentId++).append('\n')
                    .append(p).append("secret=").append(hex(random, 21)).append('\n');
        }
        return out.toString();
    }

    private static String hex(SecureRandom random, int bytes) {
        byte[] b = new byte[bytes];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
