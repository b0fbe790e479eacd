package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatencySamplesTest {

    private static final long MS = 1_000_000L;

    @Test
    void percentilesAreNearestRankOverEverySample() {
        LatencySamples samples = new LatencySamples();
        for (int i = 1000; i >= 1; i--) { // added out of order: 1 .. 1000 ms
            samples.add(i * MS);
        }
        LatencySamples.Summary s = samples.summary();
        assertEquals(1000, s.count());
        assertEquals(500.0, s.p50());
        assertEquals(990.0, s.p99());
        assertEquals(999.0, s.p999());
        assertEquals(1000.0, s.max());
    }

    @Test
    void aSingleSampleIsEveryPercentile() {
        LatencySamples samples = new LatencySamples();
        samples.add(7 * MS);
        assertEquals(7.0, samples.summary().p50());
        assertEquals(7.0, samples.summary().p999());
    }

    @Test
    void noSamplesGiveNoFigures() {
        assertTrue(Double.isNaN(new LatencySamples().summary().p99()));
    }

    @Test
    void unansweredRequestsRankAboveEveryAnswerAndMakeTheirPercentilesInfinite() {
        LatencySamples samples = new LatencySamples();
        for (int i = 1; i <= 99; i++) {
            samples.add(i * MS);
        }
        samples.addUnanswered(); // 1 of 100: p99 is still an answer, the max is not
        LatencySamples.Summary s = samples.summary();
        assertEquals(50.0, s.p50());
        assertEquals(99.0, s.p99());
        assertEquals(Double.POSITIVE_INFINITY, s.max());
        samples.addUnanswered(); // 2 of 101: the 100th rank is unanswered
        assertEquals(Double.POSITIVE_INFINITY, samples.summary().p99());
    }
}
