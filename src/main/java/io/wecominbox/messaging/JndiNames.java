package io.wecominbox.messaging;

/** JNDI names of the JMS resources declared in server.xml (one place, so a rename is one edit). */
public final class JndiNames {

    /** The request path's XA pool: the pipeline probe (callbacks no longer need the broker). */
    public static final String CONNECTION_FACTORY = "jms/cf/wecom";
    /** Background work's pool (handlers' batch receives and sends, replays), apart from the request path's. */
    public static final String BACKGROUND_CONNECTION_FACTORY = "jms/cf/background";
    /** Local JMS transactions, no XA: the publication relay and replays (allowLocalTransactions in server.xml). */
    public static final String RELAY_CONNECTION_FACTORY = "jms/cf/relay";
    /** Where the ACK path keeps deliveries while PostgreSQL is down (broker address wecom.ingest.pending). */
    public static final String INGEST_PENDING_QUEUE = "jms/queue/ingest-pending";
    public static final String PROBE_QUEUE = "jms/queue/probe";
    public static final String EVENTS_TOPIC = "jms/topic/events";
    /** Per-handler queues (broker address wecom.handler.{name}), fed from the events topic by diverts. */
    public static final String CRM_HANDLER_QUEUE = "jms/queue/handler/crm";
    public static final String CONVERSATION_HANDLER_QUEUE = "jms/queue/handler/conversation";
    public static final String WELCOME_HANDLER_QUEUE = "jms/queue/handler/welcome";
    public static final String CONTACT_HANDLER_QUEUE = "jms/queue/handler/contact";
    public static final String BOT_HANDLER_QUEUE = "jms/queue/handler/bot";
    /** What the crm handler publishes for the CRM system to consume. */
    public static final String CRM_OUTBOUND_QUEUE = "jms/queue/crm-outbound";

    /** The queue of a handler by its name (each handler's jmsQueue in server.xml follows this pattern). */
    public static String handlerQueue(String handler) {
        return "jms/queue/handler/" + handler;
    }

    private JndiNames() {
    }
}
