package io.wecominbox.messaging;

/** JNDI names of the JMS resources server.xml and the handlers' drop-in declare (one place: a rename is one edit). */
public final class JndiNames {

    /** The request path's XA pool: the pipeline probe (callbacks no longer need the broker). */
    public static final String CONNECTION_FACTORY = "jms/cf/wecom";
    /** Background work's pool (handlers' batch receives and sends, replays), apart from the request path's. */
    public static final String BACKGROUND_CONNECTION_FACTORY = "jms/cf/background";
    /** Local JMS transactions, no XA: the publication relay and replays (allowLocalTransactions in server.xml). */
    public static final String RELAY_CONNECTION_FACTORY = "jms/cf/relay";
    /** Local JMS transactions on the callback's path: deliveries kept while PostgreSQL is down, and their drain. */
    public static final String PARKING_CONNECTION_FACTORY = "jms/cf/parking";
    /** Where the ACK path keeps deliveries while PostgreSQL is down (broker address wecom.ingest.pending). */
    public static final String INGEST_PENDING_QUEUE = "jms/queue/ingest-pending";
    public static final String PROBE_QUEUE = "jms/queue/probe";
    public static final String EVENTS_TOPIC = "jms/topic/events";
    /** What the crm handler publishes for the CRM system to consume. */
    public static final String CRM_OUTBOUND_QUEUE = "jms/queue/crm-outbound";

    /**
     * The queue of a handler by its name (broker address wecom.handler.{name}, fed from the events topic by a
     * divert); the generated drop-in liberty/configDropins/defaults/wecom-handlers.xml declares each one so.
     */
    public static String handlerQueue(String handler) {
        return "jms/queue/handler/" + handler;
    }

    private JndiNames() {
    }
}
