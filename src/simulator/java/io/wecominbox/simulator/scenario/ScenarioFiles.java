package io.wecominbox.simulator.scenario;

import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.ApiFaults;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.platform.EventType;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Reads scenario files (properties):
 * <pre>
 * description=...
 * rate=5                      # events per second
 * duration=60s                # 500ms, 60s, 2m or ISO-8601 (PT1M)
 * mix.add_external_contact=50 # weight per EventType, lower case
 * platform.lost-ack-rate=0.05
 * platform.slow-ack-rate=0.02
 * api.fault.send_welcome_msg.system_busy=0.02   # api.fault.&lt;gettoken|send_welcome_msg|message_send|/path&gt;.&lt;fault&gt;=rate
 * </pre>
 * A name without a path is looked up as {@code scenarios/<name>.properties} on the classpath.
 */
public final class ScenarioFiles {

    private static final Map<String, String> PATH_ALIASES = Map.of(
            "gettoken", WeComApiPaths.GET_TOKEN,
            "send_welcome_msg", WeComApiPaths.SEND_WELCOME_MSG,
            "message_send", WeComApiPaths.MESSAGE_SEND,
            "any", ApiFaults.ANY_PATH);

    private ScenarioFiles() {
    }

    /** A file path if one exists, else a classpath scenario by name (e.g. "demo"). */
    public static Scenario load(String nameOrPath) throws IOException {
        Path file = Path.of(nameOrPath);
        if (Files.isRegularFile(file)) {
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                return parse(baseName(file.getFileName().toString()), read(in));
            }
        }
        String resource = "scenarios/" + baseName(nameOrPath) + ".properties";
        try (InputStream in = ScenarioFiles.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no scenario file " + nameOrPath + " and no classpath resource " + resource);
            }
            return parse(baseName(nameOrPath), read(new InputStreamReader(in, StandardCharsets.UTF_8)));
        }
    }

    public static Scenario parse(String name, Properties p) {
        Map<EventType, Double> mix = new LinkedHashMap<>();
        List<ApiFaults.Rule> faults = new ArrayList<>();
        for (String key : new TreeSet<>(p.stringPropertyNames())) {
            String value = p.getProperty(key).trim();
            if (key.startsWith("mix.")) {
                double weight = number(key, value);
                if (weight < 0) throw new IllegalArgumentException(key + ": weight must be >= 0");
                if (weight > 0) mix.put(EventType.fromScenarioName(key.substring("mix.".length())), weight);
            } else if (key.startsWith("api.fault.")) {
                faults.add(apiFault(key, value));
            } else if (!KNOWN_KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown scenario key '" + key + "'");
            }
        }
        return new Scenario(name, p.getProperty("description", "").trim(),
                number("rate", require(p, "rate")), duration(require(p, "duration")), mix,
                number("platform.lost-ack-rate", p.getProperty("platform.lost-ack-rate", "0")),
                number("platform.slow-ack-rate", p.getProperty("platform.slow-ack-rate", "0")), faults);
    }

    private static final java.util.Set<String> KNOWN_KEYS = java.util.Set.of(
            "description", "rate", "duration", "platform.lost-ack-rate", "platform.slow-ack-rate");

    private static ApiFaults.Rule apiFault(String key, String value) {
        String rest = key.substring("api.fault.".length());
        int dot = rest.lastIndexOf('.');
        if (dot <= 0) throw new IllegalArgumentException(key + ": expected api.fault.<path>.<fault>");
        String pathName = rest.substring(0, dot);
        String path = pathName.startsWith("/") ? pathName : PATH_ALIASES.get(pathName);
        if (path == null) throw new IllegalArgumentException(key + ": unknown API path '" + pathName + "'");
        return ApiFaults.Rule.rate(path, ApiFault.fromName(rest.substring(dot + 1)), number(key, value));
    }

    static Duration duration(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            if (t.startsWith("p")) return Duration.parse(text.trim().toUpperCase(java.util.Locale.ROOT));
            if (t.endsWith("ms")) return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2).trim()));
            if (t.endsWith("s")) return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
            if (t.endsWith("m")) return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 60_000));
            return Duration.ofMillis(Math.round(Double.parseDouble(t) * 1000));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad duration '" + text + "'");
        }
    }

    private static String require(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null || value.isBlank()) throw new IllegalArgumentException("scenario needs '" + key + "'");
        return value;
    }

    private static double number(String key, String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + ": not a number '" + value + "'");
        }
    }

    private static Properties read(Reader in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        return p;
    }

    private static String baseName(String name) {
        return name.endsWith(".properties") ? name.substring(0, name.length() - ".properties".length()) : name;
    }
}
