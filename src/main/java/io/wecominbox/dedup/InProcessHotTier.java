package io.wecominbox.dedup;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The hot tier when no Redis is configured: the same contract in this JVM's memory. It protects this node
 * only; the cold tier still covers every node. Expired entries are dropped when touched and by {@link #sweep()}.
 */
final class InProcessHotTier implements HotTier {

    private record Entry(String value, long expiresAtNanos) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;

    InProcessHotTier(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    @Override
    public HotClaim claim(String key, String owner, Duration ttl) {
        long now = nanoClock.getAsLong();
        String[] existing = new String[1];
        entries.compute(key, (k, entry) -> {
            if (entry != null && entry.expiresAtNanos - now > 0) {
                existing[0] = entry.value;
                return entry;
            }
            return new Entry(HotTierValues.claim(owner), now + ttl.toNanos());
        });
        return HotTierValues.interpret(existing[0], owner);
    }

    @Override
    public void markDone(String key, String owner, Duration ttl) {
        entries.put(key, new Entry(HotTierValues.done(owner), nanoClock.getAsLong() + ttl.toNanos()));
    }

    @Override
    public void release(String key, String owner) {
        String claim = HotTierValues.claim(owner);
        entries.computeIfPresent(key, (k, entry) -> entry.value.equals(claim) ? null : entry);
    }

    @Override
    public String describe() {
        return "in-process (this node only)";
    }

    /** Drops expired entries; called periodically so the map stays bounded by the window. */
    int sweep() {
        long now = nanoClock.getAsLong();
        int before = entries.size();
        entries.values().removeIf(entry -> entry.expiresAtNanos - now <= 0);
        return before - entries.size();
    }
}
