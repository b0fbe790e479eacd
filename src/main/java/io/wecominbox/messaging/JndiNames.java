package io.wecominbox.messaging;

/** JNDI names of the JMS resources declared in server.xml (one place, so a rename is one edit). */
public final class JndiNames {

    public static final String CONNECTION_FACTORY = "jms/cf/wecom";
    public static final String PROBE_QUEUE = "jms/queue/probe";
    public static final String EVENTS_TOPIC = "jms/topic/events";

    private JndiNames() {
    }
}
