package io.wecominbox.messaging;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one format of an event message on wecom.events and the handler queues: the decrypted event XML as the
 * body and these properties. The relay (callbacks), replays and reconcile passes write it with
 * {@link #properties()}; the handlers read it with {@link #from(Message)}. Property names live only here.
 *
 * @param callbackLogId   the callback_log row it came from; null for a pulled record (a pull is not a callback)
 * @param attempt         that row's delivery number; 0 when there is no row
 * @param createTime      the event's CreateTime, epoch seconds; 0 when absent
 * @param replayId        the replay_run that re-published it, else null
 * @param batchId         a forced re-run's batch (part of the dedup key), else null
 * @param reconcileRunId  the reconcile_run that pulled it, else null
 * @param duplicateId     Artemis's duplicate-detection id: a re-send with the same id is dropped by the broker
 */
public record EventEnvelope(String body, String app, String eventType, String changeType, String eventKey,
                            Long callbackLogId, int attempt, long createTime, Long replayId, String batchId,
                            Long reconcileRunId, String duplicateId) {

    public static final String APP = "app";
    public static final String EVENT_TYPE = "eventType";
    public static final String CHANGE_TYPE = "changeType";
    public static final String EVENT_KEY = "eventKey";
    public static final String CALLBACK_LOG_ID = "callbackLogId";
    public static final String ATTEMPT = "attempt";
    public static final String CREATE_TIME = "createTime";
    public static final String REPLAY_ID = "replayId";
    public static final String BATCH_ID = "batchId";
    public static final String RECONCILE_RUN_ID = "reconcileRunId";
    /** Artemis's duplicate-detection property (org.apache.activemq.artemis.api.core.Message.HDR_DUPLICATE_DETECTION_ID). */
    public static final String DUPLICATE_ID = "_AMQ_DUPL_ID";

    /**
     * A callback_log row as the relay publishes it. Its duplicate id is stable per row: the id, and the row's
     * receipt time, so that a database rebuilt from scratch (ids from 1 again) never meets the broker's
     * remembered ids of the old one.
     */
    public static EventEnvelope ofCallback(long callbackLogId, Instant receivedAt, int attempt, String app,
                                           String eventType, String changeType, String eventKey, long createTime,
                                           String body) {
        return new EventEnvelope(body, app, eventType, changeType, eventKey, callbackLogId, attempt, createTime,
            null, null, null, "callback_log:" + callbackLogId + ":"
            + ChronoUnit.MICROS.between(Instant.EPOCH, receivedAt));
    }

    /** The same event re-published by a replay to one handler's queue, with a duplicate id of its own. */
    public EventEnvelope replayed(long replay, String batch, String handler) {
        return new EventEnvelope(body, app, eventType, changeType, eventKey, callbackLogId, attempt, createTime,
            replay, batch, null, "replay:" + replay + ":" + handler + ":" + callbackLogId);
    }

    /** The JMS properties, in a map for a producer (JMS has no null-valued property: nulls are left out). */
    public Map<String, Object> properties() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put(APP, app);
        p.put(EVENT_TYPE, eventType);
        putIfSet(p, CHANGE_TYPE, changeType);
        p.put(EVENT_KEY, eventKey);
        putIfSet(p, CALLBACK_LOG_ID, callbackLogId);
        if (attempt > 0) {
            p.put(ATTEMPT, attempt);
        }
        p.put(CREATE_TIME, createTime);
        putIfSet(p, REPLAY_ID, replayId);
        putIfSet(p, BATCH_ID, batchId);
        putIfSet(p, RECONCILE_RUN_ID, reconcileRunId);
        putIfSet(p, DUPLICATE_ID, duplicateId);
        return p;
    }

    /**
     * Reads a message from a handler queue. Labels only (replay and reconcile ids) that are malformed, e.g. set
     * by hand in the console, read as absent rather than poisoning the message.
     */
    public static EventEnvelope from(Message message) throws JMSException {
        return new EventEnvelope(message.getBody(String.class), message.getStringProperty(APP),
            message.getStringProperty(EVENT_TYPE), message.getStringProperty(CHANGE_TYPE),
            message.getStringProperty(EVENT_KEY),
            message.propertyExists(CALLBACK_LOG_ID) ? message.getLongProperty(CALLBACK_LOG_ID) : null,
            message.propertyExists(ATTEMPT) ? message.getIntProperty(ATTEMPT) : 0,
            message.propertyExists(CREATE_TIME) ? message.getLongProperty(CREATE_TIME) : 0,
            label(message, REPLAY_ID), blankToNull(message.getStringProperty(BATCH_ID)),
            label(message, RECONCILE_RUN_ID), message.getStringProperty(DUPLICATE_ID));
    }

    private static Long label(Message message, String name) throws JMSException {
        if (!message.propertyExists(name)) {
            return null;
        }
        try {
            return message.getLongProperty(name);
        } catch (NumberFormatException | jakarta.jms.MessageFormatException e) {
            return null;
        }
    }

    private static void putIfSet(Map<String, Object> properties, String name, Object value) {
        if (value != null) {
            properties.put(name, value);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
