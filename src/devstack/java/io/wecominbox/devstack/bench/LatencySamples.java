package io.wecominbox.devstack.bench;

import java.util.Arrays;

/**
 * Every latency of one phase, kept exactly (a 20 s step at 1,600/s is 32,000 longs), so percentiles are
 * nearest-rank over the real samples rather than bucket estimates. A request that got no answer in time can be
 * counted as never answered ({@link #addUnanswered()}): it ranks above every answer, and a percentile that falls
 * on it is infinite (the report says "not answered" instead of hiding it). Thread-safe.
 */
final class LatencySamples {

    private long[] nanos = new long[4096];
    private int size;

    synchronized void add(long latencyNanos) {
        if (size == nanos.length) {
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        nanos[size++] = latencyNanos;
    }

    /** A request with no answer in time: slower than any answered one. */
    void addUnanswered() {
        add(Long.MAX_VALUE);
    }

    synchronized Summary summary() {
        long[] sorted = Arrays.copyOf(nanos, size);
        Arrays.sort(sorted);
        return new Summary(sorted.length, millis(sorted, 0.50), millis(sorted, 0.99), millis(sorted, 0.999),
                sorted.length == 0 ? Double.NaN : toMillis(sorted[sorted.length - 1]));
    }

    /** Nearest rank: the smallest sample with at least {@code q} of all samples at or below it. */
    private static double millis(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return toMillis(sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))]);
    }

    private static double toMillis(long nanos) {
        return nanos == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : nanos / 1e6;
    }

    /** Percentiles in milliseconds; p999 needs 1,000 samples to mean anything (the report says so). */
    record Summary(int count, double p50, double p99, double p999, double max) {
    }
}
