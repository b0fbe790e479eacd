package io.wecominbox.retention;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.Config;

/**
 * The wecom.retention.* settings, read at each run (a changed setting applies at the next one). A zero
 * duration keeps: P0D erases nothing or drops nothing. Invalid settings make the run fail, erasing nothing.
 */
@ApplicationScoped
public class RetentionSettings {

    @Inject
    Config config;

    /** The tables under retention, with their windows (defaults in docs/dba.md, "Retention"). */
    public List<RetentionPolicy> policies() {
        return List.of(
            new RetentionPolicy(RetainedTable.CALLBACK_LOG,
                duration("wecom.retention.callback-log.erase-after", "P30D"),
                duration("wecom.retention.callback-log.drop-after", "P180D")),
            new RetentionPolicy(RetainedTable.CONVERSATION_MESSAGE,
                duration("wecom.retention.conversation-message.erase-after", "P30D"),
                duration("wecom.retention.conversation-message.drop-after", "P180D")),
            new RetentionPolicy(RetainedTable.BOT_REPLY_LOG, null,
                duration("wecom.retention.bot-reply-log.drop-after", "P180D")),
            new RetentionPolicy(RetainedTable.CALLBACK_REJECTION,
                duration("wecom.retention.callback-rejection.erase-after", "P7D"),
                duration("wecom.retention.callback-rejection.drop-after", "P90D")));
    }

    /** Rows per statement: each batch commits on its own, so none holds many locks or runs long. */
    public int batch() {
        return config.getOptionalValue("wecom.retention.batch", Integer.class).orElse(1000);
    }

    /** Months of callback_log partitions made ahead of the current one. */
    public int monthsAhead() {
        return config.getOptionalValue("wecom.retention.callback-log.months-ahead", Integer.class).orElse(2);
    }

    private Duration duration(String key, String defaultValue) {
        String value = config.getOptionalValue(key, String.class).orElse(defaultValue).strip();
        try {
            return Duration.parse(value);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException(key + ": not an ISO-8601 duration such as P30D: " + value);
        }
    }
}
