package io.wecominbox.simulator.scenario;

import io.wecominbox.simulator.api.ApiFaults;
import io.wecominbox.simulator.platform.EventType;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A stream of callbacks to play: how many per second, for how long, which event types in which proportion,
 * and the faults to apply on the platform side (lost / pretended-slow ACKs) and the API side.
 */
public record Scenario(String name, String description, double eventsPerSecond, Duration duration,
                       Map<EventType, Double> mix, double lostAckRate, double slowAckPretendRate,
                       List<ApiFaults.Rule> apiFaults) {

    public Scenario {
        if (!(eventsPerSecond > 0)) throw new IllegalArgumentException("rate must be > 0");
        if (duration.isNegative() || duration.isZero()) throw new IllegalArgumentException("duration must be > 0");
        if (mix.isEmpty()) throw new IllegalArgumentException("the mix names no event type");
        mix = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(mix));
        apiFaults = List.copyOf(apiFaults);
    }

    /** Number of events the scenario emits (a member creation counts once, although it fires two callbacks). */
    public long eventCount() {
        return Math.max(1, Math.round(eventsPerSecond * duration.toMillis() / 1000.0));
    }

    /** Picks an event type by weight. */
    public EventType pick(Random random) {
        double total = mix.values().stream().mapToDouble(Double::doubleValue).sum();
        double roll = random.nextDouble() * total;
        EventType last = null;
        for (Map.Entry<EventType, Double> e : mix.entrySet()) {
            last = e.getKey();
            roll -= e.getValue();
            if (roll < 0) {
                return e.getKey();
            }
        }
        return last;
    }
}
