package io.wecominbox.ops.diagnosis;

import jakarta.json.bind.annotation.JsonbNillable;

/**
 * One handler's configured hot window against the implied one.
 *
 * @param hotWindowSeconds the configured hot window in seconds (0 for a naturally idempotent handler)
 * @param warning          what to do about it; null unless the verdict is WITHIN_IMPLIED or SHORTER_THAN_IMPLIED
 */
public record HandlerHotWindow(String handler, String hotWindow, double hotWindowSeconds, String coldWindow,
                               HotWindowVerdict verdict, @JsonbNillable String warning) {
}
