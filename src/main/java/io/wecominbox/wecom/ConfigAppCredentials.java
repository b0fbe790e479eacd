package io.wecominbox.wecom;

import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Credentials from the same keys the ingest reads: {@code wecom.app.<name>.corp-id|secret|agent-id}
 * (environment: {@code WECOM_APP_<NAME>_SECRET}). Read on every lookup, so a rotated secret is picked up
 * at the next token fetch without a restart.
 */
public final class ConfigAppCredentials implements AppCredentials {

    /** Same rule as the ingest's app names; anything else cannot be configured anyway. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");

    private final Function<String, Optional<String>> lookup;

    public ConfigAppCredentials(Function<String, Optional<String>> lookup) {
        this.lookup = lookup;
    }

    @Override
    public Optional<WeComCredentials> find(String app) {
        if (app == null || !NAME.matcher(app).matches()) {
            return Optional.empty();
        }
        Optional<String> corpId = value(app, "corp-id");
        Optional<String> secret = value(app, "secret");
        if (corpId.isEmpty() || secret.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new WeComCredentials(app, corpId.get(), secret.get(), value(app, "agent-id")));
    }

    /** Names the keys an operator must set, never their values. */
    public static String missingHint(String app) {
        return "wecom.app." + app + ".corp-id and wecom.app." + app + ".secret";
    }

    private Optional<String> value(String app, String suffix) {
        return lookup.apply("wecom.app." + app + "." + suffix).map(String::strip).filter(v -> !v.isEmpty());
    }
}
