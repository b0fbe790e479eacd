package io.wecominbox.simulator.platform;

import java.time.Instant;
import java.util.Optional;

/**
 * One generated callback before encryption. {@code id} is the simulator's own handle for the event
 * (WeCom has none for most events); it never appears on the wire.
 */
public record SimEvent(String id, String app, EventType type, Instant createTime, String xml,
                       String welcomeCode) {

    public Optional<String> welcomeCodeIfAny() {
        return Optional.ofNullable(welcomeCode);
    }
}
