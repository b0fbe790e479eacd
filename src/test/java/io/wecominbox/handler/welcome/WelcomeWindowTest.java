package io.wecominbox.handler.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WelcomeWindowTest {

    private final WelcomeWindow window = new WelcomeWindow(Duration.ofMillis(500), Duration.ofMillis(200),
        Duration.ofMillis(500), 1.5, Duration.ofSeconds(2));
    private final Instant created = Instant.parse("2026-11-30T10:00:00Z");
    private final Instant deadline = window.deadline(created);

    @Test
    void deadlineIsTwentySecondsAfterCreateTimeLessTheMargin() {
        assertEquals(Instant.parse("2026-11-30T10:00:19.500Z"), deadline);
    }

    @Test
    void anAttemptStartsOnlyWithTheMinimumCallTimeLeft() {
        assertTrue(window.canStart(deadline.minusMillis(200), deadline));
        assertFalse(window.canStart(deadline.minusMillis(199), deadline));
        assertFalse(window.canStart(deadline.plusSeconds(1), deadline));
    }

    @Test
    void redeliveryDelayFollowsTheBrokerScheduleUpToItsMaximum() {
        assertEquals(Duration.ofMillis(500), window.redeliveryDelayAfter(1));
        assertEquals(Duration.ofMillis(750), window.redeliveryDelayAfter(2));
        assertEquals(Duration.ofMillis(1125), window.redeliveryDelayAfter(3));
        assertEquals(Duration.ofMillis(1687), window.redeliveryDelayAfter(4));
        assertEquals(Duration.ofSeconds(2), window.redeliveryDelayAfter(5));
        assertEquals(Duration.ofSeconds(2), window.redeliveryDelayAfter(30));
    }

    @Test
    void aRollbackIsWorthItOnlyWhenTheNextAttemptStartsWithTimeToSpare() {
        // after attempt 1 the broker waits 500 ms; the next attempt needs 200 ms, plus 200 ms for lateness
        assertTrue(window.nextAttemptCanStart(deadline.minusMillis(900), deadline, 1));
        assertFalse(window.nextAttemptCanStart(deadline.minusMillis(899), deadline, 1));
        // after attempt 5 the broker waits 2 s
        assertTrue(window.nextAttemptCanStart(deadline.minusMillis(2400), deadline, 5));
        assertFalse(window.nextAttemptCanStart(deadline.minusMillis(2399), deadline, 5));
    }

    @Test
    void negativeSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WelcomeWindow(Duration.ofMillis(-1), Duration.ZERO,
            Duration.ZERO, 1.0, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new WelcomeWindow(Duration.ZERO, Duration.ZERO,
            Duration.ZERO, 0.5, Duration.ZERO));
    }
}
