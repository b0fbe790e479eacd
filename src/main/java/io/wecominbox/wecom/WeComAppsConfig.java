package io.wecominbox.wecom;

import io.wecominbox.crypto.WeComCrypto;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads {@code wecom.apps} and {@code wecom.app.<name>.*} (the keys the simulator reads too) into ready apps
 * and misconfigured ones. Never throws for bad settings: one broken app must not keep the others from
 * starting. Problems name the key and its environment variable, never a value.
 */
public final class WeComAppsConfig {

    public static final String APPS = "wecom.apps";
    /** Names travel in URLs and environment variable names: keep them plain (the API client's lookups too). */
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");

    private final Map<String, WeComApp> ready;
    private final Map<String, List<String>> broken;

    private WeComAppsConfig(Map<String, WeComApp> ready, Map<String, List<String>> broken) {
        this.ready = Collections.unmodifiableMap(ready);
        this.broken = Collections.unmodifiableMap(broken);
    }

    /** @param lookup a config property by name; empty when unset (MicroProfile treats "" as unset too) */
    public static WeComAppsConfig read(Function<String, Optional<String>> lookup) {
        Map<String, WeComApp> ready = new LinkedHashMap<>();
        Map<String, List<String>> broken = new LinkedHashMap<>();
        String names = lookup.apply(APPS).orElse("");
        for (String raw : names.split(",")) {
            String name = raw.strip();
            if (name.isEmpty()) {
                continue;
            }
            if (!NAME.matcher(name).matches()) {
                broken.put(name, List.of("app name must be 1-32 of a-z, 0-9, '_' and '-', starting with a letter or digit"));
            } else if (ready.containsKey(name) || broken.containsKey(name)) {
                broken.put(name, List.of("listed twice in " + APPS));
                ready.remove(name);
            } else {
                readApp(name, lookup, ready, broken);
            }
        }
        return new WeComAppsConfig(ready, broken);
    }

    private static void readApp(String name, Function<String, Optional<String>> lookup,
                                Map<String, WeComApp> ready, Map<String, List<String>> broken) {
        List<String> problems = new ArrayList<>();
        String corpId = required(lookup, name, "corp-id", problems);
        String token = required(lookup, name, "token", problems);
        String aesKey = required(lookup, name, "encoding-aes-key", problems);
        String agentId = value(lookup, key(name, "agent-id")).orElse(null);
        if (!problems.isEmpty()) {
            broken.put(name, problems);
            return;
        }
        try {
            ready.put(name, new WeComApp(name, corpId, agentId, new WeComCrypto(token, aesKey, corpId)));
        } catch (IllegalArgumentException e) {
            // WeComCrypto's messages never repeat the key or the token.
            broken.put(name, List.of(e.getMessage() + " (" + key(name, "encoding-aes-key") + ")"));
        }
    }

    private static String required(Function<String, Optional<String>> lookup, String app, String suffix,
                                   List<String> problems) {
        String key = key(app, suffix);
        Optional<String> value = value(lookup, key);
        if (value.isEmpty()) {
            problems.add("missing " + key + " (or " + environmentName(key) + ")");
        }
        return value.orElse(null);
    }

    static Optional<String> value(Function<String, Optional<String>> lookup, String key) {
        return lookup.apply(key).map(String::strip).filter(v -> !v.isEmpty());
    }

    public static String key(String app, String suffix) {
        return "wecom.app." + app + "." + suffix;
    }

    /** MicroProfile Config's environment name for a property: non-alphanumerics to '_', upper case. */
    static String environmentName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    public Map<String, WeComApp> ready() {
        return ready;
    }

    /** Misconfigured apps and what is wrong with each. */
    public Map<String, List<String>> broken() {
        return broken;
    }
}
