package io.wecominbox.ingest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The last two hours of callback answers on this node in 10-second slots: how many were accepted, rejected
 * or failed, and a coarse latency histogram per slot. It feeds the dashboard's time series; Prometheus gets
 * the real histogram from the MicroProfile timer. Memory is fixed (720 slots), whatever the traffic.
 */
public final class AckLatencyWindow {

    public static final Duration SLOT = Duration.ofSeconds(10);
    public static final int SLOTS = 720;
    /** Upper bounds of the latency buckets in milliseconds; the last bucket is everything slower. */
    static final long[] BOUNDS_MS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};

    public enum Outcome {
        ACCEPTED, REJECTED, FAILED;

        private final String label = name().toLowerCase(Locale.ROOT);

        /** The name as a metric label: lower case. */
        public String label() {
            return label;
        }
    }

    private final Slot[] slots = new Slot[SLOTS];

    public AckLatencyWindow() {
        for (int i = 0; i < SLOTS; i++) {
            slots[i] = new Slot();
        }
    }

    public void record(Outcome outcome, long nanos, Instant at) {
        long index = at.getEpochSecond() / SLOT.getSeconds();
        Slot slot = slots[(int) Math.floorMod(index, (long) SLOTS)];
        synchronized (slot) {
            if (slot.index != index) {
                slot.reset(index);
            }
            slot.add(outcome, Math.max(0, nanos));
        }
    }

    /** Aggregates slots into buckets of {@code step} (a multiple of 10 s) from {@code from} up to {@code to}. */
    public List<Bucket> series(Instant from, Instant to, Duration step) {
        long slotsPerStep = Math.max(1, step.getSeconds() / SLOT.getSeconds());
        long first = Math.max(from.getEpochSecond() / SLOT.getSeconds(), to.getEpochSecond() / SLOT.getSeconds() - SLOTS + 1);
        first -= Math.floorMod(first, slotsPerStep);
        long last = to.getEpochSecond() / SLOT.getSeconds();
        List<Bucket> out = new ArrayList<>();
        for (long start = first; start <= last; start += slotsPerStep) {
            Slot sum = new Slot();
            for (long i = start; i < start + slotsPerStep && i <= last; i++) {
                Slot slot = slots[(int) Math.floorMod(i, (long) SLOTS)];
                synchronized (slot) {
                    if (slot.index == i) {
                        sum.merge(slot);
                    }
                }
            }
            out.add(sum.toBucket(Instant.ofEpochSecond(start * SLOT.getSeconds())));
        }
        return out;
    }

    /** One time bucket. Latencies in milliseconds (bucket upper bounds), null without answers. */
    public record Bucket(Instant at, long accepted, long rejected, long failed, Double p50Ms, Double p95Ms,
                         Double maxMs) {
    }

    private static final class Slot {
        long index = Long.MIN_VALUE;
        long accepted;
        long rejected;
        long failed;
        long maxNanos;
        final long[] histogram = new long[BOUNDS_MS.length + 1];

        void reset(long newIndex) {
            index = newIndex;
            accepted = rejected = failed = maxNanos = 0;
            java.util.Arrays.fill(histogram, 0);
        }

        void add(Outcome outcome, long nanos) {
            switch (outcome) {
                case ACCEPTED -> accepted++;
                case REJECTED -> rejected++;
                case FAILED -> failed++;
            }
            maxNanos = Math.max(maxNanos, nanos);
            histogram[bucketOf(nanos)]++;
        }

        void merge(Slot other) {
            accepted += other.accepted;
            rejected += other.rejected;
            failed += other.failed;
            maxNanos = Math.max(maxNanos, other.maxNanos);
            for (int i = 0; i < histogram.length; i++) {
                histogram[i] += other.histogram[i];
            }
        }

        Bucket toBucket(Instant at) {
            long total = 0;
            for (long n : histogram) {
                total += n;
            }
            if (total == 0) {
                return new Bucket(at, accepted, rejected, failed, null, null, null);
            }
            double max = maxNanos / 1_000_000.0;
            return new Bucket(at, accepted, rejected, failed, Math.min(max, quantile(total, 0.50)),
                    Math.min(max, quantile(total, 0.95)), max);
        }

        /** The upper bound of the bucket holding the q-quantile: a ceiling, never an underestimate. */
        private double quantile(long total, double q) {
            long rank = (long) Math.ceil(q * total);
            long seen = 0;
            for (int i = 0; i < histogram.length; i++) {
                seen += histogram[i];
                if (seen >= rank) {
                    return i < BOUNDS_MS.length ? BOUNDS_MS[i] : Double.MAX_VALUE;
                }
            }
            return Double.MAX_VALUE;
        }
    }

    static int bucketOf(long nanos) {
        double ms = nanos / 1_000_000.0;
        for (int i = 0; i < BOUNDS_MS.length; i++) {
            if (ms <= BOUNDS_MS[i]) {
                return i;
            }
        }
        return BOUNDS_MS.length;
    }
}
