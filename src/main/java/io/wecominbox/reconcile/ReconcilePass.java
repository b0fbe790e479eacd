package io.wecominbox.reconcile;

import io.wecominbox.reconcile.ReconcileRun.Progress;
import io.wecominbox.reconcile.ReconcileSteps.Owner;
import io.wecominbox.reconcile.ReconcileSteps.PageCounts;
import io.wecominbox.relationship.Relationship;
import io.wecominbox.wecom.WeComCallOutcome;
import io.wecominbox.wecom.WeComCallOutcome.Kind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * One pass over one app, from wherever its stored progress says: fetch the member list (once per pass), page
 * each chunk of members with batch/get_by_user, commit every page with its progress, and only when every
 * chunk's last page is committed mark what no page listed as gone. Every API call is paced; a failed one is
 * retried with back-off (a refused token was already retried once with a fresh one by the client) until the
 * attempts are spent, which ends the pass FAILED: a partial pass never marks anything gone.
 */
final class ReconcilePass {

    private static final Logger LOG = Logger.getLogger(ReconcilePass.class.getName());
    private static final int GONE_BATCH = 100;
    private static final Duration CALL_DEADLINE = Duration.ofSeconds(15);

    private final Owner owner;
    private final String corpId;
    private final ReconcileApi api;
    private final ReconcileSteps steps;
    private final ReconcileRuns runs;
    private final ReconcileSettings settings;
    private final ReconcileMetrics metrics;
    private final BooleanSupplier stopping;
    private final Clock clock;
    private final CallPacer pacer;
    private final Backoff backoff;
    private int pendingCalls;
    private int pendingErrors;

    ReconcilePass(Owner owner, String corpId, ReconcileApi api, ReconcileSteps steps, ReconcileRuns runs,
                  ReconcileSettings settings, ReconcileMetrics metrics, BooleanSupplier stopping, Clock clock) {
        this.owner = owner;
        this.corpId = corpId;
        this.api = api;
        this.steps = steps;
        this.runs = runs;
        this.settings = settings;
        this.metrics = metrics;
        this.stopping = stopping;
        this.clock = clock;
        this.pacer = new CallPacer(settings.callsPerMinute(), System::nanoTime);
        this.backoff = settings.backoff();
    }

    /** The API calls a pass makes, so tests and the service can see one seam. */
    interface ReconcileApi {
        WeComCallOutcome followUserList(String app, Instant deadline);

        WeComCallOutcome customersOfMembers(String app, List<String> userIds, String cursor, int limit,
                                            Instant deadline);
    }

    /** Runs until done, failed, lost (another node owns it now) or the server stops (then it stays RUNNING). */
    void run() throws InterruptedException {
        Progress progress = runs.progress(owner.runId()).orElseThrow();
        List<String> members = progress.members();
        if (members == null) {
            WeComCallOutcome outcome = call("get_follow_user_list", d -> api.followUserList(owner.app(), d));
            if (outcome == null) {
                return;
            }
            members = PulledPage.members(outcome.reply());
            if (!steps.members(owner, members, takeCalls(), takeErrors())) {
                LOG.info(() -> "reconcile run " + owner.runId() + " is no longer ours: stopped");
                return;
            }
        }
        MemberChunks chunks = new MemberChunks(members, settings.membersPerCall());
        int chunk = progress.chunkIndex();
        String cursor = progress.cursor();
        boolean restarted = false;
        while (chunk < chunks.count()) {
            List<String> userIds = chunks.chunk(chunk);
            String pageCursor = cursor;
            WeComCallOutcome outcome = callOrRefused("batch/get_by_user",
                d -> api.customersOfMembers(owner.app(), userIds, pageCursor, settings.pageLimit(), d),
                pageCursor != null && !restarted);
            if (outcome == null) {
                return;
            }
            if (!outcome.done()) {
                // WeCom refused the stored cursor (a resumed pass): page this chunk again from its start
                LOG.warning("reconcile run " + owner.runId() + ": cursor refused (" + outcome + "), chunk " + chunk
                    + " restarts from its first page");
                restarted = true;
                if (!steps.restartChunk(owner, chunk, takeCalls(), takeErrors())) {
                    return;
                }
                cursor = null;
                continue;
            }
            Instant observedAt = Instant.ofEpochSecond(clock.instant().getEpochSecond());
            PulledPage page = PulledPage.parse(outcome.reply());
            PageCounts counts = steps.page(owner, corpId, chunk, pageCursor, page, observedAt, takeCalls(),
                takeErrors());
            if (counts == null) {
                LOG.info(() -> "reconcile run " + owner.runId() + " is no longer ours or moved on: stopped");
                return;
            }
            metrics.records(owner.app(), counts);
            if (page.nextCursor() == null) {
                chunk++;
                cursor = null;
                restarted = false;
            } else {
                cursor = page.nextCursor();
            }
        }
        int gone = markGone(members, progress.startedAt().toInstant());
        if (gone < 0) {
            return;
        }
        String reason = "complete: " + members.size() + " members, " + chunks.count() + " chunks, " + gone
            + " not listed (published as gone)";
        if (runs.finish(owner.runId(), ReconcileRun.DONE, reason, owner.node())) {
            metrics.finished(owner.app(), ReconcileRun.DONE);
            LOG.info("reconcile run " + owner.runId() + " for app " + owner.app() + " " + reason);
        }
    }

    private int markGone(List<String> members, Instant startedAt) {
        List<Relationship> unlisted = steps.unlisted(owner, members, startedAt);
        int gone = 0;
        for (int i = 0; i < unlisted.size(); i += GONE_BATCH) {
            int marked = steps.gone(owner, corpId, unlisted.subList(i, Math.min(unlisted.size(), i + GONE_BATCH)),
                startedAt);
            if (marked < 0) {
                return -1;
            }
            gone += marked;
        }
        metrics.gone(owner.app(), gone);
        return gone;
    }

    private WeComCallOutcome call(String api, Function<Instant, WeComCallOutcome> call) throws InterruptedException {
        return callOrRefused(api, call, false);
    }

    /**
     * The call's DONE outcome after retries, or null when the pass must stop (the server is stopping, or it
     * FAILED: then recorded here). With {@code refusalAllowed}, a GIVE_UP comes back to the caller instead.
     */
    private WeComCallOutcome callOrRefused(String api, Function<Instant, WeComCallOutcome> call, boolean refusalAllowed)
            throws InterruptedException {
        for (int failures = 0; ; ) {
            if (stopping.getAsBoolean()) {
                return null;
            }
            sleep(pacer.reserve());
            WeComCallOutcome outcome = call.apply(clock.instant().plus(CALL_DEADLINE));
            pendingCalls++;
            metrics.call(owner.app(), api, outcome);
            if (outcome.done()) {
                return outcome;
            }
            pendingErrors++;
            failures++;
            if (outcome.kind() == Kind.GIVE_UP && refusalAllowed) {
                return outcome;
            }
            if (outcome.kind() == Kind.GIVE_UP || backoff.givesUpAfter(failures)) {
                fail(api + " failed " + failures + " time(s), last: " + outcome);
                return null;
            }
            Duration wait = backoff.after(failures);
            LOG.info("reconcile run " + owner.runId() + ": " + api + " " + outcome + "; retry in " + wait.toMillis()
                + " ms");
            runs.countCalls(owner.runId(), owner.node(), takeCalls(), takeErrors(), owner.lease());
            waitRenewingLease(wait);
        }
    }

    private void fail(String reason) {
        runs.countCalls(owner.runId(), owner.node(), takeCalls(), takeErrors(), owner.lease());
        if (runs.finish(owner.runId(), ReconcileRun.FAILED, reason, owner.node())) {
            metrics.finished(owner.app(), ReconcileRun.FAILED);
            LOG.warning("reconcile run " + owner.runId() + " for app " + owner.app() + " FAILED: " + reason
                + " (nothing was marked gone)");
        }
    }

    // a back-off can be longer than the lease: renew it meanwhile, so no other node takes the pass over
    private void waitRenewingLease(Duration wait) throws InterruptedException {
        long end = System.nanoTime() + wait.toNanos();
        long renewEvery = owner.lease().toNanos() / 3;
        long renewed = System.nanoTime();
        while (!stopping.getAsBoolean()) {
            long now = System.nanoTime();
            if (now >= end) {
                return;
            }
            if (now - renewed >= renewEvery) {
                runs.countCalls(owner.runId(), owner.node(), 0, 0, owner.lease());
                renewed = now;
            }
            Thread.sleep(Math.max(1, Math.min((end - now) / 1_000_000, 500)));
        }
    }

    private static void sleep(Duration d) throws InterruptedException {
        if (!d.isZero()) {
            Thread.sleep(d.toMillis(), (int) (d.toNanos() % 1_000_000));
        }
    }

    private int takeCalls() {
        int n = pendingCalls;
        pendingCalls = 0;
        return n;
    }

    private int takeErrors() {
        int n = pendingErrors;
        pendingErrors = 0;
        return n;
    }
}
