package io.wecominbox.retention;

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
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Runs the retention job when the application has started, then every wecom.retention.interval. */
@ApplicationScoped
public class RetentionScheduler {

    private static final Logger LOG = Logger.getLogger(RetentionScheduler.class.getName());

    @Resource
    private ManagedScheduledExecutorService scheduler;

    @Inject
    RetentionJob job;

    @Inject
    @ConfigProperty(name = "wecom.retention.interval", defaultValue = "PT1H")
    Duration interval;

    @Inject
    @ConfigProperty(name = "wecom.retention.initial-delay", defaultValue = "PT2M")
    Duration initialDelay;

    private ScheduledFuture<?> task;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        task = scheduler.scheduleWithFixedDelay(this::runGuarded, initialDelay.toMillis(), interval.toMillis(),
            TimeUnit.MILLISECONDS);
        LOG.info("retention scheduled every " + interval + " (first in " + initialDelay + ")");
    }

    @PreDestroy
    void stop() {
        if (task != null) {
            task.cancel(false);
        }
    }

    // a periodic task that throws is never run again: log and keep the schedule
    private void runGuarded() {
        try {
            job.runOnce();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "retention failed; next run as scheduled", e);
        }
    }
}
