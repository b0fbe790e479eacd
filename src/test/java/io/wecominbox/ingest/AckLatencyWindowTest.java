package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wecominbox.ingest.AckLatencyWindow.Bucket;
import io.wecominbox.ingest.AckLatencyWindow.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AckLatencyWindowTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void countsOutcomesAndGivesBucketCeilingsAsPercentiles() {
        AckLatencyWindow window = new AckLatencyWindow();
        for (int i = 0; i < 19; i++) {
            window.record(Outcome.ACCEPTED, ms(3), T0.plusSeconds(1));
        }
        window.record(Outcome.REJECTED, ms(180), T0.plusSeconds(2));
        window.record(Outcome.FAILED, ms(2100), T0.plusSeconds(12));

        List<Bucket> buckets = window.series(T0, T0.plusSeconds(19), Duration.ofSeconds(10));

        assertEquals(2, buckets.size());
        Bucket first = buckets.get(0);
        assertEquals(T0, first.at());
        assertEquals(19, first.accepted());
        assertEquals(1, first.rejected());
        assertEquals(5.0, first.p50Ms());
        assertEquals(5.0, first.p95Ms());
        assertEquals(180.0, first.maxMs());
        assertEquals(1, buckets.get(1).failed());
        assertEquals(2100.0, buckets.get(1).p95Ms(), "capped by the real maximum");
    }

    @Test
    void aggregatesSlotsIntoWiderStepsAndForgetsSlotsOlderThanTheWindow() {
        AckLatencyWindow window = new AckLatencyWindow();
        window.record(Outcome.ACCEPTED, ms(1), T0);
        window.record(Outcome.ACCEPTED, ms(1), T0.plusSeconds(50));
        Instant later = T0.plus(AckLatencyWindow.SLOT.multipliedBy(AckLatencyWindow.SLOTS));
        window.record(Outcome.ACCEPTED, ms(1), later); // same ring slot as T0: replaces it

        List<Bucket> minute = window.series(T0, T0.plusSeconds(59), Duration.ofMinutes(1));
        assertEquals(1, minute.size());
        assertEquals(1, minute.get(0).accepted(), "the T0 slot was reused for a later time");

        Bucket empty = window.series(later.plusSeconds(10), later.plusSeconds(19), Duration.ofSeconds(10)).get(0);
        assertEquals(0, empty.accepted());
        assertNull(empty.p50Ms());
    }

    private static long ms(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }
}
