package io.wecominbox.simulator.api;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * WeCom's per-app, per-API frequency limit: at most {@code perMinute} calls in any sliding minute, then 45009
 * (WeCom: 10,000 a minute per API and corp). Changeable at run time, so a test can squeeze it.
 */
public final class FrequencyLimit {

    public static final int WECOM_PER_MINUTE = 10_000;

    private final Clock clock;
    private final Map<String, Deque<Instant>> calls = new HashMap<>();
    private volatile int perMinute = WECOM_PER_MINUTE;

    public FrequencyLimit(Clock clock) {
        this.clock = clock;
    }

    public void perMinute(int calls) {
        if (calls < 1) {
            throw new IllegalArgumentException("a limit of at least one call a minute");
        }
        this.perMinute = calls;
    }

    public int perMinute() {
        return perMinute;
    }

    /** Counts the call and says whether it is within the limit (a refused call counts too, as at WeCom). */
    synchronized boolean allow(String app, String path) {
        Instant now = clock.instant();
        Deque<Instant> window = calls.computeIfAbsent(app + ' ' + path, k -> new ArrayDeque<>());
        while (!window.isEmpty() && window.peekFirst().isBefore(now.minus(Duration.ofMinutes(1)))) {
            window.removeFirst();
        }
        window.addLast(now);
        return window.size() <= perMinute;
    }

    public synchronized void clear() {
        calls.clear();
        perMinute = WECOM_PER_MINUTE;
    }
}
