package io.wecominbox.ops.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.handler.HandlerRoute;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The readiness check's verdict on a broker as its management API describes it (answers as Artemis 2.56 gives them). */
class HandlerRouteCheckTest {

    private static final HandlerRoute CRM = new HandlerRoute("crm", Set.of("text", "change_external_tag"));

    private static String queue(String address, String queue) {
        return "\"org.apache.activemq.artemis:address=\\\"" + address + "\\\",broker=\\\"b\\\",component=addresses,queue=\\\""
                + queue + "\\\",routing-type=\\\"anycast\\\",subcomponent=queues\":{\"Durable\":true}";
    }

    private static String divert(String name, String from, String to, String filter) {
        return "\"org.apache.activemq.artemis:address=\\\"" + from + "\\\",broker=\\\"b\\\",component=addresses,divert=\\\""
                + name + "\\\",subcomponent=diverts\":{\"UniqueName\":\"" + name + "\",\"Address\":\"" + from
                + "\",\"ForwardingAddress\":\"" + to + "\",\"Filter\":\"" + filter + "\"}";
    }

    private static BrokerTopology broker(String queues, String diverts) throws IOException {
        return BrokerTopology.parse("{\"status\":200,\"value\":{" + queues + "}}", "{\"status\":200,\"value\":{" + diverts + "}}");
    }

    private static Optional<String> check(BrokerTopology broker) {
        return HandlerRouteCheck.problem(CRM, "wecom.handler.crm", "wecom.events", broker);
    }

    @Test
    void aQueueFedWithExactlyTheHandlersTypesIsRouted() throws IOException {
        BrokerTopology b = broker(queue("wecom.handler.crm", "wecom.handler.crm"),
                divert("wecom.events.to.crm", "wecom.events", "wecom.handler.crm", CRM.filter()));
        assertEquals(Optional.empty(), check(b));
    }

    @Test
    void aMissingQueueIsNamed() throws IOException {
        BrokerTopology b = broker(queue("wecom.probe", "wecom.probe"), "");
        assertEquals(Optional.of("queue wecom.handler.crm does not exist"), check(b));
    }

    @Test
    void aQueueWithoutADivertFromTheEventsAddressIsNamed() throws IOException {
        BrokerTopology b = broker(queue("wecom.handler.crm", "wecom.handler.crm"),
                divert("other", "somewhere.else", "wecom.handler.crm", CRM.filter()));
        String problem = check(b).orElseThrow();
        assertTrue(problem.startsWith("no divert from wecom.events to wecom.handler.crm"), problem);
        assertTrue(problem.contains("wecom.events.to.crm"), "names the divert to create: " + problem);
    }

    @Test
    void aDivertMissingOneOfTheHandlersTypesNamesTheTypeNeverDelivered() throws IOException {
        BrokerTopology b = broker(queue("wecom.handler.crm", "wecom.handler.crm"),
                divert("wecom.events.to.crm", "wecom.events", "wecom.handler.crm", "eventType = 'text'"));
        String problem = check(b).orElseThrow();
        assertTrue(problem.contains("never delivered: [change_external_tag]"), problem);
    }

    @Test
    void typesSplitOverTwoDivertsCountTogether() throws IOException {
        BrokerTopology b = broker(queue("wecom.handler.crm", "wecom.handler.crm"),
                divert("a", "wecom.events", "wecom.handler.crm", "eventType = 'text'") + ","
                        + divert("b", "wecom.events", "wecom.handler.crm", "eventType = 'change_external_tag'"));
        assertEquals(Optional.empty(), check(b));
    }

    @Test
    void aFilterOfAnotherFormIsReportedNotGuessed() throws IOException {
        BrokerTopology b = broker(queue("wecom.handler.crm", "wecom.handler.crm"),
                divert("x", "wecom.events", "wecom.handler.crm", "eventType LIKE '%'"));
        assertTrue(check(b).orElseThrow().contains("cannot read"), check(b).toString());
    }
}
