package io.wecominbox.callbacklog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.YearMonth;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MonthPartitionTest {

    @Test
    void namesAndBoundsAreTheMonthInUtcWithItsEndExcluded() {
        MonthPartition p = MonthPartition.containing(Instant.parse("2026-12-31T23:59:59Z"));
        assertEquals("callback_log_p202612", p.name());
        assertEquals(Instant.parse("2026-12-01T00:00:00Z"), p.start());
        assertEquals(Instant.parse("2027-01-01T00:00:00Z"), p.end());
        assertEquals("callback_log_p202701", p.next().name());
    }

    @Test
    void onlyMonthNamesAreRecognised() {
        assertEquals(Optional.of(new MonthPartition(YearMonth.of(2025, 3))), MonthPartition.ofName("callback_log_p202503"));
        assertEquals(Optional.empty(), MonthPartition.ofName("callback_log_default"));
        assertEquals(Optional.empty(), MonthPartition.ofName("callback_log_p202513"));
        assertEquals(Optional.empty(), MonthPartition.ofName("callback_log_p2025031"));
    }

    @Test
    void aMonthIsDroppedOnlyWhenItsLastInstantIsPastTheCutoff() {
        MonthPartition may = new MonthPartition(YearMonth.of(2026, 5));
        assertTrue(may.entirelyBefore(Instant.parse("2026-06-01T00:00:00Z")));
        assertFalse(may.entirelyBefore(Instant.parse("2026-05-31T23:59:59Z")));
    }
}
