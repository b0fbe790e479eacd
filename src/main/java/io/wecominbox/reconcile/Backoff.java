package io.wecominbox.reconcile;

import java.time.Duration;

/**
 * How long a pass waits before retrying a failed API call: {@code initial} doubled per consecutive failure up
 * to {@code max}. A rate limit (45009 / 45033) blocks an app for 60 s or 60 min, so the default starts at a
 * minute; after {@code maxAttempts} failures of one call the pass stops (FAILED, nothing marked gone).
 */
record Backoff(Duration initial, Duration max, int maxAttempts) {

    Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0 || maxAttempts < 1) {
            throw new IllegalArgumentException("back-off needs 0 < initial <= max and maxAttempts >= 1");
        }
    }

    /** The wait after the {@code failures}-th consecutive failure (1 = the first). */
    Duration after(int failures) {
        Duration d = initial.multipliedBy(1L << Math.min(Math.max(0, failures - 1), 20));
        return d.compareTo(max) > 0 ? max : d;
    }

    boolean givesUpAfter(int failures) {
        return failures >= maxAttempts;
    }
}
