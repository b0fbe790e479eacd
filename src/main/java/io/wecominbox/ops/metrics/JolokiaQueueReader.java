package io.wecominbox.ops.metrics;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Reads every queue's depth in ONE request to Artemis's management API: a wildcard read of the queue MBeans.
 */
public final class JolokiaQueueReader {

    static final String QUEUES = "org.apache.activemq.artemis:broker=*,component=addresses,address=*,"
            + "subcomponent=queues,routing-type=*,queue=*";
    /** What the management role must be allowed to read (src/main/broker/wecom-inbox-management.xml). */
    public static final List<String> ATTRIBUTES = List.of("MessageCount", "ConsumerCount", "DeliveringCount",
            "Durable", "Temporary");
    /** Ours and the broker's dead-letter / expiry queues; not the short-lived subscription queues of tests. */
    private static final Pattern WATCHED = Pattern.compile("wecom\\..+|DLQ(\\..+)?|ExpiryQueue|EXP\\..+");
    static final int MAX_QUEUES = 200;

    private final JolokiaClient jolokia;

    public JolokiaQueueReader(JolokiaClient jolokia) {
        this.jolokia = jolokia;
    }

    public List<QueueDepth> read() throws IOException, InterruptedException {
        return parse(jolokia.read(QUEUES, ATTRIBUTES));
    }

    /** Parses a Jolokia read answer; a non-200 status inside the JSON is an error too. */
    static List<QueueDepth> parse(String json) throws IOException {
        List<QueueDepth> queues = new ArrayList<>();
        for (Map.Entry<String, JsonValue> entry : JolokiaClient.values(json).entrySet()) {
            QueueDepth depth = depth(entry.getKey(), entry.getValue().asJsonObject());
            if (depth != null && queues.size() < MAX_QUEUES) {
                queues.add(depth);
            }
        }
        queues.sort(Comparator.comparing(QueueDepth::queue));
        return queues;
    }

    private static QueueDepth depth(String mbean, JsonObject attributes) throws IOException {
        try {
            ObjectName name = new ObjectName(mbean);
            String queue = JolokiaClient.unquote(name.getKeyProperty("queue"));
            if (queue == null || !WATCHED.matcher(queue).matches()
                    || attributes.getBoolean("Temporary", false) || !attributes.getBoolean("Durable", true)) {
                return null;
            }
            String address = JolokiaClient.unquote(name.getKeyProperty("address"));
            return new QueueDepth(queue, address, number(attributes, "MessageCount"),
                    number(attributes, "ConsumerCount"), number(attributes, "DeliveringCount"));
        } catch (MalformedObjectNameException e) {
            throw new IOException("unexpected MBean name from broker management");
        }
    }

    private static long number(JsonObject attributes, String name) {
        JsonValue v = attributes.get(name);
        return v instanceof JsonNumber n ? n.longValue() : 0;
    }
}
