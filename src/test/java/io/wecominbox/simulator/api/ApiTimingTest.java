package io.wecominbox.simulator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
}
