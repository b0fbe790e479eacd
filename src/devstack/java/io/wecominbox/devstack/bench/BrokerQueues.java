package io.wecominbox.devstack.bench;

import jakarta.json.Json;
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
import java.util.List;

/**
 * The handler queues (every queue on a {@code wecom.handler.*} address) through the broker's management API
 * (Jolokia on the console port), as an operator would pause them: callbacks are still stored and enqueued,
 * only nobody consumes. The bench needs nothing of the app for this, so it works against any checkout.
 */
final class BrokerQueues {

    private static final String QUEUES = "org.apache.activemq.artemis:broker=*,component=addresses,address=*,"
            + "subcomponent=queues,routing-type=*,queue=*";
    private static final String PREFIX = "wecom.handler.";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI jolokia;
    private final String authorization;

    BrokerQueues(URI jolokia, String user, String password) {
        this.jolokia = URI.create(jolokia.toString().replaceAll("/+$", "") + "/");
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Pauses every handler queue; returns their names. */
    List<String> pause() throws IOException, InterruptedException {
        return execOnEach("pause()");
    }

    List<String> resume() throws IOException, InterruptedException {
        return execOnEach("resume()");
    }

    /** Removes every message waiting on the handler queues; returns how many went. */
    long purge() throws IOException, InterruptedException {
        long removed = 0;
        for (String mbean : handlerQueueMbeans()) {
            JsonValue value = exec(mbean, "removeAllMessages()");
            if (value instanceof jakarta.json.JsonNumber n) {
                removed += n.longValue();
            }
        }
        return removed;
    }

    /** Messages on the handler queues (waiting or being delivered), summed. */
    long backlog() throws IOException, InterruptedException {
        long sum = 0;
        for (var entry : readQueues("MessageCount").entrySet()) {
            if (isHandlerQueue(entry.getKey())) {
                sum += entry.getValue().asJsonObject().getJsonNumber("MessageCount").longValue();
            }
        }
        return sum;
    }

    /** Messages on each handler queue (waiting or being delivered), by queue name, sorted. */
    java.util.SortedMap<String, Long> backlogByQueue() throws IOException, InterruptedException {
        java.util.SortedMap<String, Long> depths = new java.util.TreeMap<>();
        for (var entry : readQueues("MessageCount").entrySet()) {
            if (isHandlerQueue(entry.getKey())) {
                depths.merge(queueName(entry.getKey()),
                        entry.getValue().asJsonObject().getJsonNumber("MessageCount").longValue(), Long::sum);
            }
        }
        return depths;
    }

    /** The backlog, or -1 when the broker does not answer (the report then shows "?"). */
    long backlogOrUnknown() {
        try {
            return backlog();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private List<String> execOnEach(String operation) throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (String mbean : handlerQueueMbeans()) {
            exec(mbean, operation);
            names.add(queueName(mbean));
        }
        if (names.isEmpty()) {
            throw new IOException("the broker has no queue on a " + PREFIX + "* address");
        }
        return names;
    }

    private List<String> handlerQueueMbeans() throws IOException, InterruptedException {
        return readQueues("MessageCount").keySet().stream().filter(BrokerQueues::isHandlerQueue).sorted().toList();
    }

    private static boolean isHandlerQueue(String mbean) {
        return addressOf(mbean).startsWith(PREFIX);
    }

    private static String addressOf(String mbean) {
        return property(mbean, "address");
    }

    private static String queueName(String mbean) {
        return property(mbean, "queue");
    }

    private static String property(String mbean, String key) {
        try {
            String value = new javax.management.ObjectName(mbean).getKeyProperty(key);
            return value != null && value.startsWith("\"") ? javax.management.ObjectName.unquote(value) : value;
        } catch (javax.management.MalformedObjectNameException e) {
            return "";
        }
    }

    private JsonObject readQueues(String attribute) throws IOException, InterruptedException {
        JsonValue value = call(Json.createObjectBuilder().add("type", "read").add("mbean", QUEUES)
                .add("attribute", Json.createArrayBuilder().add(attribute)).build());
        return value.getValueType() == JsonValue.ValueType.OBJECT ? value.asJsonObject() : JsonValue.EMPTY_JSON_OBJECT;
    }

    private JsonValue exec(String mbean, String operation) throws IOException, InterruptedException {
        return call(Json.createObjectBuilder().add("type", "exec").add("mbean", mbean).add("operation", operation)
                .add("arguments", Json.createArrayBuilder()).build());
    }

    private JsonValue call(JsonObject request) throws IOException, InterruptedException {
        HttpRequest http = HttpRequest.newBuilder(jolokia).timeout(Duration.ofSeconds(10))
                .header("Authorization", authorization)
                // Jolokia refuses requests whose Origin does not match the console's host
                .header("Origin", jolokia.getScheme() + "://" + jolokia.getHost())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(request.toString())).build();
        HttpResponse<String> response = this.http.send(http, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            // the status only: an error page may echo the request, credentials included
            throw new IOException("broker management answered HTTP " + response.statusCode());
        }
        JsonObject answer;
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            answer = reader.readObject();
        }
        if (answer.getInt("status", 0) != 200) {
            throw new IOException("broker management refused " + request.getString("type") + " "
                    + request.getString("operation", "") + ": " + answer.getString("error", "status "
                    + answer.getInt("status", 0)));
        }
        JsonValue value = answer.get("value");
        return value == null ? JsonValue.NULL : value;
    }
}
