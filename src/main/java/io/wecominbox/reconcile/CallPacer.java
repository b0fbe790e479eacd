package io.wecominbox.reconcile;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Spaces a pass's API calls to at most {@code callsPerMinute}: WeCom allows 10,000 a minute per API and corp,
 * shared with everything else the app calls, so a pass takes a small, steady share.
 */
final class CallPacer {

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private long nextAllowed;

    CallPacer(int callsPerMinute, LongSupplier nanoTime) {
        if (callsPerMinute < 1) {
            throw new IllegalArgumentException("calls per minute must be at least 1");
        }
        this.intervalNanos = Duration.ofMinutes(1).toNanos() / callsPerMinute;
        this.nanoTime = nanoTime;
        this.nextAllowed = nanoTime.getAsLong();
    }

    /** How long to wait before the next call; reserves that call's slot. */
    Duration reserve() {
        long now = nanoTime.getAsLong();
        long wait = Math.max(0, nextAllowed - now);
        nextAllowed = Math.max(now, nextAllowed) + intervalNanos;
        return Duration.ofNanos(wait);
    }
}
