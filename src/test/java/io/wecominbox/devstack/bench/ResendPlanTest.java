package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.platform.RetrySchedule;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ResendPlanTest {

    private static final long S = 1_000_000_000L;
    private static final long FIRST = 1_000 * S; // an arbitrary System.nanoTime origin

    private final ResendPlan plan = new ResendPlan(List.of(Duration.ZERO, Duration.ofSeconds(5),
            Duration.ofSeconds(10), Duration.ofSeconds(87)));

    @Test
    void aFastRefusalIsResentFiveSecondsAfterTheFirstAttemptWasDue() {
        assertEquals(OptionalLong.of(FIRST + 5 * S), plan.nextAttemptNanos(FIRST, 1, FIRST + S / 100));
    }

    @Test
    void anAttemptThatTimedOutLateIsResentWhenItEndedNotBefore() {
        long ended = FIRST + 5 * S + S / 5; // the driver sent it 200 ms late, so its 5 s ended at +5.2 s
        assertEquals(OptionalLong.of(ended), plan.nextAttemptNanos(FIRST, 1, ended));
    }

    @Test
    void theThirdAndFourthAttemptsFollowAtTenAndEightySevenSeconds() {
        assertEquals(OptionalLong.of(FIRST + 10 * S), plan.nextAttemptNanos(FIRST, 2, FIRST + 5 * S + S / 10));
        assertEquals(OptionalLong.of(FIRST + 87 * S), plan.nextAttemptNanos(FIRST, 3, FIRST + 15 * S));
    }

    @Test
    void afterTheFourthAttemptWeComGivesUp() {
        assertEquals(OptionalLong.empty(), plan.nextAttemptNanos(FIRST, 4, FIRST + 92 * S));
        assertEquals(4, plan.maxAttempts());
    }

    @Test
    void theSimulatorsScheduleGivesPlusFiveTenAndALateRetryWithinEightyFourToNinety() {
        RetrySchedule schedule = new RetrySchedule(1.0, new Random(11));
        for (int i = 0; i < 100; i++) {
            ResendPlan fromSchedule = new ResendPlan(schedule.offsetsForOneEvent());
            assertEquals(FIRST + 5 * S, fromSchedule.nextAttemptNanos(FIRST, 1, FIRST).getAsLong());
            assertEquals(FIRST + 10 * S, fromSchedule.nextAttemptNanos(FIRST, 2, FIRST).getAsLong());
            long late = fromSchedule.nextAttemptNanos(FIRST, 3, FIRST).getAsLong() - FIRST;
            assertTrue(late >= 84 * S && late <= 90 * S, "late retry at " + late / 1e9 + " s");
        }
    }

    @Test
    void aScheduleWhoseFirstAttemptIsNotAtZeroIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ResendPlan(List.of(Duration.ofSeconds(5))));
    }
}
