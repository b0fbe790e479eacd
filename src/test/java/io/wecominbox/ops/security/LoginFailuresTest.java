package io.wecominbox.ops.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LoginFailuresTest {

    private static final Duration WINDOW = Duration.ofMinutes(5);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final LoginFailures failures = new LoginFailures(3, WINDOW, 100, clock);

    @Test
    void theThresholdthFailureLocksForTheWindow() {
        assertFalse(failures.failed("10.0.0.1"));
        assertFalse(failures.failed("10.0.0.1"));
        assertEquals(Optional.empty(), failures.lockedFor("10.0.0.1"), "two failures lock nothing");
        assertTrue(failures.failed("10.0.0.1"), "the third locks");
        assertEquals(Optional.of(WINDOW), failures.lockedFor("10.0.0.1"));

        clock.advance(Duration.ofMinutes(4));
        assertEquals(Optional.of(Duration.ofMinutes(1)), failures.lockedFor("10.0.0.1"), "the time left shrinks");
        clock.advance(Duration.ofMinutes(1));
        assertEquals(Optional.empty(), failures.lockedFor("10.0.0.1"), "and runs out");
    }

    @Test
    void failuresSpreadWiderThanTheWindowNeverAddUp() {
        failures.failed("10.0.0.1");
        failures.failed("10.0.0.1");
        clock.advance(WINDOW);
        assertFalse(failures.failed("10.0.0.1"), "the window passed: this one starts a new count");
        assertFalse(failures.failed("10.0.0.1"));
        assertTrue(failures.failed("10.0.0.1"));
    }

    @Test
    void keysAreCountedApart() {
        failures.failed("10.0.0.1");
        failures.failed("10.0.0.1");
        failures.failed("10.0.0.1");
        assertTrue(failures.lockedFor("10.0.0.1").isPresent());
        assertEquals(Optional.empty(), failures.lockedFor("10.0.0.2"));
        assertFalse(failures.failed("10.0.0.2"));
    }

    @Test
    void whileLockedFailuresNeitherCountNorExtendTheLock() {
        for (int i = 0; i < 3; i++) {
            failures.failed("10.0.0.1");
        }
        clock.advance(Duration.ofMinutes(2));
        assertFalse(failures.failed("10.0.0.1"));
        assertFalse(failures.failed("10.0.0.1"));
        assertEquals(Optional.of(Duration.ofMinutes(3)), failures.lockedFor("10.0.0.1"), "still the first lock's end");
        clock.advance(Duration.ofMinutes(3));
        assertEquals(Optional.empty(), failures.lockedFor("10.0.0.1"));
        assertFalse(failures.failed("10.0.0.1"), "after the lock a fresh count begins");
    }

    @Test
    void aRightPasswordForgetsTheFailuresButLiftsNoLock() {
        failures.failed("10.0.0.1");
        failures.failed("10.0.0.1");
        failures.succeeded("10.0.0.1");
        assertFalse(failures.failed("10.0.0.1"), "counting restarted");
        assertFalse(failures.failed("10.0.0.1"));
        assertTrue(failures.failed("10.0.0.1"));
        failures.succeeded("10.0.0.1");
        assertTrue(failures.lockedFor("10.0.0.1").isPresent(), "a lock holds until it runs out");
    }

    @Test
    void aThresholdOfZeroNeverLocksAndKeepsNothing() {
        LoginFailures off = new LoginFailures(0, WINDOW, 100, clock);
        for (int i = 0; i < 50; i++) {
            assertFalse(off.failed("10.0.0.1"));
        }
        assertEquals(Optional.empty(), off.lockedFor("10.0.0.1"));
        assertEquals(0, off.size());
    }

    @Test
    void theMapIsBoundedAndDropsTheLeastRecentlyUsed() {
        LoginFailures small = new LoginFailures(2, WINDOW, 3, clock);
        small.failed("a");
        small.failed("a"); // locks a
        small.failed("b");
        small.failed("c");
        small.lockedFor("a"); // a is used again: b is now the eldest
        small.failed("d");
        assertEquals(3, small.size());
        assertTrue(small.lockedFor("a").isPresent(), "the recently used lock stays");
        assertFalse(small.failed("b"), "b was dropped: its count starts over");
    }

    @Test
    void aWindowMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new LoginFailures(3, Duration.ZERO, 10, clock));
    }
}
