package io.wecominbox.handler;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

/** The properties and body of one message from a handler queue, as the ingest (or a replay) published it. */
record EventMessage(String messageId, int deliveryCount, String app, String eventType, String eventKey,
                    String batchId, long callbackLogId, String plaintext) {

    /** JMS property a deliberate re-run (replay) sets: the batch it belongs to. */
    static final String BATCH_ID = "batchId";

    static EventMessage read(Message message) {
        try {
            return new EventMessage(message.getJMSMessageID(),
                message.propertyExists("JMSXDeliveryCount") ? message.getIntProperty("JMSXDeliveryCount") : 1,
                message.getStringProperty("app"), message.getStringProperty("eventType"),
                message.getStringProperty("eventKey"), blankToNull(message.getStringProperty(BATCH_ID)),
                message.propertyExists("callbackLogId") ? message.getLongProperty("callbackLogId") : 0,
                message.getBody(String.class));
        } catch (JMSException e) {
            // rethrown: the delivery rolls back and, after the broker's attempt limit, lands in the DLQ
            throw new IllegalStateException("unreadable event message", e);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
