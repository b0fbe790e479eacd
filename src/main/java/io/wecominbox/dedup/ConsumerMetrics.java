package io.wecominbox.dedup;

import java.time.Duration;

/**
 * The plug for the consumers (per-handler message-driven beans, dedup cleanup jobs): inject it and report
 * what happened; /metrics and the dashboard's "dispositions" and "cleanup" panels show it. Until the
 * consumers exist nothing calls it and both panels show their empty state.
 * <ul>
 * <li>{@link #disposition}: once per message a handler finished, AFTER its transaction committed (e.g. from a
 * {@code jakarta.transaction.Synchronization} or an {@code @Observes(during = AFTER_SUCCESS)} event), so a
 * rolled-back attempt is not counted as done. {@code disposition} is the enum name: PROCESSED, DUPLICATE_HOT,
 * DUPLICATE_COLD, FAILED, ... Handler and disposition become metric labels: names only, never an event key.</li>
 * <li>{@link #cleanupFinished} / {@link #cleanupFailed}: once per run of a cleanup job.</li>
 * </ul>
 * Counts are per node since its start (Prometheus sums nodes); a cluster-wide dashboard view can later be
 * served from the dedup tables instead without changing this interface.
 */
public interface ConsumerMetrics {

    void disposition(String handler, String disposition, Duration handlingTime);

    void cleanupFinished(String job, long rowsRemoved, Duration took);

    void cleanupFailed(String job, String reason);
}
