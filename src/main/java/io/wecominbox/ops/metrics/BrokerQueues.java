package io.wecominbox.ops.metrics;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Queue depths from the broker, refreshed every few seconds on a scheduler thread and cached: /metrics and
 * the dashboard read the cache and never wait for the broker. Without management credentials
 * (wecom.broker.management.password / ARTEMIS_MONITOR_PASSWORD) it stays off and says so once.
 */
@ApplicationScoped
public class BrokerQueues {

    public static final String DEPTH = "wecom.broker.queue.depth";
    public static final String CONSUMERS = "wecom.broker.queue.consumers";
    private static final Logger LOG = Logger.getLogger(BrokerQueues.class.getName());

    private static final Metadata DEPTH_META = Metadata.builder().withName(DEPTH)
            .withDescription("Messages in a broker queue (dead-letter and expiry queues included), by queue").build();
    private static final Metadata CONSUMERS_META = Metadata.builder().withName(CONSUMERS)
            .withDescription("Consumers attached to a broker queue, by queue").build();

    @Inject
    BrokerManagement management;

    @Inject
    @ConfigProperty(name = "wecom.broker.management.refresh-seconds", defaultValue = "5")
    long refreshSeconds;

    @Resource
    private ManagedScheduledExecutorService scheduler;

    @Inject
    private MetricRegistry registry;

    @Inject
    private Clock clock;

    private final Map<String, QueueDepth> latest = new ConcurrentHashMap<>();
    private final java.util.Set<String> registered = ConcurrentHashMap.newKeySet();
    private volatile Snapshot snapshot = new Snapshot(null, List.of(), "not read yet");
    private JolokiaQueueReader reader;
    private ScheduledFuture<?> refreshing;

    @PostConstruct
    void start() {
        if (management.client().isEmpty()) {
            snapshot = new Snapshot(null, List.of(), "broker management " + management.unavailable());
            LOG.info("queue depths off: broker management is " + management.unavailable());
            return;
        }
        reader = new JolokiaQueueReader(management.client().get());
        refreshing = scheduler.scheduleWithFixedDelay(this::refresh, 0, Math.max(1, refreshSeconds), TimeUnit.SECONDS);
    }

    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // being called created the bean, so polling starts with the application
    }

    @PreDestroy
    void stop() {
        if (refreshing != null) {
            refreshing.cancel(false);
        }
    }

    /** The last reading; its error says why it is old or empty. */
    public Snapshot snapshot() {
        return snapshot;
    }

    void refresh() {
        try {
            List<QueueDepth> queues = reader.read();
            Map<String, QueueDepth> now = new java.util.HashMap<>();
            queues.forEach(q -> now.put(q.queue(), q));
            latest.putAll(now);
            latest.keySet().retainAll(now.keySet()); // a deleted queue reads 0 from now on
            now.keySet().stream().filter(registered::add).forEach(this::register);
            if (snapshot.error() != null && snapshot.readAt() != null) {
                LOG.info("queue depths: broker management answers again");
            }
            snapshot = new Snapshot(clock.instant(), queues, null);
        } catch (IOException | RuntimeException e) {
            fail(e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fail(String why) {
        if (snapshot.error() == null) {
            LOG.warning("queue depths: cannot read the broker's management API, keeping the last values: " + why);
        }
        snapshot = new Snapshot(snapshot.readAt(), snapshot.queues(), why == null ? "unreadable" : why);
    }

    private void register(String queue) {
        Tag tag = new Tag("queue", queue); // a queue name from the broker, filtered and capped by the reader
        registry.gauge(DEPTH_META, () -> valueOf(queue, QueueDepth::messages), tag);
        registry.gauge(CONSUMERS_META, () -> valueOf(queue, QueueDepth::consumers), tag);
    }

    private long valueOf(String queue, java.util.function.ToLongFunction<QueueDepth> field) {
        QueueDepth q = latest.get(queue);
        return q == null ? 0 : field.applyAsLong(q);
    }

    /** Queues as of {@code readAt} (null if never read); {@code error} is null when the last read worked. */
    public record Snapshot(Instant readAt, List<QueueDepth> queues, String error) {
    }
}
