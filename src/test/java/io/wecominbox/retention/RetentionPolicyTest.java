package io.wecominbox.retention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetentionPolicyTest {

    private static final Instant NOW = Instant.parse("2026-12-03T12:00:00Z");

    @Test
    void contentIsErasedAndRowsLeaveAtTheirAges() {
        RetentionPolicy p = new RetentionPolicy("callback_log", Duration.ofDays(30), Duration.ofDays(180));
        assertEquals(Optional.of(Instant.parse("2026-11-03T12:00:00Z")), p.eraseBefore(NOW));
        assertEquals(Optional.of(Instant.parse("2026-06-06T12:00:00Z")), p.dropBefore(NOW));
    }

    @Test
    void zeroMeansKeptAndNullMeansTheTableHasNoContentToErase() {
        // P0D, as an operator writes "keep" in the settings
        assertEquals(Optional.empty(), new RetentionPolicy("t", Duration.parse("P0D"), Duration.ZERO).eraseBefore(NOW));
        assertEquals(Optional.empty(), new RetentionPolicy("t", Duration.ZERO, Duration.ZERO).dropBefore(NOW));
        assertEquals(Optional.empty(), new RetentionPolicy("t", null, Duration.ofDays(2)).eraseBefore(NOW));
        // erasure without ever dropping rows is a valid choice
        assertTrue(new RetentionPolicy("t", Duration.ofDays(2), Duration.ZERO).eraseBefore(NOW).isPresent());
    }

    @Test
    void aWindowShorterThanADayIsRefusedNamingTheTableAndTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new RetentionPolicy("callback_log", Duration.ofMinutes(30), Duration.ofDays(180)));
        assertTrue(e.getMessage().contains("callback_log: erase-after PT30M"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> new RetentionPolicy("t", Duration.ofDays(1), Duration.ofDays(-1)));
    }

    @Test
    void contentCannotOutliveItsRows() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new RetentionPolicy("conversation_message", Duration.ofDays(90), Duration.ofDays(30)));
        assertTrue(e.getMessage().contains("longer than drop-after"), e.getMessage());
    }
}
