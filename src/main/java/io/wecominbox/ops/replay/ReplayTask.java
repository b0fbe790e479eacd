package io.wecominbox.ops.replay;

import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedTask;
import jakarta.enterprise.concurrent.ManagedTaskListener;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A replay's background task, guarded so that however it ends its replay_run row does not stay RUNNING: the
 * body records DONE / CANCELLED / FAILED itself; an error it did not expect (an Error, a failure while
 * recording a failure) or an abort before it ran (cancelled in the queue, context not available) is recorded
 * here as FAILED with the reason. Nobody reads the task's Future, so this is also where such an end is logged.
 */
final class ReplayTask implements Runnable, ManagedTask, ManagedTaskListener {

    private static final Logger LOG = Logger.getLogger(ReplayTask.class.getName());
    private static final int MAX_CAUSE = 300;

    /** Marks a replay FAILED with the reason if it is still RUNNING; true when it was. */
    @FunctionalInterface
    interface Failer {
        boolean failIfRunning(long replayId, String reason);
    }

    private final long replayId;
    private final Runnable body;
    private final Failer failer;

    ReplayTask(long replayId, Runnable body, Failer failer) {
        this.replayId = replayId;
        this.body = body;
        this.failer = failer;
    }

    @Override
    public void run() {
        try {
            body.run();
        } catch (RuntimeException | Error e) {
            LOG.log(Level.SEVERE, "replay " + replayId + " task died", e);
            fail(diedReason(e));
            if (e instanceof Error error) {
                throw error;
            }
            return;
        }
        // normally a no-op (the body recorded how it ended); a RUNNING row here means it could not
        fail("ended without recording its outcome; request it again to finish (dedup absorbs what already ran)");
    }

    /** Why a replay whose submission the executor refused is FAILED (and why the POST answers 503). */
    static String notStartedReason(Throwable e) {
        return "not started: the server refused the background task (" + rootCause(e) + "); nothing was published;"
            + " request it again";
    }

    static String diedReason(Throwable e) {
        return "the replay task died (" + rootCause(e) + "); what was published is counted in done;"
            + " request it again to finish (dedup absorbs what already ran, also with the same batch id)";
    }

    static String abortedReason(Throwable e) {
        return "aborted by the server before it finished (" + (e == null ? "no cause given" : rootCause(e))
            + "); request it again to finish (dedup absorbs what already ran, also with the same batch id)";
    }

    /** The innermost cause's type and message, cut short: a failure reason, not a stack trace. */
    static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
        return text.length() <= MAX_CAUSE ? text : text.substring(0, MAX_CAUSE) + "...";
    }

    private void fail(String reason) {
        try {
            if (failer.failIfRunning(replayId, reason)) {
                LOG.warning("replay " + replayId + " marked FAILED: " + reason);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "replay " + replayId + " could not be marked FAILED (" + reason + "); it stays"
                + " RUNNING until this server's next start marks it interrupted", e);
        }
    }

    @Override
    public ManagedTaskListener getManagedTaskListener() {
        return this;
    }

    @Override
    public Map<String, String> getExecutionProperties() {
        return Map.of(ManagedTask.IDENTITY_NAME, "replay " + replayId);
    }

    @Override
    public void taskAborted(Future<?> future, ManagedExecutorService executor, Object task, Throwable exception) {
        fail(abortedReason(exception));
    }

    @Override
    public void taskSubmitted(Future<?> future, ManagedExecutorService executor, Object task) {
        // nothing to record: the row is RUNNING from the request on
    }

    @Override
    public void taskStarting(Future<?> future, ManagedExecutorService executor, Object task) {
        // nothing to record
    }

    @Override
    public void taskDone(Future<?> future, ManagedExecutorService executor, Object task, Throwable exception) {
        // run() has recorded the end already, also a failure
    }
}
