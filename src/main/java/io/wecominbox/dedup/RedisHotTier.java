package io.wecominbox.dedup;

import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;

/**
 * The hot tier on Redis. A claim is one round trip, {@code SET key claim:<owner> NX PX ttl GET}: it sets the
 * key if absent and returns what was there. Every call sits behind a circuit breaker with short client
 * timeouts, so a dead Redis costs one timeout per open interval, not one per message.
 */
final class RedisHotTier implements HotTier {

    private static final Logger LOG = Logger.getLogger(RedisHotTier.class.getName());

    // compare-and-delete: a release must never drop a claim that another delivery took after ours expired
    private static final String RELEASE_IF_OURS =
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

    private final RedisClient redis;
    private final CircuitBreaker breaker;
    private final String description;

    RedisHotTier(RedisClient redis, CircuitBreaker breaker, String description) {
        this.redis = redis;
        this.breaker = breaker;
        this.description = description;
    }

    @Override
    public HotClaim claim(String key, String owner, Duration ttl) {
        if (!breaker.allows()) {
            return HotClaim.STORE_DOWN;
        }
        try {
            String existing = redis.setGet(key, HotTierValues.claim(owner),
                SetParams.setParams().nx().px(ttl.toMillis()));
            breaker.success();
            return HotTierValues.interpret(existing, owner);
        } catch (JedisException e) {
            failed("claim", e);
            return HotClaim.STORE_DOWN;
        }
    }

    @Override
    public void markDone(String key, String owner, Duration ttl) {
        if (!breaker.allows()) {
            return; // the claim expires by itself; the cold tier answers duplicates meanwhile
        }
        try {
            redis.set(key, HotTierValues.done(owner), SetParams.setParams().px(ttl.toMillis()));
            breaker.success();
        } catch (JedisException e) {
            failed("mark done", e);
        }
    }

    @Override
    public void release(String key, String owner) {
        if (!breaker.allows()) {
            return; // a claim left behind is still ours for our redelivery, and expires with its TTL
        }
        try {
            redis.eval(RELEASE_IF_OURS, List.of(key), List.of(HotTierValues.claim(owner)));
            breaker.success();
        } catch (JedisException e) {
            failed("release", e);
        }
    }

    @Override
    public String describe() {
        return description;
    }

    boolean ping() {
        try {
            return "PONG".equalsIgnoreCase(redis.ping());
        } catch (JedisException e) {
            return false;
        }
    }

    boolean breakerOpen() {
        return breaker.isOpen();
    }

    void close() {
        redis.close();
    }

    private void failed(String operation, JedisException e) {
        if (breaker.failure()) {
            LOG.warning("hot tier " + description + " unavailable (" + operation + ": " + e.getClass().getSimpleName()
                + "); skipping it for a while, then retrying. Handlers follow their on-hot-store-down policy.");
        } else if (LOG.isLoggable(Level.FINE)) {
            LOG.fine("hot tier " + operation + " failed again: " + e);
        }
    }
}
