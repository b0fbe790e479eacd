package io.wecominbox.dedup;

import java.time.Duration;

/**
 * The hot tier when the configured Redis may not be used (no password while one is required): every claim answers
 * {@link HotClaim#STORE_DOWN}, so each handler's store-down policy decides, as during a Redis outage.
 */
final class RefusedHotTier implements HotTier {

    private final String description;

    RefusedHotTier(String description) {
        this.description = description;
    }

    @Override
    public HotClaim claim(String key, String owner, Duration ttl) {
        return HotClaim.STORE_DOWN;
    }

    @Override
    public void markDone(String key, String owner, Duration ttl) {
        // nothing was claimed
    }

    @Override
    public void release(String key, String owner) {
        // nothing was claimed
    }

    @Override
    public String describe() {
        return description;
    }
}
