package io.wecominbox.pacing;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * This node's {@link AckPressure}, fed every {@code wecom.pacing.probe-millis} by a probe on the server's
 * executor, where the callbacks run: how late the probe ran (the CPU or the threads are taken: the callbacks
 * would wait as long) or the age of the oldest delivery waiting for a group-commit writer (the writers are
 * behind), whichever is larger. The answers' own times are not used: they include the commit's fsync, which a
 * slow disk makes long whatever the consumers do, and holding the consumers back would not shorten it.
 * Gauges {@code wecom.pacing.pressure} and {@code wecom.pacing.episodes}.
 */
@ApplicationScoped
public class CallbackPressure {

    private static final Logger LOG = Logger.getLogger(CallbackPressure.class.getName());

    @Inject
    @ConfigProperty(name = "wecom.pacing.enabled", defaultValue = "true")
    boolean enabled;

    /** A probe this late, or a delivery waiting this long for a writer, puts the consumers on notice ... */
    @Inject
    @ConfigProperty(name = "wecom.pacing.enter-millis", defaultValue = "25")
    long enterMillis;

    /** ... and the pressure lasts until no probe has found either this long for {@code calm-millis}. */
    @Inject
    @ConfigProperty(name = "wecom.pacing.leave-millis", defaultValue = "10")
    long leaveMillis;

    @Inject
    @ConfigProperty(name = "wecom.pacing.calm-millis", defaultValue = "1000")
    long calmMillis;

    @Inject
    @ConfigProperty(name = "wecom.pacing.probe-millis", defaultValue = "50")
    long probeMillis;

    @Inject
    MetricRegistry metrics;

    @Resource
    private ManagedScheduledExecutorService scheduler;

    private AckPressure pressure;
    private volatile LongSupplier oldestWaitingNanos = () -> 0L;
    private ScheduledFuture<?> probing;
    private long nextProbeNanos;
    private boolean lastSeen;

    @PostConstruct
    void start() {
        pressure = new AckPressure(Duration.ofMillis(Math.max(1, enterMillis)),
            Duration.ofMillis(Math.min(Math.max(0, leaveMillis), Math.max(1, enterMillis))),
            Duration.ofMillis(Math.max(0, calmMillis)));
        metrics.gauge(Metadata.builder().withName("wecom.pacing.pressure")
                .withDescription("1 while the callback path is slow and the consumers without a deadline hold back")
                .build(), this, p -> p.pressed() ? 1 : 0);
        metrics.gauge(Metadata.builder().withName("wecom.pacing.episodes")
                .withDescription("Times the callback path came under pressure since the server started").build(),
            this, p -> p.pressure.episodes());
        if (!enabled) {
            LOG.info("pacing is off (wecom.pacing.enabled=false): the consumers never hold back for the callbacks");
            return;
        }
        long period = TimeUnit.MILLISECONDS.toNanos(Math.max(5, probeMillis));
        nextProbeNanos = System.nanoTime() + period;
        probing = scheduler.scheduleWithFixedDelay(() -> probe(period), period, period, TimeUnit.NANOSECONDS);
    }

    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // being called created the bean: the probe runs from the start, not from the first callback
    }

    @PreDestroy
    void stop() {
        if (probing != null) {
            probing.cancel(false);
        }
    }

    /** Where the age of the oldest delivery waiting to be stored is read (the group commit's queue). */
    public void watchBacklog(LongSupplier oldestWaitingNanos) {
        this.oldestWaitingNanos = oldestWaitingNanos;
    }

    /** True while the consumers without a deadline should hold back; always false when pacing is off. */
    public boolean pressed() {
        return enabled && pressure.pressed(System.nanoTime());
    }

    private void probe(long period) {
        long now = System.nanoTime();
        long late = Math.max(0, now - nextProbeNanos);
        nextProbeNanos = now + period;
        pressure.sample(Math.max(late, oldestWaitingNanos.getAsLong()), now);
        boolean pressed = pressure.pressed(now);
        if (pressed != lastSeen) {
            lastSeen = pressed;
            LOG.fine(pressed ? "callback path under pressure: consumers without a deadline hold back"
                : "callback path calm again: consumers run freely");
        }
    }
}
