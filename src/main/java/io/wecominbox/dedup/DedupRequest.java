package io.wecominbox.dedup;

/**
 * One delivery at one handler, as the dedup gate sees it.
 *
 * @param messageId the JMS message id: the owner of a hot claim, stable across redeliveries of the message
 */
public record DedupRequest(String handler, String dedupKey, String eventKey, String batchId, String app,
                           String messageId, long callbackLogId, int deliveryCount, DedupPolicy policy) {

    ColdRecord coldRecord() {
        return new ColdRecord(dedupKey, handler, eventKey, batchId, app, messageId, callbackLogId,
            policy.coldWindow());
    }
}
