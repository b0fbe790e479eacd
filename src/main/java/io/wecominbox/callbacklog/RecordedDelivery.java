package io.wecominbox.callbacklog;

import java.math.BigDecimal;

/** The callback_log row a delivery became: its id, its attempt number and the gap to the previous one. */
public record RecordedDelivery(long callbackLogId, int attempt, BigDecimal secondsSincePrevious) {
}
