package io.wecominbox.ops.metrics;

import static io.wecominbox.JsonProviders.JSON;

import jakarta.json.JsonArrayBuilder;
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
import java.util.Base64;
import java.util.List;
import javax.management.ObjectName;
import javax.net.ssl.SSLContext;

/**
 * One read request to Artemis's management API (Jolokia, on the console port, http or https): a wildcard read of
 * MBeans.
 * Simpler than management messages through the resource adapter, which would need a reply queue and the
 * "manage" permission for the application's own broker user.
 */
public final class JolokiaClient {

    private final HttpClient http;
    private final URI uri;
    private final String origin;
    private final String authorization;

    public JolokiaClient(URI jolokia, String user, String password) {
        this(jolokia, user, password, null);
    }

    /** @param tls for an https URL: whom to trust (ManagementTls); null for the JVM's trust store */
    public JolokiaClient(URI jolokia, String user, String password, SSLContext tls) {
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
        if (tls != null) {
            client.sslContext(tls);
        }
        this.http = client.build();
        this.uri = URI.create(jolokia.toString().replaceAll("/+$", "") + "/");
        this.origin = jolokia.getScheme() + "://" + jolokia.getHost();
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The raw JSON answer to reading {@code attributes} of every MBean matching {@code mbeanPattern}. */
    public String read(String mbeanPattern, List<String> attributes) throws IOException, InterruptedException {
        JsonArrayBuilder names = JSON.createArrayBuilder();
        attributes.forEach(names::add);
        String body = JSON.createObjectBuilder().add("type", "read").add("mbean", mbeanPattern)
                .add("attribute", names).build().toString();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(3))
                .header("Authorization", authorization)
                .header("Origin", origin) // Jolokia refuses requests whose Origin is not the console's host
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 401 || response.statusCode() == 403) {
            // the console refused before reading anything: the login, the role's entry, or the Origin
            throw new IOException("broker management refused the request (HTTP " + response.statusCode() + "): check the"
                    + " management user's password, that its role is in the broker's HAWTIO_ROLES, and that the URL's"
                    + " host is one etc/jolokia-access.xml allows as Origin (docs/deploy.md, section 3)");
        }
        if (response.statusCode() != 200) {
            // the status only: the body of an error page may echo the request, credentials included
            throw new IOException("broker management answered HTTP " + response.statusCode());
        }
        return response.body();
    }

    /** An MBean key property's value without ObjectName quoting. */
    public static String unquote(String value) {
        return value != null && value.length() >= 2 && value.startsWith("\"") ? ObjectName.unquote(value) : value;
    }

    /** The "value" object of a read answer (MBean name → attributes), empty if nothing matched. */
    public static JsonObject values(String json) throws IOException {
        JsonObject answer;
        try (JsonReader reader = JSON.createReader(new StringReader(json))) {
            answer = reader.readObject();
        } catch (RuntimeException e) {
            throw new IOException("broker management sent no JSON object");
        }
        if (answer.getInt("status", 0) != 200) {
            throw new IOException("broker management refused the read: status " + answer.getInt("status", 0)
                    + " " + answer.getString("error_type", ""));
        }
        JsonValue value = answer.get("value");
        if (value == null || value.getValueType() != JsonValue.ValueType.OBJECT) {
            return JsonValue.EMPTY_JSON_OBJECT; // no MBean at all matched the pattern
        }
        return value.asJsonObject();
    }
}
