package io.wecominbox.simulator;

import io.wecominbox.simulator.api.ApiFaults;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.simulator.scenario.Scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Plays a scenario through a simulator: applies its fault rates, emits events at the scenario's rate
 * (real time; timeScale only shortens retry delays), then waits for every delivery to finish.
 */
final class ScenarioRunner {

    private final WeComSimulator simulator;
    private final Random random;

    ScenarioRunner(WeComSimulator simulator, Random random) {
        this.simulator = simulator;
        this.random = random;
    }

    ScenarioResult run(Scenario scenario, List<String> apps) throws InterruptedException {
        simulator.lostAckRate(scenario.lostAckRate());
        simulator.slowAckPretendRate(scenario.slowAckPretendRate());
        for (ApiFaults.Rule rule : scenario.apiFaults()) {
            simulator.api().faults().add(rule);
        }
        long started = System.nanoTime();
        long intervalNanos = Math.round(1e9 / scenario.eventsPerSecond());
        List<CompletableFuture<DeliveryOutcome>> deliveries = new ArrayList<>();
        long count = scenario.eventCount();
        for (long i = 0; i < count; i++) {
            long due = started + i * intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("scenario " + scenario.name() + " interrupted");
            }
            String app = apps.get((int) (i % apps.size()));
            EventType type = scenario.pick(random);
            List<SimEvent> events = type == EventType.CREATE_USER ? simulator.newMemberCreated(app)
                    : List.of(simulator.newEvent(app, type));
            for (SimEvent event : events) {
                deliveries.add(simulator.deliverAsync(event));
            }
        }
        List<DeliveryOutcome> outcomes = new ArrayList<>(deliveries.size());
        long deadline = System.nanoTime() + simulator.longestDelivery().toNanos();
        for (CompletableFuture<DeliveryOutcome> delivery : deliveries) {
            try {
                outcomes.add(delivery.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("a delivery did not finish in time", e);
            }
        }
        return new ScenarioResult(scenario.name(), outcomes, Duration.ofNanos(System.nanoTime() - started));
    }
}
