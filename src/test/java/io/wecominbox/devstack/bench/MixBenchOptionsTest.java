package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MixBenchOptionsTest {

    @Test
    void theDefaultsAreIssue21sProtocol() {
        MixBenchOptions o = MixBenchOptions.parse("--base-url", "http://127.0.0.1:1");
        assertEquals(List.of(100.0, 200.0, 300.0, 500.0, 700.0, 1000.0), o.rates());
        assertEquals(20, o.stepSeconds());
        assertEquals(25, o.pauseSeconds());
        assertEquals(0.2, o.addShare());
        assertEquals(100, o.apiLatencyMillis());
        assertEquals(30, o.apiJitterMillis());
        assertEquals(0.0, o.slowTailRate());
        assertEquals(Duration.ofSeconds(5), o.ackTimeout());
        assertTrue(o.resend());
        assertEquals(16, o.concurrency());
    }

    @Test
    void aSlowTailAndNoResendsCanBeAskedFor() {
        MixBenchOptions o = MixBenchOptions.parse("--base-url", "u", "--api-slow-tail", "0.01@3000", "--resend", "off",
                "--watch", "liberty=12", "--watch", "redis=");
        assertEquals(0.01, o.slowTailRate());
        assertEquals(3000, o.slowTailMillis());
        assertFalse(o.resend());
        assertEquals(Map.of("liberty", 12L), o.watch()); // a blank pid (no private Redis) adds no column
    }

    @Test
    void aBacklogGoesToCrmAndConversationUnlessOtherQueuesAreNamed() {
        MixBenchOptions none = MixBenchOptions.parse("--base-url", "u");
        assertEquals(0, none.backlog());
        MixBenchOptions o = MixBenchOptions.parse("--base-url", "u", "--backlog", "100000");
        assertEquals(100_000, o.backlog());
        assertEquals(List.of("crm", "conversation"), o.backlogQueues());
        assertEquals(List.of("contact"), MixBenchOptions.parse("--base-url", "u", "--backlog", "10",
                "--backlog-queues", "contact").backlogQueues());
    }

    @Test
    void theAckLogIsWrittenOnlyWhereAsked() {
        assertTrue(MixBenchOptions.parse("--base-url", "u").ackLog().isEmpty());
        assertEquals(java.nio.file.Path.of("acks.csv"),
                MixBenchOptions.parse("--base-url", "u", "--ack-log", "acks.csv").ackLog().orElseThrow());
    }

    @Test
    void anUnknownOptionOrAMissingUrlIsRefusedWithTheUsage() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> MixBenchOptions.parse("--base-url", "u", "--phases", "cold"));
        assertTrue(unknown.getMessage().contains("usage: MixBenchMain"));
        assertThrows(IllegalArgumentException.class, () -> MixBenchOptions.parse("--rates", "100"));
        assertThrows(IllegalArgumentException.class, () -> MixBenchOptions.parse("--base-url", "u", "--resend", "maybe"));
    }

    @Test
    void cpuPerEventIsTheShareOfACoreTimesTheWindowOverTheEvents() {
        Map<String, Double> perEvent = MixStepResult.perEvent(Map.of("liberty", 50.0), 45, 10_000);
        assertEquals(2.25, perEvent.get("liberty"), 1e-9); // 0.5 core × 45 s = 22.5 s over 10,000 events
        assertTrue(Double.isNaN(MixStepResult.perEvent(Map.of("liberty", 50.0), 45, 0).get("liberty")));
    }
}
