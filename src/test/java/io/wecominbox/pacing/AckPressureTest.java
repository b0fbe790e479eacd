package io.wecominbox.pacing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AckPressureTest {

    private static final long MS = 1_000_000L;
    private final AckPressure pressure = new AckPressure(Duration.ofMillis(25), Duration.ofMillis(10),
        Duration.ofSeconds(1));

    @Test
    void fastAnswersNeverPutTheConsumersOnNotice() {
        for (long t = 0; t < 100; t++) {
            pressure.sample(24 * MS, t * 10 * MS);
        }
        assertFalse(pressure.pressed(1000 * MS));
        assertEquals(0, pressure.episodes());
    }

    @Test
    void oneSlowAnswerIsEnough() {
        pressure.sample(25 * MS, 0);
        assertTrue(pressure.pressed(0));
        assertEquals(1, pressure.episodes());
    }

    @Test
    void pressureLastsUntilNothingReachedTheLowerMarkForTheCalmPeriod() {
        pressure.sample(30 * MS, 0);
        pressure.sample(12 * MS, 600 * MS); // below entering, above leaving: still not calm
        assertTrue(pressure.pressed(1500 * MS), "600 ms + 1 s of calm has not passed");
        pressure.sample(9 * MS, 1550 * MS);
        assertFalse(pressure.pressed(1600 * MS), "calm since 600 ms");
    }

    @Test
    void answersBetweenTheMarksDoNotStartPressure() {
        pressure.sample(20 * MS, 0);
        assertFalse(pressure.pressed(MS));
    }

    @Test
    void eachEpisodeIsCountedOnceAndTimedFromItsStart() {
        pressure.sample(40 * MS, 100 * MS);
        pressure.sample(40 * MS, 200 * MS);
        assertEquals(Duration.ofMillis(400), pressure.pressedFor(500 * MS));
        assertFalse(pressure.pressed(1300 * MS));
        assertEquals(Duration.ZERO, pressure.pressedFor(1300 * MS));
        pressure.sample(40 * MS, 1400 * MS);
        assertEquals(2, pressure.episodes());
    }

    @Test
    void aLeavingMarkAboveTheEnteringMarkIsRefused() {
        assertThrows(IllegalArgumentException.class,
            () -> new AckPressure(Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofSeconds(1)));
    }
}
