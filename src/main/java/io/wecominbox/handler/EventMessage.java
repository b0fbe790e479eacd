package io.wecominbox.handler;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

/** The properties and body of one message from a handler queue, as the ingest (or a replay) published it. */
record EventMessage(String messageId, int deliveryCount, String app, String eventType, String eventKey,
                    String batchId, long callbackLogId, Long replayId, String plaintext) {

    /** JMS property a deliberate re-run (replay) sets: the batch it belongs to. */
    static final String BATCH_ID = "batchId";
    /** JMS property a replay sets: its replay_run id, so the disposition can be counted for that replay. */
    static final String REPLAY_ID = "replayId";

    static EventMessage read(Message message) {
        try {
            return new EventMessage(message.getJMSMessageID(),
                message.propertyExists("JMSXDeliveryCount") ? message.getIntProperty("JMSXDeliveryCount") : 1,
                message.getStringProperty("app"), message.getStringProperty("eventType"),
                message.getStringProperty("eventKey"), blankToNull(message.getStringProperty(BATCH_ID)),
                message.propertyExists("callbackLogId") ? message.getLongProperty("callbackLogId") : 0,
                replayId(message),
                message.getBody(String.class));
        } catch (JMSException e) {
            // rethrown: the delivery rolls back and, after the broker's attempt limit, lands in the DLQ
            throw new IllegalStateException("unreadable event message", e);
        }
    }

    // only a label for the disposition: a malformed one (set by hand in the console) must not poison the message
    private static Long replayId(Message message) throws JMSException {
        if (!message.propertyExists(REPLAY_ID)) {
            return null;
        }
        try {
            return message.getLongProperty(REPLAY_ID);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
