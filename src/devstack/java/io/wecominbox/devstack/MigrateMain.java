package io.wecominbox.devstack;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Applies the versioned SQL in src/main/resources/db/migration to the dev-stack database.
 * Connection settings come from the same environment variables the server uses (DB_HOST, DB_PORT,
 * DB_NAME, DB_USER, DB_PASSWORD); FLYWAY_TARGET stops at that version (a benchmark's "before"). Production runs
 * the same files with `mvn flyway:migrate`.
 */
public final class MigrateMain {

    private MigrateMain() {
    }

    public static void main(String[] args) {
        // Flyway's INFO lines drown the stack's own output; warnings and errors still show
        java.util.logging.Logger.getLogger("org.flywaydb").setLevel(java.util.logging.Level.WARNING);
        String url = "jdbc:postgresql://" + env("DB_HOST", "127.0.0.1") + ":" + env("DB_PORT", "5432")
                + "/" + env("DB_NAME", "wecom_inbox");
        var configuration = Flyway.configure()
                .dataSource(url, env("DB_USER", "wecom"), env("DB_PASSWORD", ""))
                .locations("classpath:db/migration")
                .connectRetries(10);
        String target = env("FLYWAY_TARGET", "");
        if (!target.isEmpty()) {
            configuration.target(target);
        }
        MigrateResult result = configuration.load().migrate();
        System.out.printf("schema at version %s (%d migration(s) applied now)%n",
                result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion,
                result.migrationsExecuted);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
