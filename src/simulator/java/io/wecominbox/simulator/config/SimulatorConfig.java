package io.wecominbox.simulator.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The WeCom settings the simulator shares with the app: {@code wecom.apps}, {@code wecom.app.<name>.*} and
 * {@code wecom.api.base-url}, read from a properties file with environment overrides.
 */
public final class SimulatorConfig {

    public static final String APPS = "wecom.apps";
    public static final String API_BASE_URL = "wecom.api.base-url";

    private final Map<String, WeComApp> apps;
    private final Optional<String> apiBaseUrl;

    public SimulatorConfig(List<WeComApp> apps, Optional<String> apiBaseUrl) {
        Map<String, WeComApp> byName = new LinkedHashMap<>();
        for (WeComApp app : apps) {
            if (byName.put(app.name(), app) != null) {
                throw new IllegalArgumentException("app defined twice: " + app.name());
            }
        }
        this.apps = java.util.Collections.unmodifiableMap(byName); // keeps the declared order
        this.apiBaseUrl = apiBaseUrl;
    }

    public static SimulatorConfig load(Path file, EnvironmentOverrides env) throws IOException {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(in);
        }
        return from(props, env);
    }

    /** Resolves every key as "environment wins over file", the MicroProfile ordering the app uses too. */
    public static SimulatorConfig from(Properties file, EnvironmentOverrides env) {
        PropertyLookup lookup = name -> env.lookup(name).or(() -> Optional.ofNullable(file.getProperty(name)))
                .map(String::trim);
        String names = lookup.get(APPS).orElseThrow(() -> new IllegalArgumentException(
                "missing " + APPS + " (or " + EnvironmentOverrides.environmentName(APPS) + ")"));
        List<WeComApp> apps = new ArrayList<>();
        for (String raw : names.split(",")) {
            String name = raw.trim();
            if (!name.isEmpty()) {
                apps.add(app(name, lookup));
            }
        }
        if (apps.isEmpty()) {
            throw new IllegalArgumentException(APPS + " names no app");
        }
        return new SimulatorConfig(apps, lookup.get(API_BASE_URL));
    }

    private static WeComApp app(String name, PropertyLookup lookup) {
        String prefix = "wecom.app." + name + ".";
        return new WeComApp(name,
                lookup.require(prefix + "corp-id"),
                lookup.require(prefix + "token"),
                lookup.require(prefix + "encoding-aes-key"),
                lookup.require(prefix + "agent-id"),
                lookup.require(prefix + "secret"));
    }

    public Map<String, WeComApp> apps() {
        return apps;
    }

    public WeComApp app(String name) {
        WeComApp app = apps.get(name);
        if (app == null) {
            throw new IllegalArgumentException("unknown app: " + name + " (known: " + apps.keySet() + ")");
        }
        return app;
    }

    public Optional<String> apiBaseUrl() {
        return apiBaseUrl;
    }

    @FunctionalInterface
    private interface PropertyLookup {
        Optional<String> get(String name);

        default String require(String name) {
            // The message names the key, never its value: values may be secrets.
            return get(name).filter(v -> !v.isEmpty()).orElseThrow(() -> new IllegalArgumentException(
                    "missing " + name + " (or " + EnvironmentOverrides.environmentName(name) + ")"));
        }
    }
}
