package io.wecominbox.dedup;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the framework protects one handler from repeats. Two windows: the hot tier (Redis, minutes to hours:
 * automatic retries and redeliveries) in front of the cold tier (a database row under a unique key, days to
 * months: manual replays and reconciliation). A zero window switches that tier off. A naturally idempotent
 * handler (its effect is an upsert keyed by the event) gets no dedup record at all.
 *
 * <p>Built with {@link #builder()}; each value can be overridden by config
 * ({@code wecom.handler.<name>.hot-window}, {@code .cold-window}, {@code .on-hot-store-down},
 * {@code .on-cold-store-down}).
 */
public record DedupPolicy(Duration hotWindow, Duration coldWindow, StoreDownAction onHotStoreDown,
                          StoreDownAction onColdStoreDown, boolean naturallyIdempotent) {

    public static final Duration DEFAULT_HOT_WINDOW = Duration.ofMinutes(15);
    public static final Duration DEFAULT_COLD_WINDOW = Duration.ofDays(30);

    public DedupPolicy {
        Objects.requireNonNull(hotWindow, "hotWindow");
        Objects.requireNonNull(coldWindow, "coldWindow");
        Objects.requireNonNull(onHotStoreDown, "onHotStoreDown");
        Objects.requireNonNull(onColdStoreDown, "onColdStoreDown");
        if (hotWindow.isNegative() || coldWindow.isNegative()) {
            throw new IllegalArgumentException("windows must not be negative");
        }
    }

    /** The effect is idempotent by itself (e.g. an upsert keyed by the event): no claim, no record. */
    public static DedupPolicy naturallyIdempotentHandler() {
        return new DedupPolicy(Duration.ZERO, Duration.ZERO, StoreDownAction.PROCEED, StoreDownAction.PROCEED, true);
    }

    /**
     * Defaults: 15 min hot (WeCom's retries end ~90 s after the first try; JMS back-off stays within minutes),
     * 30 days cold; a dead Redis is skipped (the database still protects), a dead database rejects.
     */
    public static Builder builder() {
        return new Builder();
    }

    public boolean usesHotTier() {
        return !naturallyIdempotent && !hotWindow.isZero();
    }

    public boolean usesColdTier() {
        return !naturallyIdempotent && !coldWindow.isZero();
    }

    /**
     * How long a processed event is still recognised as a repeat: the cold window when there is a cold tier,
     * else the hot window (zero with neither). Empty for a naturally idempotent handler: a repeat changes
     * nothing at any age. Past it, a repeat runs the effect as if new (replays are refused beyond it).
     */
    public Optional<Duration> remembersFor() {
        if (naturallyIdempotent) {
            return Optional.empty();
        }
        return Optional.of(usesColdTier() ? coldWindow : hotWindow);
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.hotWindow = hotWindow;
        b.coldWindow = coldWindow;
        b.onHotStoreDown = onHotStoreDown;
        b.onColdStoreDown = onColdStoreDown;
        return b;
    }

    @Override
    public String toString() {
        return naturallyIdempotent ? "naturally idempotent (no dedup record)"
            : "hot " + hotWindow + " (" + onHotStoreDown + " when down), cold " + coldWindow + " ("
                + onColdStoreDown + " when down)";
    }

    /** Fluent construction, so no call site is a row of positional values. */
    public static final class Builder {
        private Duration hotWindow = DEFAULT_HOT_WINDOW;
        private Duration coldWindow = DEFAULT_COLD_WINDOW;
        private StoreDownAction onHotStoreDown = StoreDownAction.PROCEED;
        private StoreDownAction onColdStoreDown = StoreDownAction.REJECT;

        private Builder() {
        }

        public Builder hotWindow(Duration window) {
            this.hotWindow = window;
            return this;
        }

        public Builder coldWindow(Duration window) {
            this.coldWindow = window;
            return this;
        }

        public Builder onHotStoreDown(StoreDownAction action) {
            this.onHotStoreDown = action;
            return this;
        }

        public Builder onColdStoreDown(StoreDownAction action) {
            this.onColdStoreDown = action;
            return this;
        }

        public DedupPolicy build() {
            return new DedupPolicy(hotWindow, coldWindow, onHotStoreDown, onColdStoreDown, false);
        }
    }
}
