package io.wecominbox.reconcile;

import io.wecominbox.cluster.NodeIdentity;
import io.wecominbox.reconcile.ReconcileSteps.Owner;
import io.wecominbox.wecom.WeComApi;
import io.wecominbox.wecom.WeComApps;
import io.wecominbox.wecom.WeComCallOutcome;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts reconcile passes (on schedule, every {@code wecom.reconcile.interval} per app, and on demand) and
 * resumes interrupted ones: at start and every {@code wecom.reconcile.resume-check} this node claims RUNNING
 * passes that were its own before a restart or whose node's lease ran out. One RUNNING pass per app at a
 * time, whichever node (the database's partial unique index); passes run on the server's managed executor.
 */
@ApplicationScoped
public class ReconcileService {

    private static final Logger LOG = Logger.getLogger(ReconcileService.class.getName());

    @Resource
    private ManagedExecutorService executor;

    @Resource
    private ManagedScheduledExecutorService scheduler;

    @Inject
    ReconcileSettings settings;

    @Inject
    ReconcileRuns runs;

    @Inject
    ReconcileSteps steps;

    @Inject
    ReconcileMetrics metrics;

    @Inject
    WeComApi api;

    @Inject
    WeComApps apps;

    @Inject
    Clock clock;

    @Inject
    NodeIdentity nodeIdentity;

    private final Set<Long> active = ConcurrentHashMap.newKeySet();
    private final List<ScheduledFuture<?>> tasks = new ArrayList<>();
    private volatile boolean stopping;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        tasks.add(scheduler.scheduleWithFixedDelay(() -> guarded("resume check", this::resumeInterrupted),
            5_000, settings.resumeCheck().toMillis(), TimeUnit.MILLISECONDS));
        if (settings.scheduleEnabled()) {
            tasks.add(scheduler.scheduleWithFixedDelay(() -> guarded("scheduled pass", this::startScheduled),
                settings.initialDelay().toMillis(), settings.interval().toMillis(), TimeUnit.MILLISECONDS));
            LOG.info("reconcile passes every " + settings.interval() + " per app (first after " + settings.initialDelay()
                + "), at most " + settings.callsPerMinute() + " API calls a minute each");
        } else {
            LOG.info("scheduled reconcile passes are off (wecom.reconcile.schedule.enabled=false); on demand only");
        }
    }

    @PreDestroy
    void stop() {
        stopping = true; // a running pass stops between calls and stays RUNNING: resumed at the next start
        tasks.forEach(t -> t.cancel(false));
    }

    /** Starts a pass of the app now; empty when one is already running (on any node). */
    public Optional<ReconcileRun> start(String app, String trigger, String requestedBy) {
        if (apps.find(app).app() == null) {
            throw new IllegalArgumentException("no WeCom app " + app + " is configured and ready");
        }
        Optional<Long> id = runs.start(app, trigger, requestedBy, node(), settings.lease());
        id.ifPresent(this::submit);
        return id.flatMap(runs::find);
    }

    public String node() {
        return nodeIdentity.or(settings.node());
    }

    private void startScheduled() {
        for (String app : apps.names()) {
            start(app, "SCHEDULE", null).ifPresent(run -> LOG.info("scheduled reconcile run " + run.runId()
                + " for app " + app + " started"));
        }
    }

    private void resumeInterrupted() {
        for (long id : runs.claimResumable(node(), settings.lease(), Set.copyOf(active))) {
            LOG.warning("reconcile run " + id + " was interrupted (its node stopped): resuming it from its last page");
            submit(id);
        }
    }

    private void submit(long runId) {
        if (!active.add(runId)) {
            return;
        }
        try {
            executor.submit(() -> runPass(runId));
        } catch (RuntimeException e) {
            active.remove(runId);
            LOG.log(Level.WARNING, "reconcile run " + runId + " could not be started; the resume check retries it", e);
        }
    }

    private void runPass(long runId) {
        try {
            ReconcileRun run = runs.find(runId).orElseThrow();
            String corpId = apps.find(run.app()).app() == null ? null : apps.find(run.app()).app().corpId();
            if (corpId == null) {
                runs.finish(runId, ReconcileRun.FAILED, "app " + run.app() + " is not configured here", node());
                return;
            }
            new ReconcilePass(new Owner(runId, run.app(), node(), settings.lease()), corpId, new Api(), steps, runs,
                settings, metrics, () -> stopping, clock).run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // e.g. the database or broker away: the run stays RUNNING and the resume check picks it up again
            LOG.log(Level.WARNING, "reconcile run " + runId + " stopped on an error; it resumes from its last page", e);
        } finally {
            active.remove(runId);
        }
    }

    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "reconcile " + what + " failed; next as scheduled", e);
        }
    }

    /** The WeCom client behind the pass's seam. */
    private final class Api implements ReconcilePass.ReconcileApi {
        @Override
        public WeComCallOutcome followUserList(String app, Instant deadline) {
            return api.followUserList(app, deadline);
        }

        @Override
        public WeComCallOutcome customersOfMembers(String app, List<String> userIds, String cursor, int limit,
                                                   Instant deadline) {
            return api.customersOfMembers(app, userIds, cursor, limit, deadline);
        }
    }
}
