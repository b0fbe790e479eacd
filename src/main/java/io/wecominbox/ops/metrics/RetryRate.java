package io.wecominbox.ops.metrics;

import io.wecominbox.callbacklog.CallbackLogStatistics;
import io.wecominbox.callbacklog.CallbackLogStatistics.AppBucket;
import io.wecominbox.metrics.MetricLabels;
import io.wecominbox.ops.metrics.RetryRateWindow.Volume;
import io.wecominbox.wecom.WeComApps;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * How often WeCom had to send the same event over the last hour, per app: deliveries / event keys from
 * callback_log, a key counted by its first delivery (1.0 = every event answered in time the first time).
 * Computed every 30 s on a scheduler thread and cached, so neither the ACK path nor a scrape ever waits for it.
 * Each refresh reads the rows received since the last one, two minutes back ({@link RetryRateWindow}); every ten
 * minutes it reads the whole hour again, for the deliveries written late with their old arrival time (parked
 * while PostgreSQL was down).
 */
@ApplicationScoped
public class RetryRate {

    public static final String GAUGE = "wecom.retry.rate";
    private static final Logger LOG = Logger.getLogger(RetryRate.class.getName());
    private static final long PERIOD_SECONDS = 30;
    /** A delivery is committed a few seconds after its received_at at most, unless it was parked. */
    private static final Duration LATE_MARGIN = Duration.ofMinutes(2);
    private static final Duration RECOUNT = Duration.ofMinutes(10);

    private static final Metadata META = Metadata.builder().withName(GAUGE)
            .withDescription("Deliveries per distinct event key over the last hour (1.0 = no retries), by app").build();

    private final Map<String, Rate> rates = new ConcurrentHashMap<>();
    private final MetricLabels appLabels = new MetricLabels(50);
    private final RetryRateWindow window = new RetryRateWindow();
    // the scheduler runs one refresh at a time (fixed delay): these and the window are the refresh's alone
    private Instant lastRead;
    private Instant lastRecount;

    @Resource
    private ManagedScheduledExecutorService scheduler;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    private MetricRegistry registry;

    @Inject
    private WeComApps apps;

    @Inject
    private Clock clock;

    private ScheduledFuture<?> refreshing;
    private volatile boolean lastFailed;

    @PostConstruct
    void start() {
        apps.names().forEach(app -> rates.computeIfAbsent(app, this::register));
        refreshing = scheduler.scheduleWithFixedDelay(this::refreshQuietly, 5, PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // being called created the bean, so the gauge exists before the first scrape
    }

    @PreDestroy
    void stop() {
        if (refreshing != null) {
            refreshing.cancel(false);
        }
    }

    /** The cached rates by app (deliveries and keys of the last hour as of the last refresh). */
    public Map<String, Rate> current() {
        return Map.copyOf(rates);
    }

    void refresh() throws SQLException {
        Instant now = clock.instant();
        boolean recount = lastRecount == null || !now.isBefore(lastRecount.plus(RECOUNT));
        Instant from = RetryRateWindow.bucketStart(recount ? now.minus(RetryRateWindow.WINDOW)
            : lastRead.minus(LATE_MARGIN));
        List<AppBucket> read;
        try (Connection connection = dataSource.getConnection()) {
            read = CallbackLogStatistics.byAppAndBucket(connection, from, RetryRateWindow.BUCKET_SECONDS, 10);
        }
        window.replaceFrom(from, read, now);
        lastRead = now;
        if (recount) {
            lastRecount = now;
        }
        Map<String, Volume> counts = window.lastHour(now);
        counts.keySet().forEach(app -> rates.computeIfAbsent(app, this::register));
        rates.forEach((app, rate) -> {
            Volume v = counts.getOrDefault(app, Volume.NONE);
            rate.set(v.deliveries(), v.firstDeliveries());
        });
    }

    private Rate register(String app) {
        Rate rate = new Rate();
        registry.gauge(META, rate, Rate::ratio, new Tag("app", appLabels.of(app)));
        return rate;
    }

    private void refreshQuietly() {
        try {
            refresh();
            if (lastFailed) {
                LOG.info("retry rate: callback_log readable again");
            }
            lastFailed = false;
        } catch (SQLException | RuntimeException e) {
            if (!lastFailed) {
                LOG.log(Level.WARNING, "retry rate: cannot read callback_log, keeping the last value: {0}", e.toString());
            }
            lastFailed = true;
        }
    }

    /** Deliveries and distinct keys of one app in the last hour; ratio 1.0 when there were none. */
    public static final class Rate {
        private volatile long[] counts = {0, 0}; // one reference, so a reader never mixes two refreshes

        void set(long deliveries, long keys) {
            counts = new long[] {deliveries, keys};
        }

        public long deliveries() {
            return counts[0];
        }

        public long keys() {
            return counts[1];
        }

        public double ratio() {
            long[] c = counts;
            return c[1] == 0 ? 1.0 : (double) c[0] / c[1];
        }
    }
}
