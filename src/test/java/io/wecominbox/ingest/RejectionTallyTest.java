package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RejectionTallyTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:15:00Z");

    @Test
    void aFloodBecomesOneEntryPerHourAppAndReason() {
        RejectionTally tally = new RejectionTally(100);
        IntStream.range(0, 100_000).parallel().forEach(i ->
                tally.add("customer", Rejection.BAD_SIGNATURE, T0.plusMillis(i), "10.0.0." + (i % 250), "POST #" + i));
        List<RejectionTally.Entry> drained = tally.drain();
        assertEquals(1, drained.size());
        RejectionTally.Entry e = drained.get(0);
        assertEquals(100_000, e.count());
        assertEquals(Instant.parse("2026-11-30T10:00:00Z"), e.hourBucket());
        assertEquals("bad_signature", e.reason());
        assertEquals(T0, e.firstSeen());
        assertEquals(T0.plusMillis(99_999), e.lastSeen());
        assertEquals("POST #99999", e.sample(), "the latest request's sample");
        assertEquals(0, tally.size(), "drained");
    }

    @Test
    void hoursAppsAndReasonsAreSeparateEntries() {
        RejectionTally tally = new RejectionTally(100);
        tally.add("customer", Rejection.BAD_SIGNATURE, T0, "a", "x");
        tally.add("customer", Rejection.BAD_SIGNATURE, T0.plusSeconds(3600), "a", "x");
        tally.add("contacts", Rejection.BAD_SIGNATURE, T0, "a", "x");
        tally.add("customer", Rejection.FORBIDDEN_XML, T0, "a", "x");
        assertEquals(4, tally.drain().size());
    }

    @Test
    void aFailedFlushPutsTheCountsBackMergedWithNewOnes() {
        RejectionTally tally = new RejectionTally(100);
        tally.add("?", Rejection.UNKNOWN_APP, T0, "a", "first");
        List<RejectionTally.Entry> drained = tally.drain();
        tally.add("?", Rejection.UNKNOWN_APP, T0.plusSeconds(5), "b", "second");
        tally.restore(drained);
        RejectionTally.Entry e = tally.drain().get(0);
        assertEquals(2, e.count());
        assertEquals(T0, e.firstSeen());
        assertEquals("b", e.lastRemoteAddr());
        assertEquals("second", e.sample());
    }

    @Test
    void pastTheKeyLimitRejectionsAreOnlyCountedAsDropped() {
        RejectionTally tally = new RejectionTally(2);
        tally.add("a", Rejection.BAD_SIGNATURE, T0, "r", "x");
        tally.add("b", Rejection.BAD_SIGNATURE, T0, "r", "x");
        tally.add("c", Rejection.BAD_SIGNATURE, T0, "r", "x");
        tally.add("a", Rejection.BAD_SIGNATURE, T0, "r", "x");
        assertEquals(2, tally.size());
        assertEquals(1, tally.takeDropped());
        assertEquals(0, tally.takeDropped());
    }

    @Test
    void samplesAreShortAndOnOneLine() {
        String sample = RejectionTally.sample("line1\nline2\u0000" + "x".repeat(1000));
        assertEquals(RejectionTally.MAX_SAMPLE_CHARS, sample.length());
        assertTrue(sample.startsWith("line1?line2?x"));
    }
}
