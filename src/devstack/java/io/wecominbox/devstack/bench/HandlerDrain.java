package io.wecominbox.devstack.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Each handler queue's backlog when a step's arrivals end, and how long after that it first stood empty: fed
 * with the depths polled during the pause that follows, so the drain time is bounded by the pause (a queue still
 * holding messages at its end reports what was left instead).
 */
final class HandlerDrain {

    /** One handler: backlog at the step's end; seconds until empty (NaN: not within the pause); left at the end. */
    record Result(long atEnd, double drainSeconds, long left) {
        boolean drained() {
            return !Double.isNaN(drainSeconds);
        }
    }

    private final SortedMap<String, Long> atEnd;
    private final Map<String, Double> emptyAfter = new LinkedHashMap<>();
    private final Map<String, Long> last = new TreeMap<>();

    /** {@code depthsAtEnd}: queue name (wecom.handler.x or x) to messages, read as the arrivals stopped. */
    HandlerDrain(Map<String, Long> depthsAtEnd) {
        this.atEnd = new TreeMap<>();
        depthsAtEnd.forEach((queue, depth) -> atEnd.put(handler(queue), depth));
        atEnd.forEach((h, depth) -> {
            last.put(h, depth);
            if (depth == 0) {
                emptyAfter.put(h, 0.0);
            }
        });
    }

    /** Depths polled {@code secondsAfterEnd} after the arrivals stopped. */
    void sample(double secondsAfterEnd, Map<String, Long> depths) {
        depths.forEach((queue, depth) -> {
            String h = handler(queue);
            atEnd.putIfAbsent(h, -1L); // a queue the first read missed: its backlog at the end is unknown
            last.put(h, depth);
            if (depth == 0) {
                emptyAfter.putIfAbsent(h, secondsAfterEnd);
            }
        });
    }

    /** True when every queue has stood empty once: the poll may stop (never before a queue was seen). */
    boolean allDrained() {
        return !atEnd.isEmpty() && emptyAfter.keySet().containsAll(atEnd.keySet());
    }

    SortedMap<String, Result> results() {
        SortedMap<String, Result> out = new TreeMap<>();
        atEnd.forEach((h, depth) -> {
            Double seconds = emptyAfter.get(h);
            out.put(h, new Result(depth, seconds == null ? Double.NaN : seconds,
                    seconds == null ? last.getOrDefault(h, depth) : 0));
        });
        return out;
    }

    /** wecom.handler.crm → crm. */
    static String handler(String queue) {
        return queue.startsWith("wecom.handler.") ? queue.substring("wecom.handler.".length()) : queue;
    }
}
