package io.wecominbox.handler.bot;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The bot handler's configuration (MicroProfile Config, read on every delivery):
 * <ul>
 *   <li>{@code wecom.bot.<app>.reply-text} (env e.g. {@code WECOM_BOT_CUSTOMER_REPLY_TEXT}): the reply; unset =
 *       the app's messages get no reply;</li>
 *   <li>{@code wecom.handler.bot.duplicate-check-interval} (default PT5M, zero = off): asks WeCom to drop a
 *       repeat of the same reply to the same member within this interval ({@code enable_duplicate_check}), see
 *       {@link BotHandler};</li>
 *   <li>{@code wecom.handler.bot.call-budget} (default PT10S): the most one reply call may take.</li>
 * </ul>
 */
@ApplicationScoped
public class BotConfig {

    /** WeCom's upper bound for duplicate_check_interval. */
    static final Duration MAX_DUPLICATE_CHECK_INTERVAL = Duration.ofHours(4);

    @Inject
    Config config;

    public Optional<String> replyText(String app) {
        return config.getOptionalValue("wecom.bot." + app + ".reply-text", String.class).filter(t -> !t.isBlank());
    }

    public Duration duplicateCheckInterval() {
        Duration d = duration("wecom.handler.bot.duplicate-check-interval", Duration.ofMinutes(5));
        return d.compareTo(MAX_DUPLICATE_CHECK_INTERVAL) > 0 ? MAX_DUPLICATE_CHECK_INTERVAL : d;
    }

    public Duration callBudget() {
        return duration("wecom.handler.bot.call-budget", Duration.ofSeconds(10));
    }

    private Duration duration(String key, Duration fallback) {
        return config.getOptionalValue(key, String.class).map(String::trim).filter(v -> !v.isEmpty())
            .map(Duration::parse).orElse(fallback);
    }
}
