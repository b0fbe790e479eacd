package io.wecominbox.devstack.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What WeCom saw of one step's deliveries: first attempts answered 200 "success" within the 5 s, their ACK
 * latency from the due time (an unanswered one ranks as never answered), the re-sends and whether the event was
 * acknowledged in the end. Re-sends of this step's events count here whenever they are sent. Thread-safe.
 */
final class DeliveryTally {

    /** The step's offered rate, for the ACK log's lines. */
    private final double rate;
    /** Where each first attempt is also written with its due instant; null: nowhere. */
    private final AckLog log;
    final LatencySamples firstAck = new LatencySamples();
    final LongAdder events = new LongAdder();
    final LongAdder firstAnswered = new LongAdder();
    final LongAdder resends = new LongAdder();
    final LongAdder resendsAnswered = new LongAdder();
    final LongAdder acknowledged = new LongAdder();
    final LongAdder gaveUp = new LongAdder();
    /** The driver had no free connection before the deadline: the attempt was never sent (the driver's limit). */
    final LongAdder notSent = new LongAdder();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();

    DeliveryTally(double rate, AckLog log) {
        this.rate = rate;
        this.log = log;
    }

    /** A first attempt's end: answered 200 "success" in time, or not. */
    void firstAttemptEnded(long dueNanos, long endedNanos, boolean acked) {
        if (acked) {
            firstAnswered.increment();
            firstAck.add(endedNanos - dueNanos);
        } else {
            firstAck.addUnanswered();
        }
        if (log != null) {
            log.firstAttempt(rate, dueNanos, acked ? endedNanos - dueNanos : -1);
        }
    }

    void failure(String kind) {
        failures.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** Failed attempts (first and re-sends) by cause: "503", "no answer in 5 s", ... */
    Map<String, Long> failures() {
        Map<String, Long> out = new TreeMap<>();
        failures.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
