package io.wecominbox.testsupport;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The stack's HAProxy (src/stack/haproxy.sh) in front of the Liberty nodes: started and stopped through the
 * script, asked through its public port (which node answered: header X-Wecom-Node) and its stats page (what
 * it thinks of each node). Ports as the script computes them: LB_PORT (HTTP port + 2), stats LB_PORT + 100.
 */
public final class LoadBalancer {

    private final int port;
    private final int statsPort;

    public LoadBalancer() {
        int http = Integer.parseInt(System.getProperty("wecom.http.port", StackEnv.get("HTTP_PORT", "9080")));
        this.port = Integer.parseInt(env("LB_PORT", Integer.toString(http + 2)));
        this.statsPort = Integer.parseInt(env("LB_STATS_PORT", Integer.toString(port + 100)));
    }

    public void start() {
        StackScripts.run("haproxy.sh", "start");
    }

    public void stop() {
        StackScripts.run("haproxy.sh", "stop");
    }

    /** The public base URL, where WeCom posts its callbacks. */
    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The node (node1, node2, ...) that answered a GET of {@code path} through the balancer, if any did. */
    public Optional<String> answeringNode(String path) {
        HttpResponse<String> answer = Http.send(HttpRequest.newBuilder(baseUrl().resolve(path)).GET());
        return answer == null ? Optional.empty() : answer.headers().firstValue("X-Wecom-Node");
    }

    /** HAProxy's view of node {@code n}: UP, DOWN, "UP 1/2" (going down), "DOWN 1/2" (coming up), MAINT... */
    public String nodeStatus(int n) {
        return nodeStatuses().getOrDefault("node" + n, "unknown");
    }

    private Map<String, String> nodeStatuses() {
        HttpResponse<String> csv =
            Http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + statsPort + "/;csv")).GET());
        Map<String, String> statuses = new HashMap<>();
        if (csv == null || csv.statusCode() != 200) {
            return statuses;
        }
        List<String> lines = csv.body().lines().toList();
        List<String> header = Arrays.asList(lines.get(0).replaceFirst("^# ", "").split(","));
        int status = header.indexOf("status");
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            if (fields.length > status && "wecom_nodes".equals(fields[0]) && fields[1].startsWith("node")) {
                statuses.put(fields[1], fields[status]);
            }
        }
        return statuses;
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
