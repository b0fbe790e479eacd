package io.wecominbox.simulator.platform;

import java.time.Duration;
import java.time.Instant;

/** One POST of one callback. {@code httpStatus} is 0 when no answer arrived. */
public record DeliveryAttempt(String eventId, String app, EventType type, int attempt, DeliveryStatus status,
                              int httpStatus, Duration latency, Instant sentAt) {
}
