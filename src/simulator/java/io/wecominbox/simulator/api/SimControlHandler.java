package io.wecominbox.simulator.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Control and inspection over HTTP, for a test in another JVM or a human with curl:
 * {@code GET /sim/calls[?path=..]}, {@code GET|POST /sim/faults}, {@code POST /sim/tokens/expire},
 * {@code POST /sim/reset}, {@code GET /sim/welcome/{code}}, {@code GET /sim/deliveries}.
 */
public final class SimControlHandler implements HttpHandler {

    /** Hooks for the parts of the simulator the API server does not own (the platform side). */
    public interface Extras {
        Extras NONE = new Extras() { };

        /** Delivery statistics for {@code GET /sim/deliveries}; empty when no platform runs here. */
        default Optional<JsonObject> deliveries() {
            return Optional.empty();
        }

        /** Platform faults from a {@code POST /sim/faults} rule with {@code "side":"platform"}. */
        default void platformFault(JsonObject rule) {
            throw new IllegalArgumentException("no platform side in this process");
        }

        default void reset() {
        }
    }

    private final WeComApiServer api;
    private final Extras extras;

    SimControlHandler(WeComApiServer api, Extras extras) {
        this.api = api;
        this.extras = extras;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            Map<String, String> query = QueryString.parse(exchange.getRequestURI().getRawQuery());
            try {
                if (method.equals("GET") && path.equals("/sim/calls")) {
                    send(exchange, 200, callsSummary(Optional.ofNullable(query.get("path"))));
                } else if (method.equals("GET") && path.equals("/sim/faults")) {
                    send(exchange, 200, faultsJson());
                } else if (method.equals("POST") && path.equals("/sim/faults")) {
                    applyFaults(readJson(exchange));
                    send(exchange, 200, faultsJson());
                } else if (method.equals("POST") && path.equals("/sim/tokens/expire")) {
                    int expired = query.containsKey("app") ? api.tokens().expireAllOf(query.get("app"))
                            : api.tokens().expireAll();
                    send(exchange, 200, Json.createObjectBuilder().add("expired", expired).build());
                } else if (method.equals("POST") && path.equals("/sim/reset")) {
                    api.reset();
                    extras.reset();
                    send(exchange, 200, Json.createObjectBuilder().add("reset", true).build());
                } else if (method.equals("GET") && path.startsWith("/sim/welcome/")) {
                    String code = QueryString.percentDecode(exchange.getRequestURI().getRawPath()
                            .substring("/sim/welcome/".length()));
                    welcome(exchange, code);
                } else if (method.equals("GET") && path.equals("/sim/deliveries")) {
                    Optional<JsonObject> deliveries = extras.deliveries();
                    if (deliveries.isPresent()) {
                        send(exchange, 200, deliveries.get());
                    } else {
                        send(exchange, 404, error("no platform side in this process"));
                    }
                } else {
                    send(exchange, 404, error("unknown control endpoint " + method + " " + path));
                }
            } catch (IllegalArgumentException | NullPointerException | ClassCastException e) {
                // A malformed control request (missing or mistyped field): tell the caller, keep running.
                send(exchange, 400, error(String.valueOf(e.getMessage())));
            }
        }
    }

    private JsonObject callsSummary(Optional<String> pathFilter) {
        List<ApiCall> all = pathFilter.map(p -> api.calls().calls(p)).orElseGet(() -> api.calls().calls());
        Map<String, Integer> byPath = new TreeMap<>();
        Map<String, Integer> byErrcode = new TreeMap<>();
        JsonArrayBuilder list = Json.createArrayBuilder();
        for (ApiCall c : all) {
            byPath.merge(c.path(), 1, Integer::sum);
            byErrcode.merge(c.errcode().map(String::valueOf).orElse("http_" + c.httpStatus()), 1, Integer::sum);
            list.add(callJson(c));
        }
        JsonObjectBuilder paths = Json.createObjectBuilder();
        byPath.forEach(paths::add);
        JsonObjectBuilder errcodes = Json.createObjectBuilder();
        byErrcode.forEach(errcodes::add);
        return Json.createObjectBuilder().add("total", all.size()).add("byPath", paths).add("byErrcode", errcodes)
                .add("successfulWelcomeSends", api.calls().successfulWelcomeSends()).add("calls", list).build();
    }

    static JsonObject callJson(ApiCall c) {
        JsonObjectBuilder b = Json.createObjectBuilder().add("path", c.path()).add("at", c.at().toString())
                .add("httpStatus", c.httpStatus()).add("body", c.body());
        c.app().ifPresent(v -> b.add("app", v));
        c.corpId().ifPresent(v -> b.add("corpId", v));
        c.errcode().ifPresent(v -> b.add("errcode", v));
        c.welcomeCode().ifPresent(v -> b.add("welcomeCode", v));
        c.touser().ifPresent(v -> b.add("touser", v));
        c.content().ifPresent(v -> b.add("content", v));
        c.fault().ifPresent(v -> b.add("fault", v.jsonName()));
        if (!c.extraFields().isEmpty()) {
            JsonObjectBuilder extra = Json.createObjectBuilder();
            c.extraFields().forEach(extra::add);
            b.add("extraFields", extra);
        }
        return b.build();
    }

    /**
     * Accepts one rule or {@code {"rules":[...]}}; a rule is
     * {@code {"path":"/cgi-bin/...","fault":"slow","next":2}} or {@code {..., "rate":0.1}};
     * {@code {"clear":true}} removes all rules first; {@code {"slowDelayMillis":6000}} sets the slow delay;
     * {@code {"latencyMillis":100,"jitterMillis":30,"slowTailRate":0.01,"slowTailMillis":3000}} sets every
     * answer's timing; {@code {"callsPerMinute":10000}} sets the frequency limit (45009 above it);
     * {@code {"side":"platform","lostAckRate":0.1,"slowAckRate":0,"loseNextAcks":2}} goes to the platform.
     */
    private void applyFaults(JsonObject request) {
        if (request.getBoolean("clear", false)) {
            api.faults().clear();
        }
        if (request.containsKey("slowDelayMillis")) {
            api.slowDelay(java.time.Duration.ofMillis(request.getJsonNumber("slowDelayMillis").longValue()));
        }
        if (request.containsKey("latencyMillis")) {
            api.timing(new ApiTiming(millis(request, "latencyMillis"), millis(request, "jitterMillis"),
                    request.containsKey("slowTailRate") ? request.getJsonNumber("slowTailRate").doubleValue() : 0,
                    millis(request, "slowTailMillis")));
        }
        if (request.containsKey("callsPerMinute")) {
            api.frequencyLimit().perMinute(request.getInt("callsPerMinute"));
        }
        if (request.containsKey("rules")) {
            for (JsonValue rule : request.getJsonArray("rules")) {
                applyRule(rule.asJsonObject());
            }
        } else if (request.containsKey("fault") || request.containsKey("side")) {
            applyRule(request);
        }
    }

    private static java.time.Duration millis(JsonObject request, String key) {
        return java.time.Duration.ofMillis(request.containsKey(key) ? request.getJsonNumber(key).longValue() : 0);
    }

    private void applyRule(JsonObject rule) {
        if ("platform".equals(rule.getString("side", "api"))) {
            extras.platformFault(rule);
            return;
        }
        String path = rule.getString("path", ApiFaults.ANY_PATH);
        ApiFault fault = ApiFault.fromName(rule.getString("fault"));
        if (rule.containsKey("next")) {
            api.faults().add(ApiFaults.Rule.nextCalls(path, fault, rule.getInt("next")));
        } else if (rule.containsKey("rate")) {
            api.faults().add(ApiFaults.Rule.rate(path, fault, rule.getJsonNumber("rate").doubleValue()));
        } else {
            throw new IllegalArgumentException("a fault rule needs \"next\" or \"rate\"");
        }
    }

    private JsonObject faultsJson() {
        JsonArrayBuilder rules = Json.createArrayBuilder();
        for (ApiFaults.Rule r : api.faults().rules()) {
            JsonObjectBuilder b = Json.createObjectBuilder().add("path", r.path()).add("fault", r.fault().jsonName());
            if (r.remaining() > 0) b.add("next", r.remaining()); else b.add("rate", r.rate());
            rules.add(b);
        }
        return Json.createObjectBuilder().add("rules", rules).build();
    }

    private void welcome(HttpExchange exchange, String code) throws IOException {
        Optional<WelcomeCodes.State> state = api.welcomeCodes().state(code);
        if (state.isEmpty()) {
            send(exchange, 404, error("unknown welcome code"));
            return;
        }
        WelcomeCodes.State s = state.get();
        JsonObjectBuilder b = Json.createObjectBuilder().add("code", s.code()).add("app", s.app())
                .add("eventCreateTime", s.eventCreateTime().toString()).add("expiresAt", s.expiresAt().toString())
                .add("used", s.used()).add("sendAttempts", s.sendAttempts())
                .add("successfulSends", api.calls().successfulWelcomeSends(code));
        if (s.used()) {
            b.add("usedAt", s.usedAt().toString());
        }
        JsonArrayBuilder calls = Json.createArrayBuilder();
        api.calls().calls(WeComApiPaths.SEND_WELCOME_MSG).stream()
                .filter(c -> c.welcomeCode().filter(code::equals).isPresent())
                .forEach(c -> calls.add(callJson(c)));
        send(exchange, 200, b.add("calls", calls).build());
    }

    private static JsonObject readJson(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        return JsonAnswers.parseObject(body).orElseThrow(() -> new IllegalArgumentException("body is not a JSON object"));
    }

    private static JsonObject error(String message) {
        return Json.createObjectBuilder().add("error", message).build();
    }

    private static void send(HttpExchange exchange, int status, JsonObject json) throws IOException {
        byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
