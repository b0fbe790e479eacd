package io.wecominbox.ingest;

import io.wecominbox.callbacklog.IncomingDelivery;
import io.wecominbox.event.EventKeys;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.wecom.WeComApp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * A POSTed callback that passed every check: signed by the app's token, decrypted with its key, addressed to
 * its corp, and parsed. Carries what callback_log keeps "as received" next to what it means.
 */
public record OpenedCallback(WeComApp app, CallbackQuery query, String rawBody, CallbackEnvelope envelope,
                             String plaintext, WeComEvent event) {

    /** {@code {app}:{EventKeys.keyOf(event)}}: the same event delivered again has the same key. */
    public String eventKey() {
        return app.name() + ":" + EventKeys.keyOf(event);
    }

    /** The AgentID of the message, else of the envelope, else the configured one. */
    public String agentId() {
        if (event.agentId() != null) {
            return event.agentId();
        }
        return envelope.agentId() != null && !envelope.agentId().isBlank() ? envelope.agentId() : app.agentId();
    }

    /** The delivery as callback_log stores it, received now from {@code remoteAddr}. */
    IncomingDelivery delivery(OffsetDateTime receivedAt, String remoteAddr) {
        long created = event.createTime();
        return new IncomingDelivery(app.name(), app.corpId(), agentId(), query.raw(), rawBody, plaintext,
            event.msgType(), event.typeName(), event.changeType(), eventKey(),
            created > 0 ? OffsetDateTime.ofInstant(Instant.ofEpochSecond(created), ZoneOffset.UTC).toString() : null,
            receivedAt, remoteAddr, null, null);
    }
}
