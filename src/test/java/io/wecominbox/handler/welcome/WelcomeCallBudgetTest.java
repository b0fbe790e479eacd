package io.wecominbox.handler.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wecominbox.handler.welcome.WelcomeCallBudget.CallWindow;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WelcomeCallBudgetTest {

    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @Test
    void aBurstUpToTheLimitStartsAtOnce() {
        CallWindow window = new CallWindow(10_000, MINUTE);
        for (int i = 0; i < 10_000; i++) {
            assertEquals(T0, window.reserve(T0, T0.plusSeconds(20)), "call " + i);
        }
    }

    @Test
    void aboveTheLimitACallWaitsForTheOldestToLeaveTheMinute() {
        CallWindow window = new CallWindow(3, MINUTE);
        window.reserve(T0, T0.plusSeconds(90));
        window.reserve(T0.plusSeconds(10), T0.plusSeconds(90));
        window.reserve(T0.plusSeconds(20), T0.plusSeconds(90));
        assertEquals(T0.plusSeconds(60), window.reserve(T0.plusSeconds(30), T0.plusSeconds(90)));
        assertEquals(T0.plusSeconds(70), window.reserve(T0.plusSeconds(30), T0.plusSeconds(90)));
    }

    @Test
    void aSlotAfterTheDeadlineIsRefusedAndNotTaken() {
        CallWindow window = new CallWindow(1, MINUTE);
        assertEquals(T0, window.reserve(T0, T0.plusSeconds(20)));
        assertNull(window.reserve(T0.plusSeconds(1), T0.plusSeconds(21)), "the next slot is at 60 s");
        assertEquals(T0.plusSeconds(60), window.reserve(T0.plusSeconds(2), T0.plusSeconds(61)),
            "the refused slot is still free");
    }

    @Test
    void callsOlderThanAMinuteNoLongerCount() {
        CallWindow window = new CallWindow(2, MINUTE);
        window.reserve(T0, T0.plusSeconds(20));
        window.reserve(T0, T0.plusSeconds(20));
        Instant later = T0.plusSeconds(61);
        assertEquals(later, window.reserve(later, later.plusSeconds(20)));
        assertEquals(later, window.reserve(later, later.plusSeconds(20)));
    }
}
