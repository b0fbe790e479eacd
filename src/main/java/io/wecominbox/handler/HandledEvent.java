package io.wecominbox.handler;

import io.wecominbox.event.WeComEvent;
import io.wecominbox.logging.Redacted;

/**
 * What a handler gets: one delivery of one event, as the ingest published it, plus the framework's dedup key.
 *
 * @param app           the WeCom app the callback came to (its name in wecom.apps)
 * @param eventType     what routing uses: the Event for MsgType=event, else the MsgType
 * @param eventKey      {app}:{event key}: identical for every delivery of the same event
 * @param dedupKey      wecom:{handler}:{eventKey}[:{batchId}], the key this run was claimed under
 * @param batchId       a deliberate re-run's batch (replay), or null
 * @param callbackLogId the callback_log row of the delivery
 * @param deliveryCount JMSXDeliveryCount: above 1 when earlier attempts rolled back
 * @param plaintext     the decrypted callback XML
 * @param event         the same, parsed
 */
public record HandledEvent(String app, String eventType, String eventKey, String dedupKey, String batchId,
                           long callbackLogId, int deliveryCount, String plaintext, WeComEvent event) {

    /** For logs: the row id and a stable tag of the key, never the key (customers' identifiers) or content. */
    @Override
    public String toString() {
        return "HandledEvent[callbackLog=" + callbackLogId + " key=" + Redacted.id(dedupKey) + " type=" + eventType
            + " delivery=" + deliveryCount + "]";
    }
}
