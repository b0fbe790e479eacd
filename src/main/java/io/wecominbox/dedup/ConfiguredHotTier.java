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
 * {@code redis.password} (env REDIS_PASSWORD, no default), {@code redis.database}, {@code redis.tls}.
 *
 * <p>Without a password anyone who can write to that Redis can mark an event done and make a handler skip it:
 * said at start, and refused outright (claims answer STORE_DOWN, readiness DOWN) when
 * {@code wecom.dedup.redis.require-auth} is true.
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

    /** TLS to Redis (the server's certificate checked against the JVM's trust store). */
    @Inject
    @ConfigProperty(name = "redis.tls", defaultValue = "false")
    boolean tls;

    @Inject
    @ConfigProperty(name = "wecom.dedup.redis.require-auth", defaultValue = "false")
    boolean requireAuth;

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
    private boolean refused;
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
        String where = "redis " + host.get() + ":" + port + "/" + database;
        boolean noPassword = password.filter(p -> !p.isBlank()).isEmpty();
        if (noPassword && requireAuth) {
            refused = true;
            tier = new RefusedHotTier(where + " refused: no password while wecom.dedup.redis.require-auth is true");
            LOG.severe("redis.password (REDIS_PASSWORD) is not set and wecom.dedup.redis.require-auth is true: Redis is"
                + " not used; each handler's store-down policy applies until a password is configured");
            return;
        }
        if (noPassword) {
            LOG.warning(where + " is used without a password (REDIS_PASSWORD unset): anyone who can write to it can"
                + " mark an event done and make a handler skip it. Set one, and wecom.dedup.redis.require-auth=true"
                + " to refuse a Redis without it");
        }
        int millis = (int) timeout.toMillis();
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
            .connectionTimeoutMillis(millis).socketTimeoutMillis(millis).database(database)
            .clientName("wecom-inbox").ssl(tls);
        password.filter(p -> !p.isBlank()).ifPresent(config::password);
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxWait(timeout);
        RedisClient client = RedisClient.builder().hostAndPort(host.get(), port).clientConfig(config.build())
            .poolConfig(pool).build();
        redisTier = new RedisHotTier(client, new CircuitBreaker(breakerOpen, System::nanoTime),
            where + (tls ? " (TLS)" : "") + (noPassword ? " (no password)" : ""));
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
        return !refused && (redisTier == null || redisTier.ping());
    }

    /** True when a Redis is configured but may not be used (no password while one is required). */
    public boolean refused() {
        return refused;
    }

    public boolean isShared() {
        return redisTier != null;
    }

    /** Drops expired in-process entries (Redis expires keys by itself). Returns how many. */
    public int sweepExpired() {
        return inProcessTier == null ? 0 : inProcessTier.sweep();
    }
}
