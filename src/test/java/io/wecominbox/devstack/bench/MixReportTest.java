package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MixReportTest {

    private static final long MS = 1_000_000L;
    private final MixBenchOptions options = MixBenchOptions.parse("--base-url", "http://127.0.0.1:1",
            "--command", "src/bench/mix-bench.sh --rates 500");
    private final List<String> cpu = List.of("liberty", "artemis", "postgres", "redis", CpuMeter.DRIVER,
            CpuMeter.PGBENCH, CpuMeter.MACHINE, CpuMeter.OTHER);

    @Test
    void aStepRowShowsTheAnsweredShareAndAnUnansweredPercentileAsBeyondTheTimeout() {
        String md = report(step(500, 900, 100, 4)).markdown();
        assertTrue(md.contains("| 500 | 1000 | 90.0 % | 10.0 | > 5000 | > 5000 | 100 (60) | 960 | 100 no answer in 5 s |"),
                md);
    }

    @Test
    void welcomesShowSentExpiredWithTheLateCallsAndP99InSeconds() {
        String md = report(step(500, 1000, 0, 4)).markdown();
        assertTrue(md.contains("| 500 | 200 | 190 | 10 (4) | 0 | 0.40 | 1.20 | 800 (0) |"), md);
    }

    @Test
    void eachHandlerShowsItsBacklogAtTheEndAndItsDrainTimeOrWhatWasLeft() {
        String md = report(step(500, 1000, 0, 4)).markdown();
        assertTrue(md.contains("| offered/s | crm | welcome |"), md);
        assertTrue(md.contains("| 500 | 12,000 → 3,000 left | 40 → 1.5 s |"), md);
    }

    @Test
    void cpuIsInMillisecondsPerEventPerProcessAndTheMachineInPercent() {
        String md = report(step(500, 1000, 0, 4)).markdown();
        assertTrue(md.contains("| offered/s | liberty ms | artemis ms | postgres ms | redis ms | driver ms | machine % | other ms |"), md);
        assertTrue(md.contains("| 500 | 1.20 | 0.80 | 0.50 | 0.05 | 0.10 | 180 | 0.02 |"), md);
    }

    @Test
    void theSummaryJudgesTheTargetsAtFiveHundredAndTheClosedLoopRatioToPgbench() {
        MixReport report = report(step(500, 1000, 0, 0));
        report.pgbench(result("pgbench single-row insert", 16, 10_000));
        report.pgbench(result("pgbench single-row insert (after)", 16, 12_000));
        report.closed(result("mix closed loop, consumers running", 16, 1_650));
        String md = report.markdown();
        assertTrue(md.contains("every delivery answered within 5 s: **met** (100.0 %)"), md);
        assertTrue(md.contains("ACK p99 ≤ 50 ms: **met**"), md);
        assertTrue(md.contains("0 welcomes expired: **missed** (10)"), md);
        assertTrue(md.contains("welcome p99 ≤ 1 s: **missed** (1.20 s)"), md);
        assertTrue(md.contains("**met** (1650/s = 0.150 ×)"), md);
        assertTrue(md.contains("| 16 | 1650 |"), md);
    }

    @Test
    void withoutPgbenchNoRatioIsClaimed() {
        MixReport report = report(step(300, 600, 0, 0));
        report.closed(result("mix closed loop, consumers running", 16, 200));
        String md = report.markdown();
        assertTrue(md.contains("not judged (no pgbench)"), md);
        assertTrue(md.contains("no 500/s step"), md);
    }

    private MixReport report(MixStepResult step) {
        MixReport report = new MixReport(options, cpu, "Run of test.");
        report.step(step);
        return report;
    }

    /** A step of 1,000 events: {@code answered} within 5 s at 10 ms each, the rest unanswered. */
    private static MixStepResult step(double rate, int answered, int unanswered, int late) {
        LatencySamples ack = new LatencySamples();
        for (int i = 0; i < answered; i++) {
            ack.add(10 * MS);
        }
        for (int i = 0; i < unanswered; i++) {
            ack.addUnanswered();
        }
        Map<String, Long> failures = unanswered == 0 ? Map.of() : Map.of("no answer in 5 s", (long) unanswered);
        MixStepResult.DeliverySummary deliveries = new MixStepResult.DeliverySummary(answered + unanswered, answered,
                ack.summary(), unanswered, unanswered * 6L / 10, answered + unanswered * 6L / 10, 0, failures);
        LatencySamples welcome = new LatencySamples();
        for (int i = 0; i < 190; i++) {
            welcome.add((i < 100 ? 400 : 1200) * MS);
        }
        WelcomeOutcome welcomes = new WelcomeOutcome(200, 190, 10, 0, late, welcome.summary());
        TreeMap<String, HandlerDrain.Result> drain = new TreeMap<>(Map.of(
                "crm", new HandlerDrain.Result(12_000, Double.NaN, 3_000),
                "welcome", new HandlerDrain.Result(40, 1.5, 0)));
        Map<String, Double> perEvent = new LinkedHashMap<>();
        perEvent.put("liberty", 1.2);
        perEvent.put("artemis", 0.8);
        perEvent.put("postgres", 0.5);
        perEvent.put("redis", 0.05);
        perEvent.put(CpuMeter.DRIVER, 0.1);
        perEvent.put(CpuMeter.OTHER, 0.02);
        return new MixStepResult(rate, deliveries, welcomes, 800, 0, drain, perEvent,
                Map.of(CpuMeter.MACHINE, 180.0));
    }

    private static PhaseResult result(String name, int concurrency, double perSecond) {
        return new PhaseResult(name, concurrency, Double.NaN, perSecond, (long) perSecond, Map.of(),
                new LatencySamples.Summary(1, 5, 20, 30, 40), Map.of(), 0);
    }
}
