package io.wecominbox.handler.welcome;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The time a WelcomeCode leaves us, and whether an attempt (now, or the broker's next redelivery) still fits.
 * The code is valid {@value #VALIDITY_SECONDS} s after the event's CreateTime by WeCom's clock; the deadline
 * keeps a margin for clock skew. The redelivery schedule must match the broker's address-setting for
 * {@code wecom.handler.welcome} (src/main/broker/wecom-inbox-broker.xml), so the handler can tell whether a rollback
 * would be redelivered in time or whether to record EXPIRED now.
 *
 * @param margin             taken off the 20 s: our clock against WeCom's
 * @param minCallTime        an attempt is not started with less time left than this
 * @param redeliveryDelay    the broker's redelivery-delay
 * @param multiplier         the broker's redelivery-delay-multiplier
 * @param maxRedeliveryDelay the broker's max-redelivery-delay
 */
public record WelcomeWindow(Duration margin, Duration minCallTime, Duration redeliveryDelay, double multiplier,
                            Duration maxRedeliveryDelay) {

    public static final int VALIDITY_SECONDS = 20;
    public static final Duration VALIDITY = Duration.ofSeconds(VALIDITY_SECONDS);

    public WelcomeWindow {
        Objects.requireNonNull(margin, "margin");
        Objects.requireNonNull(minCallTime, "minCallTime");
        Objects.requireNonNull(redeliveryDelay, "redeliveryDelay");
        Objects.requireNonNull(maxRedeliveryDelay, "maxRedeliveryDelay");
        if (margin.isNegative() || minCallTime.isNegative() || redeliveryDelay.isNegative() || multiplier < 1.0) {
            throw new IllegalArgumentException("welcome window settings must not be negative (multiplier >= 1)");
        }
    }

    /** Last instant a send may start: CreateTime + 20 s - margin. */
    public Instant deadline(Instant createTime) {
        return createTime.plus(VALIDITY).minus(margin);
    }

    /** True when a call started now has at least {@link #minCallTime()} before the deadline. */
    public boolean canStart(Instant now, Instant deadline) {
        return !now.plus(minCallTime).isAfter(deadline);
    }

    /** The broker's delay before redelivering a message whose attempt {@code deliveryCount} rolled back. */
    public Duration redeliveryDelayAfter(int deliveryCount) {
        double millis = redeliveryDelay.toMillis() * Math.pow(multiplier, Math.max(0, deliveryCount - 1));
        return Duration.ofMillis((long) Math.min(millis, maxRedeliveryDelay.toMillis()));
    }

    /**
     * True when a rollback now would be redelivered early enough for that attempt to start a call, with
     * {@link #minCallTime()} to spare for a late redelivery: an attempt that finds no time left can only record
     * EXPIRED without knowing what the one before it achieved.
     */
    public boolean nextAttemptCanStart(Instant now, Instant deadline, int deliveryCount) {
        return canStart(now.plus(redeliveryDelayAfter(deliveryCount)).plus(minCallTime), deadline);
    }
}
