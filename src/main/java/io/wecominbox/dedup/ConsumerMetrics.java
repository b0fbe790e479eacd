package io.wecominbox.dedup;

import java.time.Duration;

/**
 * What dedup reports about the consumers (per-handler message-driven beans, dedup cleanup jobs); the ops
 * package implements it for /metrics and the dashboard's "dispositions" and "cleanup" panels.
 * {@link DispositionRecorder} calls {@link #disposition} for every delivery at every handler and
 * {@link DedupCleanup} the cleanup methods.
 * <ul>
 * <li>{@link #disposition}: once per delivery at a handler, after its transaction committed (so a rolled-back
 * attempt is not counted as done), or at once for a delivery refused because a store is down.
 * {@code disposition} is the enum name ({@link Disposition}). Handler and disposition become metric labels:
 * names only, never an event key.</li>
 * <li>{@link #cleanupFinished} / {@link #cleanupFailed}: once per run of a cleanup job.</li>
 * </ul>
 * Counts are per node since its start (Prometheus sums nodes); a cluster-wide dashboard view can later be
 * served from the dedup tables instead without changing this interface.
 */
public interface ConsumerMetrics {

    void disposition(String handler, String disposition);

    void cleanupFinished(String job, long rowsRemoved, Duration took);

    void cleanupFailed(String job, String reason);
}
