package io.wecominbox.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * What the integration tests know about the running stack: the same settings the stack scripts use
 * (environment first, then target/stack/secrets.env, then the scripts' defaults).
 */
public final class StackEnv {

    /** What the stack scripts really used (target/stack/stack.env), then its generated secrets. */
    private static final Map<String, String> STACK = read("stack/stack.env");
    private static final Map<String, String> SECRETS = read("stack/secrets.env");

    private StackEnv() {
    }

    public static Path buildDir() {
        String dir = System.getProperty("wecom.build.dir", System.getenv().getOrDefault("WECOM_BUILD_DIR", "target"));
        return Path.of(dir).toAbsolutePath();
    }

    /** The Liberty server `mvn verify` runs (node 1 of a two-node run); also its default node name. */
    public static String libertyServer() {
        return System.getProperty("wecom.liberty.server", "wecomInboxTest");
    }

    public static Path projectDir() {
        return Path.of(System.getProperty("user.dir")).toAbsolutePath();
    }

    public static Path stackScript(String name) {
        return projectDir().resolve("src/stack").resolve(name);
    }

    public static String get(String name, String fallback) {
        String value = STACK.get(name);
        if (value == null || value.isBlank()) {
            value = System.getenv(name);
        }
        if (value == null || value.isBlank()) {
            value = SECRETS.get(name);
        }
        return value == null || value.isBlank() ? fallback : value;
    }

    /**
     * The WeCom app settings the dev stack handed to the server (WECOM_APPS, WECOM_APP_<NAME>_<KEY>): what the
     * simulator needs to play WeCom for the same apps ({@code new EnvironmentOverrides(wecomEnvironment())}).
     */
    public static Map<String, String> wecomEnvironment() {
        Map<String, String> values = new HashMap<>();
        SECRETS.forEach((k, v) -> {
            if (k.startsWith("WECOM_")) {
                values.put(k, v);
            }
        });
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("WECOM_") && !v.isBlank()) {
                values.put(k, v); // the environment wins, as in the stack scripts
            }
        });
        return values;
    }

    /** One app setting by the simulator's key suffix, e.g. {@code wecomApp("customer", "encoding-aes-key")}. */
    public static String wecomApp(String app, String suffix) {
        return get(("WECOM_APP_" + app + "_" + suffix).replaceAll("[^A-Za-z0-9]", "_").toUpperCase(java.util.Locale.ROOT),
                null);
    }

    public static String baseUrl() {
        return "http://127.0.0.1:" + System.getProperty("wecom.http.port", get("HTTP_PORT", "9080"));
    }

    public static Connection openDatabase() throws SQLException {
        String url = "jdbc:postgresql://" + get("DB_HOST", "127.0.0.1") + ":" + get("DB_PORT", "5432") + "/"
                + get("DB_NAME", "wecom_inbox");
        return DriverManager.getConnection(url, get("DB_USER", "wecom"), get("DB_PASSWORD", ""));
    }

    /** As the stack's database administrator (PG_ADMIN_USER, default postgres), for tests that play an outage. */
    public static Connection openDatabaseAsAdmin() throws SQLException {
        String url = "jdbc:postgresql://" + get("DB_HOST", "127.0.0.1") + ":" + get("DB_PORT", "5432") + "/"
                + get("DB_NAME", "wecom_inbox");
        return DriverManager.getConnection(url, get("PG_ADMIN_USER", "postgres"), get("PG_ADMIN_PASSWORD", ""));
    }

    private static Map<String, String> read(String relativePath) {
        Path file = buildDir().resolve(relativePath);
        Map<String, String> values = new HashMap<>();
        if (!Files.exists(file)) {
            return values;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (eq > 0 && !line.startsWith("#")) {
                    values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return values;
    }
}
