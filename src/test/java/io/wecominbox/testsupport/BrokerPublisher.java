package io.wecominbox.testsupport;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * Puts a text message with string properties on a broker address through the console API (Jolokia, the
 * address's sendMessage operation), as an admin can in the console: how a test (or an operator) sends an
 * event to one handler's queue with a {@code batchId} for a deliberate re-run, from outside the server.
 */
public final class BrokerPublisher {

    private static final int TEXT_TYPE = 3;

    private BrokerPublisher() {
    }

    /** Returns the broker's message id. */
    public static String sendText(String address, Map<String, String> properties, String body) {
        String user = StackEnv.get("ARTEMIS_ADMIN_USER", "admin");
        String password = StackEnv.get("ARTEMIS_ADMIN_PASSWORD", "");
        JsonObjectBuilder headers = Json.createObjectBuilder();
        properties.forEach(headers::add);
        JsonObject request = Json.createObjectBuilder()
            .add("type", "exec")
            .add("mbean", "org.apache.activemq.artemis:broker=\"wecom-inbox\",component=addresses,address=\""
                + address + "\"")
            .add("operation", "sendMessage(java.util.Map,int,java.lang.String,boolean,java.lang.String,"
                + "java.lang.String,boolean)")
            // durable; createMessageId: consumers key their hot-tier claims by JMSMessageID
            .add("arguments", Json.createArrayBuilder().add(headers).add(TEXT_TYPE).add(body).add(true).add(user)
                .add(password).add(true))
            .build();
        String port = StackEnv.get("ARTEMIS_CONSOLE_PORT", "8161");
        HttpResponse<String> response = Http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/console/jolokia/"))
            .header("Authorization", "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)))
            .header("Origin", "http://127.0.0.1") // Jolokia answers 403 unless the Origin matches the console's host
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(request.toString())));
        if (response == null || response.statusCode() != 200) {
            throw new IllegalStateException("broker console answered " + (response == null ? "nothing"
                : response.statusCode() + " " + response.body()));
        }
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            JsonObject answer = reader.readObject();
            if (answer.getInt("status", 0) != 200) {
                throw new IllegalStateException("sendMessage failed: " + answer.getString("error", answer.toString()));
            }
            return answer.get("value").toString();
        }
    }
}
