package io.wecominbox.reconcile;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.MalformedXmlException;
import io.wecominbox.event.PulledContact;
import io.wecominbox.event.WeComEvent;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A pulled record as a handler-queue message, in the format the ingest publishes callbacks in (body: the
 * plaintext XML; properties app, eventType, changeType, eventKey, createTime, as DeliveryRecorder sets them)
 * plus {@value #RUN_ID}. No callbackLogId: a pull is not a callback, and callback_log stays callbacks only.
 * This is the one place a pulled message is built, so moving it onto a shared envelope type is one edit.
 */
record PulledEventMessage(String body, Map<String, Object> properties) {

    /** JMS property naming the reconcile_run that published the message. */
    static final String RUN_ID = "reconcileRunId";

    static PulledEventMessage of(String app, PulledContact pulled) {
        String xml = pulled.toXml();
        WeComEvent event;
        try {
            event = WeComEvent.parse(xml);
        } catch (MalformedXmlException e) {
            throw new IllegalStateException("a pulled record's own XML does not parse", e);
        }
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("app", app);
        properties.put("eventType", event.typeName());
        properties.put("changeType", event.changeType());
        properties.put("eventKey", app + ":" + EventKeys.keyOf(event));
        properties.put("createTime", event.createTime());
        properties.put(RUN_ID, pulled.runId());
        return new PulledEventMessage(xml, properties);
    }
}
