package io.wecominbox.dedup;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Starts the dedup framework's background work when the application starts: disposition writes, cleanup. */
@ApplicationScoped
public class DedupScheduler {

    private static final Logger LOG = Logger.getLogger(DedupScheduler.class.getName());

    @Resource
    private ManagedScheduledExecutorService scheduler;

    @Inject
    DispositionWriter dispositions;

    @Inject
    DedupCleanup cleanup;

    @Inject
    @ConfigProperty(name = "wecom.dedup.disposition.flush-interval", defaultValue = "PT1S")
    Duration flushInterval;

    @Inject
    @ConfigProperty(name = "wecom.dedup.cleanup.interval", defaultValue = "PT10M")
    Duration cleanupInterval;

    @Inject
    @ConfigProperty(name = "wecom.dedup.cleanup.initial-delay", defaultValue = "PT1M")
    Duration cleanupDelay;

    private final List<ScheduledFuture<?>> tasks = new ArrayList<>();

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        tasks.add(scheduler.scheduleWithFixedDelay(() -> guarded("disposition flush", dispositions::flush),
            flushInterval.toMillis(), flushInterval.toMillis(), TimeUnit.MILLISECONDS));
        tasks.add(scheduler.scheduleWithFixedDelay(() -> guarded("dedup cleanup", cleanup::runOnce),
            cleanupDelay.toMillis(), cleanupInterval.toMillis(), TimeUnit.MILLISECONDS));
        LOG.info("dedup background work started: dispositions every " + flushInterval + ", cleanup every "
            + cleanupInterval);
    }

    @PreDestroy
    void stop() {
        tasks.forEach(task -> task.cancel(false));
        guarded("final disposition flush", dispositions::flush);
    }

    // A periodic task that throws is never run again: log and keep the schedule.
    private static void guarded(String what, java.util.concurrent.Callable<?> task) {
        try {
            task.call();
        } catch (Exception e) {
            LOG.log(Level.WARNING, what + " failed; next run as scheduled", e);
        }
    }
}
