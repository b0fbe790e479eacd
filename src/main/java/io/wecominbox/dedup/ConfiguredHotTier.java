package io.wecominbox.dedup;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;

/**
 * The hot tier this node uses: Redis when {@code redis.host} is set (env REDIS_HOST), else in-process.
 * Connection settings come from MicroProfile Config: {@code redis.host}, {@code redis.port},
 * {@code redis.password} (env REDIS_PASSWORD, no default), {@code redis.database}.
 */
@ApplicationScoped
public class ConfiguredHotTier implements HotTier {

    private static final Logger LOG = Logger.getLogger(ConfiguredHotTier.class.getName());

    @Inject
    @ConfigProperty(name = "redis.host")
    Optional<String> host;

    @Inject
    @ConfigProperty(name = "redis.port", defaultValue = "6379")
    int port;

    @Inject
    @ConfigProperty(name = "redis.password")
    Optional<String> password;

    @Inject
    @ConfigProperty(name = "redis.database", defaultValue = "0")
    int database;

    /** Short on purpose: a Redis answer takes well under a millisecond; anything slower is a sick Redis. */
    @Inject
    @ConfigProperty(name = "wecom.dedup.hot.timeout", defaultValue = "PT0.25S")
    Duration timeout;

    @Inject
    @ConfigProperty(name = "wecom.dedup.hot.breaker-open", defaultValue = "PT2S")
    Duration breakerOpen;

    @Inject
    StoreMetrics storeMetrics;

    private HotTier tier;
    private RedisHotTier redisTier;
    private InProcessHotTier inProcessTier;

    @PostConstruct
    void start() {
        if (host.filter(h -> !h.isBlank()).isEmpty()) {
            inProcessTier = new InProcessHotTier(System::nanoTime);
            tier = inProcessTier;
            LOG.warning("no Redis configured (redis.host / REDIS_HOST empty): the dedup hot tier is in-process and"
                + " protects this node only; the database (cold tier) still protects every node");
            return;
        }
        int millis = (int) timeout.toMillis();
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(millis).socketTimeoutMillis(millis).database(database)
            .clientName("wecom-inbox");
        password.filter(p -> !p.isBlank()).ifPresent(config::password);
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxWait(timeout);
        RedisClient client = RedisClient.builder().hostAndPort(host.get(), port).clientConfig(config.build())
            .poolConfig(pool).build();
        redisTier = new RedisHotTier(client, new CircuitBreaker(breakerOpen, System::nanoTime),
            "redis " + host.get() + ":" + port + "/" + database);
        tier = redisTier;
        storeMetrics.breakerState("hot", redisTier::breakerOpen);
        LOG.info("dedup hot tier: " + tier.describe() + (redisTier.ping() ? " (answers)" : " (not answering yet)"));
    }

    @PreDestroy
    void stop() {
        if (redisTier != null) {
            redisTier.close();
        }
    }

    @Override
    public HotClaim claim(String key, String owner, Duration ttl) {
        long started = System.nanoTime();
        HotClaim claim = tier.claim(key, owner, ttl);
        storeMetrics.claimed("hot", started, claim == HotClaim.STORE_DOWN);
        return claim;
    }

    @Override
    public void markDone(String key, String owner, Duration ttl) {
        tier.markDone(key, owner, ttl);
    }

    @Override
    public void release(String key, String owner) {
        tier.release(key, owner);
    }

    @Override
    public String describe() {
        return tier.describe();
    }

    /** True when the hot tier can take claims now: in-process always, Redis when it answers a PING. */
    public boolean answers() {
        return redisTier == null || redisTier.ping();
    }

    public boolean isShared() {
        return redisTier != null;
    }

    /** Drops expired in-process entries (Redis expires keys by itself). Returns how many. */
    public int sweepExpired() {
        return inProcessTier == null ? 0 : inProcessTier.sweep();
    }
}
