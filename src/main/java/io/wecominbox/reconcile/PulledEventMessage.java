package io.wecominbox.reconcile;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.MalformedXmlException;
import io.wecominbox.event.PulledContact;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.messaging.EventEnvelope;

/**
 * A pulled record as a handler-queue message, in the one event format ({@link EventEnvelope}) with the
 * reconcile_run that published it. No callbackLogId: a pull is not a callback, and callback_log stays
 * callbacks only. No duplicate id either: a pass re-sends a record only after a cursor was refused, and the
 * handlers' dedup (key: the relationship's generation) absorbs it.
 */
final class PulledEventMessage {

    static EventEnvelope of(String app, PulledContact pulled) {
        String xml = pulled.toXml();
        WeComEvent event;
        try {
            event = WeComEvent.parse(xml);
        } catch (MalformedXmlException e) {
            throw new IllegalStateException("a pulled record's own XML does not parse", e);
        }
        return new EventEnvelope(xml, app, event.typeName(), event.changeType(), app + ":" + EventKeys.keyOf(event),
            null, 0, event.createTime(), null, null, pulled.runId(), null);
    }

    private PulledEventMessage() {
    }
}
