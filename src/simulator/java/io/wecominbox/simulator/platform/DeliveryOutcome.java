package io.wecominbox.simulator.platform;

import java.util.List;

/** All attempts of one callback, once the platform has stopped: acknowledged, or gave up after 3 retries. */
public record DeliveryOutcome(SimEvent event, boolean acknowledged, List<DeliveryAttempt> attempts) {

    public DeliveryOutcome {
        attempts = List.copyOf(attempts);
    }

    public int attemptCount() {
        return attempts.size();
    }

    public DeliveryStatus lastStatus() {
        return attempts.get(attempts.size() - 1).status();
    }
}
