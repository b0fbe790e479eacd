package io.wecominbox.handler.welcome;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The welcome handler's configuration (MicroProfile Config, read on every delivery so an operator's change
 * applies without a restart):
 * <ul>
 *   <li>{@code wecom.welcome.<app>.state.<State>.text}, else {@code wecom.welcome.<app>.text}: the message
 *       (env e.g. {@code WECOM_WELCOME_CUSTOMER_TEXT}); no text configured = no welcome for that app;</li>
 *   <li>{@code wecom.handler.welcome.deadline-margin} (PT0.5S), {@code .min-call-time} (PT0.2S): see
 *       {@link WelcomeWindow};</li>
 *   <li>{@code wecom.handler.welcome.redelivery-delay} (PT0.5S), {@code .redelivery-multiplier} (1.5),
 *       {@code .max-redelivery-delay} (PT2S): must equal the broker's address-setting for wecom.handler.welcome.</li>
 * </ul>
 */
@ApplicationScoped
public class WelcomeConfig {

    private static final String PREFIX = "wecom.handler.welcome.";

    @Inject
    Config config;

    public WelcomeWindow window() {
        return new WelcomeWindow(
            duration("deadline-margin", Duration.ofMillis(500)),
            duration("min-call-time", Duration.ofMillis(200)),
            duration("redelivery-delay", Duration.ofMillis(500)),
            config.getOptionalValue(PREFIX + "redelivery-multiplier", Double.class).orElse(1.5),
            duration("max-redelivery-delay", Duration.ofSeconds(2)));
    }

    /** The text for this app and State (State first), with the key it came from; empty = none configured. */
    public Optional<ConfiguredText> text(String app, String state) {
        if (state != null && !state.isBlank()) {
            Optional<ConfiguredText> byState = lookup("wecom.welcome." + app + ".state." + state + ".text");
            if (byState.isPresent()) {
                return byState;
            }
        }
        return lookup("wecom.welcome." + app + ".text");
    }

    private Optional<ConfiguredText> lookup(String key) {
        return config.getOptionalValue(key, String.class).filter(t -> !t.isBlank())
            .map(t -> new ConfiguredText(key, t));
    }

    private Duration duration(String name, Duration fallback) {
        return config.getOptionalValue(PREFIX + name, String.class).map(String::trim).filter(v -> !v.isEmpty())
            .map(Duration::parse).orElse(fallback);
    }

    /** A configured message and where it came from (kept in welcome_send_log.text_key). */
    public record ConfiguredText(String key, String text) {
    }
}
