package io.wecominbox.handler;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The message ids of batches that rolled back lately: they are redelivered and must each run alone (the
 * one that failed goes on failing and must not take others to the DLQ with it). Kept for longer than a
 * handler's redelivery schedule; bounded, because a selector listing thousands of ids costs the broker
 * more than running them one by one.
 */
@ApplicationScoped
public class RolledBackMembers {

    static final Duration KEPT_FOR = Duration.ofMinutes(10);
    static final int MAX_KEPT = 2_000;

    private final Map<String, Long> until = new ConcurrentHashMap<>();

    void remember(List<String> messageIds) {
        long expires = System.nanoTime() + KEPT_FOR.toNanos();
        messageIds.forEach(id -> until.put(id, expires));
    }

    /** A selector that leaves those messages out of a batch, or null when there are none. */
    String excludingSelector() {
        if (until.isEmpty()) {
            return null;
        }
        long now = System.nanoTime();
        until.values().removeIf(expires -> expires - now < 0);
        if (until.isEmpty()) {
            return null;
        }
        if (until.size() > MAX_KEPT) {
            return "1 = 0"; // too many to list: no company for anyone until they expire
        }
        // JMS message ids are "ID:" + hex and dashes: nothing to escape
        return until.keySet().stream().map(id -> "'" + id.replace("'", "''") + "'")
            .collect(Collectors.joining(",", "JMSMessageID NOT IN (", ")"));
    }
}
