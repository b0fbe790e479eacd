package io.wecominbox.devstack.bench;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * When WeCom sends the next attempt of one callback that got no in-time 200: at the simulator's
 * {@link io.wecominbox.simulator.platform.RetrySchedule} offsets from the first attempt (+5 s, +10 s, +84-90 s),
 * never before the previous attempt has ended (as the simulator's CallbackDeliverer), then it gives up.
 * The same bytes are sent each time; only the +5 s re-send falls inside a 20 s step.
 */
final class ResendPlan {

    private final List<Duration> offsets;

    /** {@code offsets}: attempt 1's (zero), attempt 2's, ... from the first attempt's due time. */
    ResendPlan(List<Duration> offsets) {
        if (offsets.isEmpty() || !offsets.get(0).isZero()) {
            throw new IllegalArgumentException("the first attempt's offset must be zero: " + offsets);
        }
        this.offsets = List.copyOf(offsets);
    }

    int maxAttempts() {
        return offsets.size();
    }

    /**
     * When attempt {@code attemptsDone + 1} is due (System.nanoTime scale), given the first attempt's due time
     * and when the last attempt ended; empty when every attempt is spent.
     */
    OptionalLong nextAttemptNanos(long firstDueNanos, int attemptsDone, long lastEndedNanos) {
        if (attemptsDone < 1 || attemptsDone >= offsets.size()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.max(firstDueNanos + offsets.get(attemptsDone).toNanos(), lastEndedNanos));
    }
}
