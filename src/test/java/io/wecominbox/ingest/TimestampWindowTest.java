package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TimestampWindowTest {

    private static final Duration DEFAULT = Duration.ofSeconds(Long.parseLong(IngestSettings.DEFAULT_TIMESTAMP_WINDOW_SECONDS));
    private static final long FIRST_DELIVERY = 1_767_225_600L; // 2026-01-01T00:00:00Z, stamped by WeCom

    private static TimestampWindow defaultWindowAt(long epochSecond) {
        return new TimestampWindow(Clock.fixed(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC), DEFAULT);
    }

    private static CallbackRejected refusal(TimestampWindow window, long timestamp) {
        return assertThrows(CallbackRejected.class, () -> window.check(Long.toString(timestamp)));
    }

    @Test
    void theReplayGuardIsOnByDefaultWithFiveMinutes() {
        assertEquals(Duration.ofMinutes(5), DEFAULT);
        assertTrue(defaultWindowAt(FIRST_DELIVERY).enabled());
    }

    @Test
    void wecomsLateRetryCarryingTheFirstDeliverysTimestampPasses() {
        // the late retry comes 84-90 s after the first, possibly byte-identical (same timestamp)
        assertDoesNotThrow(() -> defaultWindowAt(FIRST_DELIVERY + 90).check(Long.toString(FIRST_DELIVERY)));
    }

    @Test
    void thatRetryStillPassesWithOurClockTwoMinutesOffEitherWay() {
        assertDoesNotThrow(() -> defaultWindowAt(FIRST_DELIVERY + 90 + 120).check(Long.toString(FIRST_DELIVERY)));
        assertDoesNotThrow(() -> defaultWindowAt(FIRST_DELIVERY - 120).check(Long.toString(FIRST_DELIVERY)));
    }

    @Test
    void aCapturedRequestReplayedADayLaterIsRefusedAsStale() {
        CallbackRejected e = refusal(defaultWindowAt(FIRST_DELIVERY + 86_400), FIRST_DELIVERY);
        assertEquals(Rejection.STALE_TIMESTAMP, e.rejection());
        assertEquals(4, e.rejection().status() / 100);
        assertTrue(e.getMessage().contains("86400 s behind our clock"), e.getMessage());
    }

    @Test
    void theEdgeOfTheWindowIsInsideAndOneSecondMoreIsOut() {
        assertDoesNotThrow(() -> defaultWindowAt(FIRST_DELIVERY + 300).check(Long.toString(FIRST_DELIVERY)));
        assertEquals(Rejection.STALE_TIMESTAMP, refusal(defaultWindowAt(FIRST_DELIVERY + 301), FIRST_DELIVERY).rejection());
    }

    @Test
    void aTimestampFromTheFutureIsRefusedTooAndTheSampleSaysOurClockIsBehind() {
        CallbackRejected e = refusal(defaultWindowAt(FIRST_DELIVERY - 3_600), FIRST_DELIVERY);
        assertEquals(Rejection.STALE_TIMESTAMP, e.rejection());
        assertTrue(e.getMessage().contains("3600 s ahead of our clock"), e.getMessage());
    }

    @Test
    void aTimestampThatIsNoNumberIsABadQuery() {
        assertEquals(Rejection.BAD_QUERY, assertThrows(CallbackRejected.class,
                () -> defaultWindowAt(FIRST_DELIVERY).check("yesterday")).rejection());
    }

    @Test
    void zeroTurnsTheGuardOff() {
        TimestampWindow off = new TimestampWindow(Clock.systemUTC(), Duration.ZERO);
        assertFalse(off.enabled());
        assertDoesNotThrow(() -> off.check("1409659589"));
    }
}
