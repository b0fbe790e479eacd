package io.wecominbox.ingest;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

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

    static IncomingDelivery of(OpenedCallback cb, OffsetDateTime receivedAt, String remoteAddr) {
        long created = cb.event().createTime();
        return new IncomingDelivery(cb.app().name(), cb.app().corpId(), cb.agentId(), cb.query().raw(), cb.rawBody(),
            cb.plaintext(), cb.event().msgType(), cb.event().typeName(), cb.event().changeType(), cb.eventKey(),
            created > 0 ? OffsetDateTime.ofInstant(Instant.ofEpochSecond(created), ZoneOffset.UTC).toString() : null,
            receivedAt, remoteAddr, null, null);
    }

    /** As kept in the broker: its own id, and the row its failed group commit may have written. */
    IncomingDelivery parked(String id, Long possiblyStoredAs) {
        return new IncomingDelivery(app, corpId, agentId, queryString, rawBody, plaintext, msgType, eventType,
            changeType, eventKey, eventCreatedAt, receivedAt, remoteAddr, id, possiblyStoredAs);
    }
}
