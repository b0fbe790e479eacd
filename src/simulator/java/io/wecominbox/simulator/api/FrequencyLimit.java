package io.wecominbox.simulator.api;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * WeCom's frequency limit: at most {@code callsPerMinute} calls of one API per corp in any minute; a call above
 * it is refused with 45009 and has no effect. 0 = no limit. Counted over a sliding minute.
 */
public final class FrequencyLimit {

    private static final Duration WINDOW = Duration.ofMinutes(1);

    private final Clock clock;
    private final Map<String, Deque<Instant>> recent = new HashMap<>();
    private int callsPerMinute;

    public FrequencyLimit(Clock clock) {
        this.clock = clock;
    }

    public synchronized void callsPerMinute(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("callsPerMinute must be >= 0");
        }
        this.callsPerMinute = limit;
        recent.clear();
    }

    public synchronized int callsPerMinute() {
        return callsPerMinute;
    }

    /** True when this call of {@code path} by {@code corp} is within the limit (and counts it). */
    public synchronized boolean admit(String corp, String path) {
        if (callsPerMinute == 0) {
            return true;
        }
        Instant now = clock.instant();
        Deque<Instant> calls = recent.computeIfAbsent(corp + " " + path, k -> new ArrayDeque<>());
        while (!calls.isEmpty() && !calls.peekFirst().isAfter(now.minus(WINDOW))) {
            calls.pollFirst();
        }
        if (calls.size() >= callsPerMinute) {
            return false;
        }
        calls.addLast(now);
        return true;
    }
}
