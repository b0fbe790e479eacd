package io.wecominbox.simulator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ApiTimingTest {

    @Test
    void delaysStayWithinLatencyPlusMinusJitter() {
        ApiTiming timing = new ApiTiming(Duration.ofMillis(100), Duration.ofMillis(30), 0, Duration.ZERO);
        Random random = new Random(7);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < 10_000; i++) {
            long d = timing.nextDelay(random).toMillis();
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        assertTrue(min >= 70 && max <= 130, min + ".." + max);
        assertTrue(min < 75 && max > 125, "jitter spreads the delays: " + min + ".." + max);
    }

    @Test
    void aboutOnePercentOfCallsFallIntoTheSlowTail() {
        ApiTiming timing = ApiTiming.realistic();
        Random random = new Random(11);
        int slow = 0;
        for (int i = 0; i < 100_000; i++) {
            if (timing.nextDelay(random).equals(Duration.ofSeconds(3))) {
                slow++;
            }
        }
        assertTrue(slow > 800 && slow < 1200, slow + " of 100000 slow");
    }

    @Test
    void noTimingAnswersAtOnce() {
        assertEquals(Duration.ZERO, ApiTiming.NONE.nextDelay(new Random(1)));
    }

    @Test
    void negativeTimingsAndRatesOutsideZeroToOneAreRefused() {
        assertThrows(IllegalArgumentException.class,
            () -> new ApiTiming(Duration.ofMillis(-1), Duration.ZERO, 0, Duration.ZERO));
        assertThrows(IllegalArgumentException.class,
            () -> new ApiTiming(Duration.ZERO, Duration.ZERO, 1.5, Duration.ZERO));
    }

    @Test
    void theFrequencyLimitRefusesCallsAboveItWithinAMinuteAndAdmitsThemAgainAfterIt() {
        MutableClock clock = new MutableClock();
        FrequencyLimit limit = new FrequencyLimit(clock);
        limit.callsPerMinute(3);
        assertTrue(limit.admit("corp", "/p"));
        assertTrue(limit.admit("corp", "/p"));
        assertTrue(limit.admit("corp", "/p"));
        assertFalse(limit.admit("corp", "/p"), "the fourth call in the minute");
        assertTrue(limit.admit("other-corp", "/p"), "per corp");
        assertTrue(limit.admit("corp", "/other-api"), "per API");
        clock.now = clock.now.plusSeconds(61);
        assertTrue(limit.admit("corp", "/p"), "a minute later");
    }

    @Test
    void noFrequencyLimitByDefault() {
        FrequencyLimit limit = new FrequencyLimit(new MutableClock());
        for (int i = 0; i < 20_000; i++) {
            assertTrue(limit.admit("corp", "/p"));
        }
    }

    private static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-12-01T12:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
