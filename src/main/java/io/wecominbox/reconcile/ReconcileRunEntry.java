package io.wecominbox.reconcile;

import io.wecominbox.db.TextArrayConverter;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.time.OffsetDateTime;
import java.util.List;

/**
 * One row of reconcile_run, read through the mapping. Every write stays a native statement in
 * {@link ReconcileRuns}: each is conditional on the writer still owning the run's lease (state RUNNING, its
 * runner_node), which a read-modify-write of the entity could not guarantee across nodes.
 */
@Entity
@Table(name = "reconcile_run", uniqueConstraints = @UniqueConstraint(name = "reconcile_run_pkey",
    columnNames = "run_id"))
public class ReconcileRunEntry {

    // the identity must be a writable mapping for EclipseLink, although nothing writes through it
    @Id
    @Column(name = "run_id")
    private long runId;

    @Column(name = "app", insertable = false, updatable = false)
    private String app;

    @Column(name = "trigger", insertable = false, updatable = false)
    private String trigger;

    @Column(name = "requested_by", insertable = false, updatable = false)
    private String requestedBy;

    @Column(name = "state", insertable = false, updatable = false)
    private String state;

    @Column(name = "started_at", insertable = false, updatable = false)
    private OffsetDateTime startedAt;

    @Column(name = "finished_at", insertable = false, updatable = false)
    private OffsetDateTime finishedAt;

    @Column(name = "runner_node", insertable = false, updatable = false)
    private String runnerNode;

    @Column(name = "lease_until", insertable = false, updatable = false)
    private OffsetDateTime leaseUntil;

    /** The app's members to page through; null until the pass has fetched them. */
    @Convert(converter = TextArrayConverter.class)
    @Column(name = "members", insertable = false, updatable = false)
    private List<String> members;

    @Column(name = "chunk_index", insertable = false, updatable = false)
    private int chunkIndex;

    /** Set while a chunk is paged part way: where its next page starts. */
    @Column(name = "page_cursor", insertable = false, updatable = false)
    private String pageCursor;

    @Column(name = "pages", insertable = false, updatable = false)
    private int pages;

    @Column(name = "api_calls", insertable = false, updatable = false)
    private int apiCalls;

    @Column(name = "records_seen", insertable = false, updatable = false)
    private int recordsSeen;

    @Column(name = "records_new", insertable = false, updatable = false)
    private int recordsNew;

    @Column(name = "records_known", insertable = false, updatable = false)
    private int recordsKnown;

    @Column(name = "marked_gone", insertable = false, updatable = false)
    private int markedGone;

    @Column(name = "errors", insertable = false, updatable = false)
    private int errors;

    @Column(name = "resumes", insertable = false, updatable = false)
    private int resumes;

    @Column(name = "stop_reason", insertable = false, updatable = false)
    private String stopReason;

    protected ReconcileRunEntry() {
    }

    /** The admin API's view: the member list only as a count. */
    ReconcileRun view() {
        return new ReconcileRun(runId, app, trigger, requestedBy, state, startedAt, finishedAt, runnerNode, leaseUntil,
            members == null ? null : members.size(), chunkIndex, pageCursor != null, pages, apiCalls, recordsSeen,
            recordsNew, recordsKnown, markedGone, errors, resumes, stopReason);
    }
}
