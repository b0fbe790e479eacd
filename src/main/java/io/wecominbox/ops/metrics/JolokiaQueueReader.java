package io.wecominbox.ops.metrics;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Reads every queue's depth in ONE request to Artemis's management API (Jolokia, on the console port): a
 * wildcard read of the queue MBeans. Simpler than management messages through the resource adapter, which
 * would need a reply queue and the "manage" permission for the application's own broker user.
 */
public final class JolokiaQueueReader {

    static final String QUEUES = "org.apache.activemq.artemis:broker=*,component=addresses,address=*,"
            + "subcomponent=queues,routing-type=*,queue=*";
    private static final String BODY = "{\"type\":\"read\",\"mbean\":\"" + QUEUES.replace("\"", "\\\"")
            + "\",\"attribute\":[\"MessageCount\",\"ConsumerCount\",\"DeliveringCount\",\"Durable\",\"Temporary\"]}";
    /** Ours and the broker's dead-letter / expiry queues; not the short-lived subscription queues of tests. */
    private static final Pattern WATCHED = Pattern.compile("wecom\\..+|DLQ(\\..+)?|ExpiryQueue|EXP\\..+");
    static final int MAX_QUEUES = 200;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI uri;
    private final String origin;
    private final String authorization;

    public JolokiaQueueReader(URI jolokia, String user, String password) {
        this.uri = URI.create(jolokia.toString().replaceAll("/+$", "") + "/");
        this.origin = jolokia.getScheme() + "://" + jolokia.getHost();
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    public List<QueueDepth> read() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(3))
                .header("Authorization", authorization)
                .header("Origin", origin) // Jolokia refuses requests whose Origin is not the console's host
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            // the status only: the body of an error page may echo the request, credentials included
            throw new IOException("broker management answered HTTP " + response.statusCode());
        }
        return parse(response.body());
    }

    /** Parses a Jolokia read answer; a non-200 status inside the JSON is an error too. */
    static List<QueueDepth> parse(String json) throws IOException {
        JsonObject answer;
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            answer = reader.readObject();
        } catch (RuntimeException e) {
            throw new IOException("broker management sent no JSON object");
        }
        if (answer.getInt("status", 0) != 200) {
            throw new IOException("broker management refused the read: status " + answer.getInt("status", 0)
                    + " " + answer.getString("error_type", ""));
        }
        JsonValue value = answer.get("value");
        List<QueueDepth> queues = new ArrayList<>();
        if (value == null || value.getValueType() != JsonValue.ValueType.OBJECT) {
            return queues; // no queue at all matched the pattern
        }
        for (Map.Entry<String, JsonValue> entry : value.asJsonObject().entrySet()) {
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
            String queue = unquote(name.getKeyProperty("queue"));
            if (queue == null || !WATCHED.matcher(queue).matches()
                    || attributes.getBoolean("Temporary", false) || !attributes.getBoolean("Durable", true)) {
                return null;
            }
            return new QueueDepth(queue, unquote(name.getKeyProperty("address")), number(attributes, "MessageCount"),
                    number(attributes, "ConsumerCount"), number(attributes, "DeliveringCount"));
        } catch (MalformedObjectNameException e) {
            throw new IOException("unexpected MBean name from broker management");
        }
    }

    private static long number(JsonObject attributes, String name) {
        JsonValue v = attributes.get(name);
        return v instanceof JsonNumber n ? n.longValue() : 0;
    }

    private static String unquote(String value) {
        return value != null && value.length() >= 2 && value.startsWith("\"") ? ObjectName.unquote(value) : value;
    }
}
