package io.wecominbox.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wecominbox.cluster.NodeFigures;
import io.wecominbox.ingest.AckLatencyWindow;
import io.wecominbox.ingest.AckLatencyWindow.Outcome;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PipelineNodeFiguresTest {

    private static final Instant NOW = Instant.parse("2026-12-02T10:00:55Z");

    @Test
    void sumsTheLastMinuteAndKeepsItsWorstSlotsLatency() {
        AckLatencyWindow window = new AckLatencyWindow();
        window.record(Outcome.ACCEPTED, ms(3), NOW.minusSeconds(200)); // older than a minute: not counted
        for (int i = 0; i < 10; i++) {
            window.record(Outcome.ACCEPTED, ms(3), NOW.minusSeconds(40));
        }
        window.record(Outcome.ACCEPTED, ms(180), NOW.minusSeconds(5));
        window.record(Outcome.FAILED, ms(2100), NOW.minusSeconds(5));

        NodeFigures figures = PipelineNodeFigures.of(window, NOW, 7);

        assertEquals(11, figures.accepted());
        assertEquals(1, figures.failed());
        assertEquals(2100.0, figures.ackMaxMs());
        assertEquals(2100.0, figures.ackP95Ms(), "the worst 10-second slot's p95, not an average over the minute");
        assertEquals(7, figures.relayBacklog());
    }

    @Test
    void aQuietNodeReportsNoLatencyRatherThanZero() {
        NodeFigures figures = PipelineNodeFigures.of(new AckLatencyWindow(), NOW, 0);

        assertEquals(0, figures.accepted());
        assertNull(figures.ackP95Ms());
        assertNull(figures.ackMaxMs());
    }

    private static long ms(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }
}
