package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.api.ApiCall;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.StackEnv;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end welcome latency on a running stack: at a steady rate, WeCom (the simulator) POSTs a signed
 * add_external_contact with a fresh WelcomeCode; the latency is from the start of that POST to the moment
 * the server's send_welcome_msg for the code reaches the simulator's fake API (which the server must call:
 * WECOM_API_BASE_URL=http://127.0.0.1:<api-port>). Run by src/stack/bench-welcome.sh; not a test.
 *
 * <p>Arguments: {@code --rate N} events/s (10), {@code --seconds N} measured (60), {@code --warmup N} s not
 * measured (10), {@code --api-port N} (9092), {@code --app NAME} (customer).
 */
public final class WelcomeLatencyBench {

    private WelcomeLatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        double rate = Double.parseDouble(options.getOrDefault("rate", "10"));
        int seconds = Integer.parseInt(options.getOrDefault("seconds", "60"));
        int warmup = Integer.parseInt(options.getOrDefault("warmup", "10"));
        int apiPort = Integer.parseInt(options.getOrDefault("api-port", "9092"));
        String app = options.getOrDefault("app", "customer");

        SimulatorConfig config = SimulatorConfig.from(new Properties(),
            new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        try (WeComSimulator sim = WeComSimulator.builder().config(config).apiPort(apiPort).timeScale(1.0)
            .callbackBase(URI.create(StackEnv.baseUrl() + "/wecom/callback")).build().start()) {
            System.out.printf("welcome latency: %.1f events/s, %d s warm-up + %d s measured, fake API on :%d, "
                + "callbacks to %s%n", rate, warmup, seconds, apiPort, StackEnv.baseUrl());
            run(sim, app, rate, warmup, false);
            sim.reset();
            Result result = run(sim, app, rate, seconds, true);
            result.print();
        }
    }

    private static Result run(WeComSimulator sim, String app, double rate, int seconds, boolean measured)
        throws Exception {
        Map<String, Instant> postedAt = new ConcurrentHashMap<>();
        List<CompletableFuture<DeliveryOutcome>> deliveries = Collections.synchronizedList(new ArrayList<>());
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        long periodMicros = Math.round(1_000_000 / rate);
        int total = (int) Math.round(rate * seconds);
        int[] sent = {0};
        clock.scheduleAtFixedRate(() -> {
            if (sent[0]++ >= total) {
                return;
            }
            SimEvent event = sim.newEvent(app, EventType.ADD_EXTERNAL_CONTACT);
            postedAt.put(event.welcomeCode(), Instant.now());
            deliveries.add(sim.deliverAsync(event));
        }, 0, periodMicros, TimeUnit.MICROSECONDS);
        Thread.sleep(seconds * 1000L + 200);
        clock.shutdown();
        // every welcome has at most its 20 s window to arrive
        Instant until = Instant.now().plusSeconds(20);
        while (Instant.now().isBefore(until) && welcomeCalls(sim).size() < postedAt.size()) {
            Thread.sleep(200);
        }
        Map<String, ApiCall> calls = welcomeCalls(sim);
        List<Long> latencies = new ArrayList<>();
        postedAt.forEach((code, at) -> {
            ApiCall call = calls.get(code);
            if (call != null) {
                latencies.add(Duration.between(at, call.at()).toMillis());
            }
        });
        long acked = deliveries.stream().filter(d -> d.isDone() && d.join().acknowledged()).count();
        return new Result(measured, rate, postedAt.size(), acked, latencies, sim.apiCalls()
            .calls(WeComApiPaths.SEND_WELCOME_MSG).stream().filter(ApiCall::succeeded).count());
    }

    /** The first send_welcome_msg call per code. */
    private static Map<String, ApiCall> welcomeCalls(WeComSimulator sim) {
        Map<String, ApiCall> first = new ConcurrentHashMap<>();
        for (ApiCall call : sim.apiCalls().calls(WeComApiPaths.SEND_WELCOME_MSG)) {
            call.welcomeCode().ifPresent(code -> first.putIfAbsent(code, call));
        }
        return first;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new ConcurrentHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        return options;
    }

    private record Result(boolean measured, double rate, int events, long acknowledged, List<Long> latencies,
                          long successfulSends) {

        void print() {
            List<Long> sorted = new ArrayList<>(latencies);
            Collections.sort(sorted);
            System.out.printf("events %d, acknowledged %d, welcome calls %d (successful %d), missing %d%n", events,
                acknowledged, sorted.size(), successfulSends, events - sorted.size());
            if (!sorted.isEmpty()) {
                System.out.printf("POST -> send_welcome_msg latency ms: p50 %d  p90 %d  p99 %d  max %d%n",
                    pct(sorted, 50), pct(sorted, 90), pct(sorted, 99), sorted.get(sorted.size() - 1));
            }
        }

        private static long pct(List<Long> sorted, int p) {
            int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
        }
    }
}
