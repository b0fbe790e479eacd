package io.wecominbox.simulator.platform;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/** Every delivery attempt and outcome, countable while the simulation runs. Thread-safe. */
public final class DeliveryLog {

    private final ConcurrentLinkedQueue<DeliveryAttempt> attempts = new ConcurrentLinkedQueue<>();
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong gaveUp = new AtomicLong();

    void eventStarted() {
        events.incrementAndGet();
    }

    void record(DeliveryAttempt attempt) {
        attempts.add(attempt);
    }

    void finished(DeliveryOutcome outcome) {
        (outcome.acknowledged() ? acknowledged : gaveUp).incrementAndGet();
    }

    public List<DeliveryAttempt> attempts() {
        return new ArrayList<>(attempts);
    }

    public List<DeliveryAttempt> attempts(String eventId) {
        return attempts.stream().filter(a -> a.eventId().equals(eventId)).toList();
    }

    /** Events handed to the platform (each may take up to 4 attempts). */
    public long events() {
        return events.get();
    }

    public long attemptCount() {
        return attempts.size();
    }

    /** Attempts after the first one of their event. */
    public long retries() {
        return attempts.stream().filter(a -> a.attempt() > 1).count();
    }

    public long acknowledgedEvents() {
        return acknowledged.get();
    }

    /** Events the platform gave up on after the last retry. */
    public long abandonedEvents() {
        return gaveUp.get();
    }

    public long count(DeliveryStatus status) {
        return attempts.stream().filter(a -> a.status() == status).count();
    }

    public Map<DeliveryStatus, Long> countsByStatus() {
        Map<DeliveryStatus, Long> counts = new EnumMap<>(DeliveryStatus.class);
        for (DeliveryAttempt a : attempts) {
            counts.merge(a.status(), 1L, Long::sum);
        }
        return counts;
    }

    /** ACK latency percentile (0..100) over attempts the app answered with 200 in time; ZERO if none. */
    public Duration ackLatencyPercentile(double percentile) {
        List<Duration> latencies = attempts.stream().filter(a -> a.status().appAnsweredOk())
                .map(DeliveryAttempt::latency).sorted().toList();
        if (latencies.isEmpty()) {
            return Duration.ZERO;
        }
        // Nearest-rank: the smallest value with at least p% of the samples at or below it.
        int rank = (int) Math.ceil(percentile / 100.0 * latencies.size());
        return latencies.get(Math.max(0, Math.min(latencies.size() - 1, rank - 1)));
    }

    public void clear() {
        attempts.clear();
        events.set(0);
        acknowledged.set(0);
        gaveUp.set(0);
    }
}
