package io.wecominbox.ops.replay;

import io.wecominbox.cluster.NodeIdentity;
import io.wecominbox.ops.replay.ReplayPlan.Item;
import io.wecominbox.ops.replay.ReplayRun.Outcome;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Starts replays and runs them in the background (the server's managed executor): chunk after chunk, each
 * one transaction, paced to the replay's rate; then waits until the handlers' dispositions account for every
 * published message and stores the outcomes. However the task ends (also refused by the executor, aborted or
 * killed by an unexpected error: {@link ReplayTask}) the row does not stay RUNNING. A replay that was RUNNING
 * when this node stopped is marked FAILED at the next start (not resumed: the operator decides; requesting it
 * again is safe, dedup absorbs what already ran, also under the same batch id).
 */
@ApplicationScoped
public class ReplayService {

    private static final Logger LOG = Logger.getLogger(ReplayService.class.getName());

    @Resource
    private ManagedExecutorService executor;

    @Inject
    ReplayPlanner planner;

    @Inject
    ReplayRuns runs;

    @Inject
    ReplayPublisher publisher;

    @Inject
    @ConfigProperty(name = "wecom.replay.max-rate", defaultValue = "200")
    int maxRate;

    @Inject
    @ConfigProperty(name = "wecom.replay.chunk-size", defaultValue = "100")
    int chunkSize;

    @Inject
    @ConfigProperty(name = "wecom.replay.settle-timeout", defaultValue = "PT10M")
    Duration settleTimeout;

    @Inject
    @ConfigProperty(name = "wecom.replay.node")
    Optional<String> configuredNode;

    @Inject
    NodeIdentity nodeIdentity;

    private volatile boolean stopping;

    void start(@Observes @Initialized(ApplicationScoped.class) Object applicationStarted) {
        try {
            int interrupted = runs.markInterrupted(node());
            if (interrupted > 0) {
                LOG.warning(interrupted + " replay(s) were running when this server stopped: marked FAILED");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not check for interrupted replays; they stay RUNNING until the next start", e);
        }
    }

    @PreDestroy
    void stop() {
        stopping = true;
    }

    /** Validates, plans, records and starts a replay; returns it as first recorded. */
    public ReplayRun start(ReplayRequest request, String requestedBy) {
        if (request.maxRate() != null && request.maxRate() > maxRate) {
            throw new InvalidReplayRequest("maxRate is limited to " + maxRate + " messages per second"
                + " (wecom.replay.max-rate)");
        }
        int rate = request.maxRate() != null ? request.maxRate() : maxRate;
        ReplayPlan plan = planner.plan(request, OffsetDateTime.now(ZoneOffset.UTC));
        if (!plan.tooOld().isEmpty()) {
            throw new ReplayTooOld(plan.tooOld());
        }
        List<String> handlers = List.copyOf(plan.perHandler().keySet());
        long id = runs.insert(requestedBy, request, handlers, rate, plan, node());
        LOG.info("replay " + id + " by " + requestedBy + ": " + plan.eventsSelected() + " events, "
            + plan.perHandler() + (request.batchId() != null ? ", batch " + request.batchId() : ", through dedup"));
        ReplayTask task = new ReplayTask(id, () -> run(id, request.batchId(), plan.items(), rate),
            (replayId, reason) -> runs.finish(replayId, ReplayRun.FAILED, reason));
        try {
            executor.submit(task);
        } catch (RuntimeException e) {
            // RejectedExecutionException (saturated or stopping executor): nothing runs, so the row must not say RUNNING
            String reason = ReplayTask.notStartedReason(e);
            LOG.log(Level.WARNING, "replay " + id + " " + reason, e);
            runs.finish(id, ReplayRun.FAILED, reason);
            throw new ReplayNotStarted(id, reason, e);
        }
        return runs.find(id).orElseThrow();
    }

    /** RUNNING → CANCELLED; waits for a chunk in flight. False when it was not running. */
    public boolean cancel(long replayId) {
        return runs.finish(replayId, ReplayRun.CANCELLED, null);
    }

    private void run(long id, String batchId, List<Item> items, int rate) {
        long started = System.nanoTime();
        int size = Math.max(1, Math.min(chunkSize, rate));
        int done = 0;
        try {
            while (done < items.size()) {
                if (stopping) {
                    runs.finish(id, ReplayRun.FAILED, "interrupted: the server stopped after " + done + " of "
                        + items.size() + " messages were published; request it again to finish");
                    return;
                }
                List<Item> chunk = items.subList(done, Math.min(items.size(), done + size));
                if (!publishWithRetry(id, batchId, chunk)) {
                    LOG.info("replay " + id + " stopped after " + done + " of " + items.size() + " messages (cancelled)");
                    settle(id);
                    return;
                }
                done += chunk.size();
                pace(started, done, rate);
            }
            runs.finish(id, ReplayRun.DONE, null);
            LOG.info("replay " + id + " published all " + items.size() + " messages");
            settle(id);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "replay " + id + " failed after " + done + " messages", e);
            runs.finish(id, ReplayRun.FAILED, "failed after " + done + " of " + items.size() + " messages: "
                + ReplayTask.rootCause(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            runs.finish(id, ReplayRun.FAILED, "interrupted after " + done + " of " + items.size() + " messages");
        }
    }

    // a broker or database hiccup should not end a long replay: the chunk rolled back as a whole, try it again
    private boolean publishWithRetry(long id, String batchId, List<Item> chunk) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return publisher.publish(id, batchId, chunk);
            } catch (RuntimeException e) {
                if (attempt >= 3 || stopping) {
                    throw e;
                }
                LOG.info("replay " + id + " chunk attempt " + attempt + " rolled back (" + ReplayTask.rootCause(e)
                    + "); retrying");
                Thread.sleep(1_000L * attempt);
            }
        }
    }

    private static void pace(long startedNanos, int done, int rate) throws InterruptedException {
        long dueNanos = startedNanos + done * 1_000_000_000L / rate;
        long wait = dueNanos - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }

    // dispositions arrive asynchronously (handlers, then a batched writer): wait for all of them, bounded
    private void settle(long id) throws InterruptedException {
        long deadline = System.nanoTime() + settleTimeout.toNanos();
        while (!stopping) {
            Optional<ReplayRun> run = runs.find(id);
            if (run.isEmpty()) {
                return;
            }
            Map<String, Outcome> outcomes = run.get().outcomes();
            if (run.get().settled() || System.nanoTime() > deadline) {
                runs.storeOutcomes(id, outcomes);
                return;
            }
            Thread.sleep(1_000);
        }
    }

    String node() {
        return nodeIdentity.or(configuredNode);
    }
}
