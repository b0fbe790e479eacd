package io.wecominbox.handler;

import io.wecominbox.messaging.EventEnvelope;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

/** One message from a handler queue: its envelope (as the relay, a replay or a pull wrote it) and its delivery. */
record EventMessage(String messageId, int deliveryCount, String app, String eventType, String eventKey,
                    String batchId, long callbackLogId, Long replayId, String plaintext) {

    static EventMessage read(Message message) {
        try {
            EventEnvelope e = EventEnvelope.from(message);
            return new EventMessage(message.getJMSMessageID(),
                message.propertyExists("JMSXDeliveryCount") ? message.getIntProperty("JMSXDeliveryCount") : 1,
                e.app(), e.eventType(), e.eventKey(), e.batchId(),
                e.callbackLogId() == null ? 0 : e.callbackLogId(), e.replayId(), e.body());
        } catch (JMSException e) {
            // rethrown: the delivery rolls back and, after the broker's attempt limit, lands in the DLQ
            throw new IllegalStateException("unreadable event message", e);
        }
    }
}
