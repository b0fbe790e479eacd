package io.wecominbox.dedup;

/**
 * One delivery at one handler, as the dedup gate sees it.
 *
 * @param messageId the JMS message id: the owner of a hot claim, stable across redeliveries of the message
 * @param replayId  the replay_run that published this message, or null for a delivery from the ingest; only
 *                  recorded with the disposition (it is not part of the key: a replay without a batch id must
 *                  meet the original's dedup record)
 */
public record DedupRequest(String handler, String dedupKey, String eventKey, String batchId, String app,
                           String messageId, long callbackLogId, int deliveryCount, DedupPolicy policy,
                           Long replayId) {

    ColdRecord coldRecord() {
        return new ColdRecord(dedupKey, handler, eventKey, batchId, app, messageId, callbackLogId,
            policy.coldWindow());
    }
}
