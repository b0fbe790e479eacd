package io.wecominbox.handler.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wecominbox.handler.welcome.WelcomeCallBudget.CallSpacing;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WelcomeCallBudgetTest {

    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

    @Test
    void tenThousandCallsAMinuteSpaceCallsSixMillisecondsApart() {
        CallSpacing spacing = new CallSpacing(Duration.ofNanos(60_000_000_000L / 10_000));
        Instant latest = T0.plusSeconds(20);
        assertEquals(T0, spacing.reserve(T0, latest));
        assertEquals(T0.plusMillis(6), spacing.reserve(T0, latest));
        assertEquals(T0.plusMillis(12), spacing.reserve(T0, latest));
    }

    @Test
    void aSlotAfterTheDeadlineIsRefusedAndNotTaken() {
        CallSpacing spacing = new CallSpacing(Duration.ofSeconds(1));
        assertEquals(T0, spacing.reserve(T0, T0.plusMillis(1500)));
        assertEquals(T0.plusSeconds(1), spacing.reserve(T0, T0.plusMillis(1500)));
        assertNull(spacing.reserve(T0, T0.plusMillis(1500)), "the third slot would come at 2 s");
        assertEquals(T0.plusSeconds(2), spacing.reserve(T0, T0.plusSeconds(5)), "the refused slot is still free");
    }

    @Test
    void anIdleBudgetDoesNotSaveUpABurst() {
        CallSpacing spacing = new CallSpacing(Duration.ofSeconds(1));
        spacing.reserve(T0, T0.plusSeconds(60));
        Instant later = T0.plusSeconds(30);
        assertEquals(later, spacing.reserve(later, later.plusSeconds(60)));
        assertEquals(later.plusSeconds(1), spacing.reserve(later, later.plusSeconds(60)));
    }
}
