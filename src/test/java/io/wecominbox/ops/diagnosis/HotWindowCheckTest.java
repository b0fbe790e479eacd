package io.wecominbox.ops.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.handler.HandlerCatalog.HandlerPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HotWindowCheckTest {

    private static final ImpliedHotWindow P99_90S = ImpliedHotWindow.fromP99(90); // 180 .. 270 s

    private static DedupPolicy hot(Duration window) {
        return DedupPolicy.builder().hotWindow(window).build();
    }

    @Test
    void theImpliedWindowIsTwoToThreeTimesTheP99AndRecommendsTheUpperBound() {
        assertEquals(180.0, P99_90S.lowerSeconds());
        assertEquals(270.0, P99_90S.upperSeconds());
        assertEquals("PT3M", P99_90S.lower());
        assertEquals("PT4M30S", P99_90S.recommended());
    }

    @Test
    void isoBoundsRoundUpToWholeSeconds() {
        assertEquals("PT4M30S", ImpliedHotWindow.fromP99(89.82).recommended()); // 269.46 s
    }

    @Test
    void aHotWindowBelowTwiceTheP99IsShorterThanImpliedWithAWarningNamingTheSetting() {
        HandlerHotWindow crm = HotWindowCheck.check("crm", hot(Duration.ofSeconds(8)), P99_90S);
        assertEquals(HotWindowVerdict.SHORTER_THAN_IMPLIED, crm.verdict());
        assertEquals(8.0, crm.hotWindowSeconds());
        assertTrue(crm.warning().contains("wecom.handler.crm.hot-window to at least PT4M30S"), crm.warning());
        assertTrue(crm.warning().contains("cold tier (handler_dedup) still catches them"), crm.warning());
    }

    @Test
    void withoutAColdTierTheWarningSaysTheRetryRunsAgain() {
        DedupPolicy hotOnly = DedupPolicy.builder().hotWindow(Duration.ofSeconds(30)).coldWindow(Duration.ZERO).build();
        assertTrue(HotWindowCheck.check("x", hotOnly, P99_90S).warning().contains("runs the handler again"));
    }

    @Test
    void betweenTheBoundsIsWithinImpliedAndStillWarned() {
        HandlerHotWindow h = HotWindowCheck.check("bot", hot(Duration.ofSeconds(200)), P99_90S);
        assertEquals(HotWindowVerdict.WITHIN_IMPLIED, h.verdict());
        assertTrue(h.warning().startsWith("bot: hot window PT3M20S covers 2 ×"), h.warning());
    }

    @Test
    void atOrAboveThreeTimesTheP99CoversWithoutWarning() {
        HandlerHotWindow h = HotWindowCheck.check("welcome", hot(Duration.ofSeconds(270)), P99_90S);
        assertEquals(HotWindowVerdict.COVERS, h.verdict());
        assertNull(h.warning());
    }

    @Test
    void naturallyIdempotentHandlersAndASwitchedOffHotTierAreNotCompared() {
        assertEquals(HotWindowVerdict.NOT_APPLICABLE,
            HotWindowCheck.check("contact", DedupPolicy.naturallyIdempotentHandler(), P99_90S).verdict());
        HandlerHotWindow off = HotWindowCheck.check("crm", hot(Duration.ZERO), P99_90S);
        assertEquals(HotWindowVerdict.NO_HOT_TIER, off.verdict());
        assertNull(off.warning());
    }

    @Test
    void withNothingMeasuredEveryDedupHandlerIsNoDataAndNobodyIsWarned() {
        MeasuredRetrySpan none = new MeasuredRetrySpan(12, 12, 0, null, null, null);
        RetrySpanReport report = RetrySpanReports.build("P7D", Instant.EPOCH, null, none, List.of(
            new HandlerPolicy("crm", hot(Duration.ofSeconds(8))),
            new HandlerPolicy("contact", DedupPolicy.naturallyIdempotentHandler())));
        assertEquals("NO_DATA", report.status());
        assertNull(report.recommendedHotWindow());
        assertEquals(List.of(HotWindowVerdict.NO_DATA, HotWindowVerdict.NOT_APPLICABLE),
            report.handlers().stream().map(HandlerHotWindow::verdict).toList());
        assertEquals(List.of(), report.warnings());
        assertTrue(report.note().contains("12 deliveries"), report.note());
    }

    @Test
    void aSmallSampleIsSaidToBeOne() {
        MeasuredRetrySpan few = new MeasuredRetrySpan(20, 10, 4, 40.0, 89.82, 90.0);
        RetrySpanReport report = RetrySpanReports.build("PT6H", Instant.EPOCH, "customer", few, List.of());
        assertEquals("MEASURED", report.status());
        assertTrue(report.note().contains("Only 4 repeated events"), report.note());
        assertTrue(report.note().contains("for app customer"), report.note());
    }
}
