package io.wecominbox.ops.health;

import io.wecominbox.ops.metrics.JolokiaClient;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/** The queues (name → address) and diverts a broker has right now, as its management API reports them. */
public record BrokerTopology(Map<String, String> queues, List<Divert> diverts) {

    static final String QUEUES = "org.apache.activemq.artemis:broker=*,component=addresses,address=*,"
            + "subcomponent=queues,routing-type=*,queue=*";
    static final String DIVERTS = "org.apache.activemq.artemis:broker=*,component=addresses,address=*,"
            + "subcomponent=diverts,divert=*";

    /** A divert: copies what arrives at {@code address} and matches {@code filter} to {@code forwardingAddress}. */
    public record Divert(String name, String address, String forwardingAddress, String filter) {
    }

    /** What the management role must be allowed to read (src/main/broker/wecom-inbox-management.xml). */
    public static final List<String> QUEUE_ATTRIBUTES = List.of("Durable");
    public static final List<String> DIVERT_ATTRIBUTES = List.of("UniqueName", "Address", "ForwardingAddress", "Filter");

    /** Two reads: every queue's MBean name, every divert's routing attributes. */
    static BrokerTopology read(JolokiaClient jolokia) throws IOException, InterruptedException {
        return parse(jolokia.read(QUEUES, QUEUE_ATTRIBUTES), jolokia.read(DIVERTS, DIVERT_ATTRIBUTES));
    }

    static BrokerTopology parse(String queuesJson, String divertsJson) throws IOException {
        Map<String, String> queues = new HashMap<>();
        for (String mbean : JolokiaClient.values(queuesJson).keySet()) {
            ObjectName name = name(mbean);
            queues.put(JolokiaClient.unquote(name.getKeyProperty("queue")),
                    JolokiaClient.unquote(name.getKeyProperty("address")));
        }
        List<Divert> diverts = new ArrayList<>();
        for (Map.Entry<String, JsonValue> entry : JolokiaClient.values(divertsJson).entrySet()) {
            JsonObject a = entry.getValue().asJsonObject();
            String divert = JolokiaClient.unquote(name(entry.getKey()).getKeyProperty("divert"));
            diverts.add(new Divert(divert, text(a, "Address"), text(a, "ForwardingAddress"), text(a, "Filter")));
        }
        return new BrokerTopology(Map.copyOf(queues), List.copyOf(diverts));
    }

    private static String text(JsonObject attributes, String name) {
        JsonValue v = attributes.get(name);
        return v instanceof jakarta.json.JsonString s ? s.getString() : null;
    }

    private static ObjectName name(String mbean) throws IOException {
        try {
            return new ObjectName(mbean);
        } catch (MalformedObjectNameException e) {
            throw new IOException("unexpected MBean name from broker management");
        }
    }

}
