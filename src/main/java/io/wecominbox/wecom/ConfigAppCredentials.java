package io.wecominbox.wecom;

import java.util.Optional;
import java.util.function.Function;

/**
 * Credentials from the keys of the app registry ({@link WeComAppsConfig}, one owner of the name rule and key
 * shape): {@code wecom.app.<name>.corp-id|secret|agent-id} (environment: {@code WECOM_APP_<NAME>_SECRET}). Read
 * on every lookup, so a rotated secret is picked up at the next token fetch without a restart.
 */
public final class ConfigAppCredentials implements AppCredentials {

    private final Function<String, Optional<String>> lookup;

    public ConfigAppCredentials(Function<String, Optional<String>> lookup) {
        this.lookup = lookup;
    }

    @Override
    public Optional<WeComCredentials> find(String app) {
        if (app == null || !WeComAppsConfig.NAME.matcher(app).matches()) {
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
        return WeComAppsConfig.key(app, "corp-id") + " and " + WeComAppsConfig.key(app, "secret");
    }

    private Optional<String> value(String app, String suffix) {
        return WeComAppsConfig.value(lookup, WeComAppsConfig.key(app, suffix));
    }
}
