package io.wecominbox.reconcile;

import java.time.OffsetDateTime;
import java.util.List;

/** One row of reconcile_run, as the admin API shows it (the member list only as a count). */
public record ReconcileRun(long runId, String app, String trigger, String requestedBy, String state,
                           OffsetDateTime startedAt, OffsetDateTime finishedAt, String runnerNode,
                           OffsetDateTime leaseUntil, Integer members, int chunkIndex, boolean midChunk, int pages,
                           int apiCalls, int recordsSeen, int recordsNew, int recordsKnown, int markedGone, int errors,
                           int resumes, String stopReason) {

    public static final String RUNNING = "RUNNING";
    public static final String DONE = "DONE";
    public static final String FAILED = "FAILED";
    public static final String CANCELLED = "CANCELLED";

    /** Where a pass stands, for resuming it: the member list (null until fetched), chunk and cursor. */
    public record Progress(List<String> members, int chunkIndex, String cursor, OffsetDateTime startedAt) {
    }
}
