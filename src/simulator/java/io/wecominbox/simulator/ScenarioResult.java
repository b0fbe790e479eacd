package io.wecominbox.simulator;

import io.wecominbox.simulator.platform.DeliveryOutcome;

import java.time.Duration;
import java.util.List;

/** What one scenario run produced: every callback's delivery outcome, and how long it took. */
public record ScenarioResult(String scenario, List<DeliveryOutcome> outcomes, Duration elapsed) {

    public ScenarioResult {
        outcomes = List.copyOf(outcomes);
    }

    /** Callbacks sent (a member creation sends two). */
    public int callbacks() {
        return outcomes.size();
    }

    public long acknowledged() {
        return outcomes.stream().filter(DeliveryOutcome::acknowledged).count();
    }

    /** Callbacks WeCom would have given up on after three retries. */
    public long abandoned() {
        return callbacks() - acknowledged();
    }

    public long attempts() {
        return outcomes.stream().mapToLong(DeliveryOutcome::attemptCount).sum();
    }
}
