package io.wecominbox.dedup;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * A handler's effective policy: its defaults in code, each value overridable by MicroProfile Config
 * ({@code wecom.handler.<name>.hot-window} / {@code .cold-window} as ISO-8601 durations, e.g. PT10M or P30D;
 * {@code .on-hot-store-down} / {@code .on-cold-store-down} as PROCEED or REJECT). Read on every delivery,
 * so an operator's change applies without a restart (server.xml variables are visible to MP Config).
 * Whether a handler is naturally idempotent is a property of its code, not of a deployment: not overridable.
 */
@ApplicationScoped
public class PolicyResolver {

    public DedupPolicy effective(String handler, DedupPolicy defaults) {
        if (defaults.naturallyIdempotent()) {
            return defaults;
        }
        Config config = ConfigProvider.getConfig();
        String prefix = "wecom.handler." + handler + ".";
        return defaults.toBuilder()
            .hotWindow(duration(config, prefix + "hot-window").orElse(defaults.hotWindow()))
            .coldWindow(duration(config, prefix + "cold-window").orElse(defaults.coldWindow()))
            .onHotStoreDown(action(config, prefix + "on-hot-store-down").orElse(defaults.onHotStoreDown()))
            .onColdStoreDown(action(config, prefix + "on-cold-store-down").orElse(defaults.onColdStoreDown()))
            .build();
    }

    private static Optional<Duration> duration(Config config, String name) {
        return config.getOptionalValue(name, String.class).map(String::trim).filter(v -> !v.isEmpty())
            .map(v -> parse(name, v));
    }

    private static Optional<StoreDownAction> action(Config config, String name) {
        return config.getOptionalValue(name, String.class).map(String::trim).filter(v -> !v.isEmpty())
            .map(v -> {
                try {
                    return StoreDownAction.valueOf(v.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException(name + " must be PROCEED or REJECT, not " + v, e);
                }
            });
    }

    private static Duration parse(String name, String value) {
        try {
            return Duration.parse(value);
        } catch (RuntimeException e) {
            throw new IllegalStateException(name + " must be an ISO-8601 duration (PT10M, P30D), not " + value, e);
        }
    }
}
