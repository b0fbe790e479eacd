package io.wecominbox.handler;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What Liberty needs per handler, written from the handlers' descriptors: the config drop-in (session
 * variables, pool sums, one jmsQueue and one jmsActivationSpec each). Test code: the files it writes are
 * committed and compared (HandlerServerConfigTest), so the WAR carries no generator and every route that
 * copies the repository's files (the build, the deploy check, an admin following docs/deploy.md) gets them
 * without running anything.
 */
final class HandlerServerConfig {

    static final String PROBE_SESSIONS = "probe.sessions";
    static final String BACKGROUND_CONNECTIONS = "background.connections";
    static final String INGEST_CONNECTIONS = "ingest.db.connections";

    private HandlerServerConfig() {
    }

    /**
     * The drop-in for these handlers; {@code fixed} holds wecom-inbox.xml's figures the pool sums add to the
     * handlers' sessions ({@link #PROBE_SESSIONS}, {@link #BACKGROUND_CONNECTIONS}, {@link #INGEST_CONNECTIONS}).
     */
    static String dropIn(List<DeclaredHandler> handlers, Map<String, Integer> fixed) {
        int sessions = handlers.stream().mapToInt(DeclaredHandler::sessions).sum();
        int probe = fixed.get(PROBE_SESSIONS);
        int background = fixed.get(BACKGROUND_CONNECTIONS);
        int ingest = fixed.get(INGEST_CONNECTIONS);
        String each = handlers.stream().map(h -> h.name() + " " + h.sessions()).collect(Collectors.joining(", "));
        StringBuilder out = new StringBuilder();
        out.append("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!--
              GENERATED from the handlers' @HandlerDescriptor (io.wecominbox.handler): do not edit.
              HandlerServerConfigTest fails when this file and the code disagree;
                  mvn test -Dtest=HandlerServerConfigTest -Dhandler.config.write=true
              rewrites it. Liberty reads configDropins/defaults before server.xml; the application's part it includes,
              wecom-inbox.xml, declares what these elements refer to (resourceAdapter artemis, authData brokerAuth)
              and the figures the pool sums below add up.
            -->
            <server>

              <!-- Consumer sessions per handler (env e.g. HANDLER_WELCOME_SESSIONS). A handler session runs one XA
                   transaction at a time over a batch of messages (wecom.handler.<name>.batch-size, default 50) and
                   holds one database connection and one background JMS session for it, however large the batch. -->
            """);
        for (DeclaredHandler h : handlers) {
            out.append(sessions(h));
        }
        out.append("""

              <!-- Liberty evaluates one operator per expression and not over computed variables, so the sums are
                   written out here; the readiness check "pool-sizing" fails when a deployment's values no longer
                   cover its sessions. db.pool.size: handler sessions %d (%s)
                   + %s %d + %s %d + %s %d.
                   background.jms.pool.size: handler sessions %d + %s %d. -->
            """.formatted(sessions, each, PROBE_SESSIONS, probe, BACKGROUND_CONNECTIONS, background, INGEST_CONNECTIONS,
                ingest, sessions, BACKGROUND_CONNECTIONS, background));
        out.append("  <variable name=\"db.pool.size\" defaultValue=\"").append(sessions + probe + background + ingest)
            .append("\"/>\n");
        out.append("  <variable name=\"background.jms.pool.size\" defaultValue=\"").append(sessions + background)
            .append("\"/>\n");
        out.append("""

              <!-- One queue per handler: the broker diverts each event from wecom.events to the queues of the handlers
                   that take its type (src/main/broker/wecom-inbox-broker.xml), each with its own redelivery policy and
                   DLQ. Readiness checks the live broker has them. One consumer bean per handler queue, the handler's
                   <Name>EventConsumer, whose activation spec is wecom-inbox/<Name>EventConsumer. Like the probe's in
                   wecom-inbox.xml, its sessions reconnect forever (1 s, backing off to 10 s) and follow the broker pair
                   (HA). Consumer window 0: waiting messages stay on the queue, where the session that is running
                   takes them into its batch, instead of being buffered in front of sessions that are busy.
                   useGlobalPools false: the handler's deliveries run on threads of its own, which run at its
                   urgency's priority (io.wecominbox.handler.ConsumerThreadPriority); a thread lowered for crm
                   never delivers a welcome. -->
            """);
        for (DeclaredHandler h : handlers) {
            out.append(fragment(h));
        }
        return out.append("</server>\n").toString();
    }

    /** One handler's sessions variable, with its descriptor's default. */
    static String sessions(DeclaredHandler h) {
        return "  <variable name=\"" + h.sessionsVariable() + "\" defaultValue=\"" + h.sessions() + "\"/>\n";
    }

    /** One handler's queue and activation spec: what adding a handler adds to the drop-in. */
    static String fragment(DeclaredHandler h) {
        return "  <jmsQueue id=\"" + h.queueId() + "\" jndiName=\"" + h.queueJndiName() + "\">\n"
            + "    <properties.artemis address=\"" + h.route().queue() + "\"/>\n"
            + "  </jmsQueue>\n"
            + "  <jmsActivationSpec id=\"wecom-inbox/" + h.consumerBean() + "\" authDataRef=\"brokerAuth\">\n"
            + "    <properties.artemis destinationRef=\"" + h.queueId() + "\" destinationType=\"jakarta.jms.Queue\""
            + " useJNDI=\"true\"\n"
            + "                        maxSession=\"${" + h.sessionsVariable() + "}\""
            + " consumerWindowSize=\"0\" HA=\"true\" reconnectAttempts=\"-1\" retryInterval=\"1000\"\n"
            + "                        retryIntervalMultiplier=\"2.0\" maxRetryInterval=\"10000\""
            + " useGlobalPools=\"false\"/>\n"
            + "  </jmsActivationSpec>\n";
    }
}
