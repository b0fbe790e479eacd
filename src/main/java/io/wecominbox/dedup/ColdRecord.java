package io.wecominbox.dedup;

import java.time.Duration;

/** One handler_dedup row to claim: the key, what it was made from, and how long it protects. */
public record ColdRecord(String dedupKey, String handler, String eventKey, String batchId, String app,
                         String messageId, long callbackLogId, Duration window) {
}
