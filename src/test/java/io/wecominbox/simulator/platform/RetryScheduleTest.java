package io.wecominbox.simulator.platform;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetryScheduleTest {

    @Test
    void attemptsComeAtZeroFiveTenAndLateRetryBetween84And90Seconds() {
        List<Duration> offsets = new RetrySchedule(1.0, new Random(1)).offsetsForOneEvent();

        assertEquals(1 + RetrySchedule.MAX_RETRIES, offsets.size());
        assertEquals(Duration.ZERO, offsets.get(0));
        assertEquals(Duration.ofSeconds(5), offsets.get(1));
        assertEquals(Duration.ofSeconds(10), offsets.get(2));
        assertBetween(offsets.get(3), Duration.ofSeconds(84), Duration.ofSeconds(90));
    }

    @Test
    void lateRetryJitterCoversItsWholeRangeAndNeverLeavesIt() {
        RetrySchedule schedule = new RetrySchedule(1.0, new Random(7));
        Duration min = Duration.ofDays(1);
        Duration max = Duration.ZERO;
        for (int i = 0; i < 2000; i++) {
            Duration late = schedule.offsetsForOneEvent().get(3);
            assertBetween(late, Duration.ofSeconds(84), Duration.ofSeconds(90));
            min = late.compareTo(min) < 0 ? late : min;
            max = late.compareTo(max) > 0 ? late : max;
        }
        assertTrue(min.compareTo(Duration.ofSeconds(85)) < 0, "jitter reaches the low end, min=" + min);
        assertTrue(max.compareTo(Duration.ofSeconds(89)) > 0, "jitter reaches the high end, max=" + max);
    }

    @Test
    void timeScaleShrinksEveryDelay() {
        List<Duration> offsets = new RetrySchedule(0.1, new Random(1)).offsetsForOneEvent();

        assertEquals(Duration.ofMillis(500), offsets.get(1));
        assertEquals(Duration.ofSeconds(1), offsets.get(2));
        assertBetween(offsets.get(3), Duration.ofMillis(8400), Duration.ofMillis(9000));
    }

    @Test
    void rejectsNonPositiveTimeScale() {
        assertThrows(IllegalArgumentException.class, () -> new RetrySchedule(0, new Random()));
        assertThrows(IllegalArgumentException.class, () -> new RetrySchedule(-1, new Random()));
    }

    private static void assertBetween(Duration actual, Duration low, Duration high) {
        assertTrue(actual.compareTo(low) >= 0 && actual.compareTo(high) <= 0,
                actual + " not within [" + low + ", " + high + "]");
    }
}
