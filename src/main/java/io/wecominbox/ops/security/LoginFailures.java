package io.wecominbox.ops.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Wrong passwords counted per key (a source address, a user name's hash): {@code threshold} of them within
 * {@code window} lock the key for {@code window}. The count starts at a key's first failure and restarts once
 * the window has passed, so an operator's occasional typo never adds up. A threshold of 0 never locks.
 *
 * <p>The map is bounded ({@code maxKeys}, least recently used out first): a flood of made-up sources or user
 * names costs memory up to the bound and no more; the price is that such a flood may push out an older entry,
 * its own included. Pure and synchronized: the admin API sees a few requests a second at most.
 */
final class LoginFailures {

    private final int threshold;
    private final Duration window;
    private final Clock clock;
    private final Map<String, Entry> entries;

    private static final class Entry {
        Instant windowStart;
        int failures;
        Instant lockedUntil;
    }

    LoginFailures(int threshold, Duration window, int maxKeys, Clock clock) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the lockout window must be positive: " + window);
        }
        this.threshold = threshold;
        this.window = window;
        this.clock = clock;
        this.entries = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > maxKeys;
            }
        };
    }

    /** How long {@code key} stays locked, or empty when it is not locked. */
    synchronized Optional<Duration> lockedFor(String key) {
        Entry e = entries.get(key);
        if (e == null || e.lockedUntil == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (!now.isBefore(e.lockedUntil)) {
            entries.remove(key); // the lock ran out: the key starts afresh
            return Optional.empty();
        }
        return Optional.of(Duration.between(now, e.lockedUntil));
    }

    /** Counts one wrong password for {@code key}; true when this one locks it. */
    synchronized boolean failed(String key) {
        if (threshold <= 0) {
            return false;
        }
        Instant now = clock.instant();
        Entry e = entries.computeIfAbsent(key, k -> new Entry());
        if (e.lockedUntil != null && now.isBefore(e.lockedUntil)) {
            return false; // locked already: a locked key is refused before its password is looked at
        }
        e.lockedUntil = null;
        if (e.windowStart == null || !now.isBefore(e.windowStart.plus(window))) {
            e.windowStart = now;
            e.failures = 0;
        }
        e.failures++;
        if (e.failures >= threshold) {
            e.lockedUntil = now.plus(window);
            e.windowStart = null;
            e.failures = 0;
            return true;
        }
        return false;
    }

    /** A right password: the key's failures are forgotten (a lock is not lifted). */
    synchronized void succeeded(String key) {
        Entry e = entries.get(key);
        if (e != null && (e.lockedUntil == null || !clock.instant().isBefore(e.lockedUntil))) {
            entries.remove(key);
        }
    }

    synchronized int size() {
        return entries.size();
    }
}
