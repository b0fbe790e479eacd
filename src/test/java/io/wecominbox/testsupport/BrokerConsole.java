package io.wecominbox.testsupport;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads the broker's state through its console API (Jolokia), as an admin would in the console: the console of
 * whichever broker of the pair is live.
 */
public final class BrokerConsole {

    private static final String BROKER_MBEAN = "org.apache.activemq.artemis:broker=%22wecom-inbox%22";

    private BrokerConsole() {
    }

    /** Transactions prepared in the broker's journal and not yet committed or rolled back. */
    public static int preparedTransactions() {
        JsonObject answer = call("/exec/" + BROKER_MBEAN + "/listPreparedTransactions()");
        return answer.getJsonArray("value").size();
    }

    /** Messages waiting on an anycast queue (named like its address) that match a JMS selector. */
    public static long countMessages(String queue, String filter) {
        return countMessages(queue, "anycast", queue, filter);
    }

    /**
     * CRM messages on crm.outbound about relationships begun (added) whose key starts with {@code relationship}
     * ({@code <app>:external_contact:relationship:<member prefix>...}); their ends ({@code :gone}) excluded.
     */
    public static long crmRelationshipAdds(String relationshipKeyPrefix) {
        return countMessages("crm.outbound", "eventKey LIKE '" + relationshipKeyPrefix + "%' AND eventKey NOT LIKE '%:gone'");
    }

    /**
     * The same for a queue on another address: {@code countMessages("DLA", "multicast", "DLQ.wecom.handler.welcome",
     * filter)} (a dead-letter queue the broker created, one of several filtered queues on DLA).
     */
    public static long countMessages(String address, String routingType, String queue, String filter) {
        JsonObject request = Json.createObjectBuilder().add("type", "exec")
                .add("mbean", queueMbean(address, routingType, queue))
                .add("operation", "countMessages(java.lang.String)")
                .add("arguments", Json.createArrayBuilder().add(filter)).build();
        return call("", HttpRequest.BodyPublishers.ofString(request.toString())).getJsonNumber("value").longValue();
    }

    /**
     * Messages waiting on an anycast queue, counted per value of one message property (the queue's
     * countMessages(filter, groupBy)); an empty filter counts every message.
     */
    public static Map<String, Long> countMessagesBy(String queue, String filter, String property) {
        JsonObject request = Json.createObjectBuilder().add("type", "exec").add("mbean", queueMbean(queue))
                .add("operation", "countMessages(java.lang.String,java.lang.String)")
                .add("arguments", Json.createArrayBuilder().add(filter).add(property)).build();
        JsonObject answer = call("", HttpRequest.BodyPublishers.ofString(request.toString()));
        if (answer.getInt("status", 0) != 200) {
            throw new IllegalStateException("countMessages failed: " + answer.getString("error", answer.toString()));
        }
        Map<String, Long> counts = new HashMap<>();
        try (JsonReader reader = Json.createReader(new StringReader(answer.getString("value")))) {
            reader.readObject().forEach((value, count) -> counts.put(value, ((JsonNumber) count).longValue()));
        }
        return counts;
    }

    /**
     * Messages held by every queue of an address (its dead-letter or expiry queues on DLA / EXA included: the
     * address's MessageCount), in delivery too; 0 for an address the broker does not have (yet).
     */
    public static long addressMessageCount(String address) {
        JsonObject answer = call("/read/" + BROKER_MBEAN + ",component=addresses,address=%22" + address
                + "%22/MessageCount");
        return answer.getInt("status", 0) == 200 ? answer.getJsonNumber("value").longValue() : 0;
    }

    /**
     * A numeric attribute of a queue (MessageCount: waiting, scheduled and in delivery; DeliveringCount: in
     * delivery, i.e. received in a transaction that has not ended); -1 for a queue the broker does not have.
     */
    public static long queueAttribute(String address, String routingType, String queue, String attribute) {
        JsonObject request = Json.createObjectBuilder().add("type", "read")
                .add("mbean", queueMbean(address, routingType, queue)).add("attribute", attribute).build();
        JsonObject answer = call("", HttpRequest.BodyPublishers.ofString(request.toString()));
        return answer.getInt("status", 0) == 200 ? answer.getJsonNumber("value").longValue() : -1;
    }

    /** Removes a divert from the running broker (until it restarts and reads broker.xml again). */
    public static void destroyDivert(String name) {
        exec("destroyDivert(java.lang.String)", Json.createArrayBuilder().add(name));
    }

    /** Adds a non-exclusive anycast divert with a filter to the running broker. */
    public static void createDivert(String name, String address, String forwardingAddress, String filter) {
        exec("createDivert(java.lang.String,java.lang.String,java.lang.String,java.lang.String,boolean,"
                        + "java.lang.String,java.lang.String,java.lang.String)",
                Json.createArrayBuilder().add(name).add(name).add(address).add(forwardingAddress).add(false)
                        .add(filter).addNull().add("ANYCAST"));
    }

    private static void exec(String operation, jakarta.json.JsonArrayBuilder arguments) {
        JsonObject request = Json.createObjectBuilder().add("type", "exec")
                .add("mbean", BROKER_MBEAN.replace("%22", "\"")).add("operation", operation)
                .add("arguments", arguments).build();
        JsonObject answer = call("", HttpRequest.BodyPublishers.ofString(request.toString()));
        if (answer.getInt("status", 0) != 200) {
            throw new IllegalStateException(operation + " failed: " + answer.getString("error", answer.toString()));
        }
    }

    private static String queueMbean(String queue) {
        return queueMbean(queue, "anycast", queue);
    }

    /** The broker's own MBean (its name is the dev stack's broker.xml {@code <name>}), as Jolokia wants it in JSON. */
    public static String brokerMbean() {
        return BROKER_MBEAN.replace("%22", "\"");
    }

    /** A queue's MBean name, as Jolokia wants it in a JSON request. */
    public static String queueMbean(String address, String routingType, String queue) {
        return BROKER_MBEAN.replace("%22", "\"") + ",component=addresses,address=\"" + address
                + "\",subcomponent=queues,routing-type=\"" + routingType + "\",queue=\"" + queue + "\"";
    }

    private static JsonObject call(String path) {
        return call(path, null);
    }

    /**
     * The console port of the live broker of the pair: the primary's, unless only the backup accepts clients
     * (a passive backup opens no acceptor). A test after a failover reads what an admin would read.
     */
    public static String livePort() {
        String host = StackEnv.get("BROKER_HOST", "127.0.0.1");
        int primary = Integer.parseInt(StackEnv.get("BROKER_PORT", "61616"));
        int console = Integer.parseInt(StackEnv.get("ARTEMIS_CONSOLE_PORT", "8161"));
        if (!accepts(host, primary) && accepts(host, backupPort())) {
            return StackEnv.get("ARTEMIS_BACKUP_CONSOLE_PORT", Integer.toString(console + 1));
        }
        return Integer.toString(console);
    }

    /** The backup broker's client port (BROKER_BACKUP_PORT, by default BROKER_PORT + 1). */
    public static int backupPort() {
        int primary = Integer.parseInt(StackEnv.get("BROKER_PORT", "61616"));
        return Integer.parseInt(StackEnv.get("BROKER_BACKUP_PORT", Integer.toString(primary + 1)));
    }

    /** True when something accepts a TCP connection on host:port within a second. */
    public static boolean accepts(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static JsonObject call(String path, HttpRequest.BodyPublisher post) {
        String port = livePort();
        String credentials = StackEnv.get("ARTEMIS_ADMIN_USER", "admin") + ":"
                + StackEnv.get("ARTEMIS_ADMIN_PASSWORD", "");
        HttpResponse<String> response = Http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/console/jolokia" + path))
                .header("Authorization", "Basic "
                        + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
                // Jolokia answers 403 unless the Origin matches the console's host
                .header("Origin", "http://127.0.0.1")
                .method(post == null ? "GET" : "POST", post == null ? HttpRequest.BodyPublishers.noBody() : post));
        if (response == null || response.statusCode() != 200) {
            throw new IllegalStateException("broker console answered "
                    + (response == null ? "nothing" : response.statusCode()));
        }
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        }
    }
}
