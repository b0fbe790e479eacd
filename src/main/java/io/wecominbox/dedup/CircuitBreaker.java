package io.wecominbox.dedup;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Keeps a dead store from adding its timeout to every message: after a failure the store is skipped for the
 * open interval (callers treat it as down), then one call at a time is let through to try it again.
 */
final class CircuitBreaker {

    private final long openNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong openUntil = new AtomicLong(Long.MIN_VALUE);

    CircuitBreaker(Duration open, LongSupplier nanoClock) {
        this.openNanos = open.toNanos();
        this.nanoClock = nanoClock;
    }

    /** True if a call may go to the store now; while open, at most one caller per interval gets a trial. */
    boolean allows() {
        long until = openUntil.get();
        if (until == Long.MIN_VALUE) {
            return true;
        }
        long now = nanoClock.getAsLong();
        return now - until >= 0 && openUntil.compareAndSet(until, now + openNanos);
    }

    void success() {
        openUntil.set(Long.MIN_VALUE);
    }

    /** Returns true when this failure opened a closed breaker (worth one log line). */
    boolean failure() {
        long previous = openUntil.getAndSet(nanoClock.getAsLong() + openNanos);
        return previous == Long.MIN_VALUE;
    }

    boolean isOpen() {
        return openUntil.get() != Long.MIN_VALUE;
    }
}
