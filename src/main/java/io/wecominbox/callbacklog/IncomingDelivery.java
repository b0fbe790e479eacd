package io.wecominbox.callbacklog;

import java.time.OffsetDateTime;

/**
 * A verified, decrypted delivery as callback_log stores it: what the group commit writes, and what the broker
 * keeps (as JSON) while PostgreSQL is down.
 *
 * @param eventCreatedAt the event's CreateTime as ISO-8601, null when absent
 * @param parkedId       set when the delivery waited in the broker (wecom.ingest.pending), else null
 * @param maybeStoredAs  the callback_log_id its group commit gave it when that commit failed with its outcome
 *                       unknown (the connection lost during COMMIT): the drainer skips it if that row committed
 */
public record IncomingDelivery(String app, String corpId, String agentId, String queryString, String rawBody,
                               String plaintext, String msgType, String eventType, String changeType,
                               String eventKey, String eventCreatedAt, OffsetDateTime receivedAt, String remoteAddr,
                               String parkedId, Long maybeStoredAs) {

    /** As kept in the broker: its own id, and the row its failed group commit may have written. */
    public IncomingDelivery parked(String id, Long possiblyStoredAs) {
        return new IncomingDelivery(app, corpId, agentId, queryString, rawBody, plaintext, msgType, eventType,
            changeType, eventKey, eventCreatedAt, receivedAt, remoteAddr, id, possiblyStoredAs);
    }
}
