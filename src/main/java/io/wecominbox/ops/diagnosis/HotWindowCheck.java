package io.wecominbox.ops.diagnosis;

import io.wecominbox.dedup.DedupPolicy;
import java.time.Duration;

/**
 * Compares a handler's configured hot window with the implied one. A hot window that is too short is not a
 * correctness problem while the cold tier is on (handler_dedup still catches the late retry), but each such
 * retry costs a database round trip under the unique key; with the cold tier off it would run again.
 */
public final class HotWindowCheck {

    private HotWindowCheck() {
    }

    /** {@code implied} null means nothing was measured. */
    public static HandlerHotWindow check(String handler, DedupPolicy policy, ImpliedHotWindow implied) {
        Duration hot = policy.naturallyIdempotent() ? Duration.ZERO : policy.hotWindow();
        double hotSeconds = hot.toMillis() / 1000.0;
        HotWindowVerdict verdict = verdict(policy, hotSeconds, implied);
        return new HandlerHotWindow(handler, hot.toString(), hotSeconds, policy.coldWindow().toString(), verdict,
            warning(handler, policy, verdict, implied));
    }

    static HotWindowVerdict verdict(DedupPolicy policy, double hotSeconds, ImpliedHotWindow implied) {
        if (policy.naturallyIdempotent()) {
            return HotWindowVerdict.NOT_APPLICABLE;
        }
        if (policy.hotWindow().isZero()) {
            return HotWindowVerdict.NO_HOT_TIER;
        }
        if (implied == null) {
            return HotWindowVerdict.NO_DATA;
        }
        if (hotSeconds < implied.lowerSeconds()) {
            return HotWindowVerdict.SHORTER_THAN_IMPLIED;
        }
        return hotSeconds < implied.upperSeconds() ? HotWindowVerdict.WITHIN_IMPLIED : HotWindowVerdict.COVERS;
    }

    private static String warning(String handler, DedupPolicy policy, HotWindowVerdict verdict,
                                  ImpliedHotWindow implied) {
        String setting = "wecom.handler." + handler + ".hot-window";
        String fallback = policy.usesColdTier()
            ? "the cold tier (handler_dedup) still catches them, at a database round trip each"
            : "its cold tier is off, so such a retry runs the handler again";
        return switch (verdict) {
            case SHORTER_THAN_IMPLIED -> handler + ": hot window " + policy.hotWindow() + " is shorter than 2 × the"
                + " P99 retry span (" + implied.lower() + "): retries arrive after the Redis key is gone and "
                + fallback + ". Set " + setting + " to at least " + implied.recommended() + " (3 × P99).";
            case WITHIN_IMPLIED -> handler + ": hot window " + policy.hotWindow() + " covers 2 × the P99 retry span"
                + " (" + implied.lower() + ") but not the recommended 3 × (" + implied.recommended() + "); set "
                + setting + " to at least " + implied.recommended() + ".";
            default -> null;
        };
    }
}
