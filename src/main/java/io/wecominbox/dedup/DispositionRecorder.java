package io.wecominbox.dedup;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Counts every disposition at once (metric {@code wecom.handler.dispositions}, tags handler and disposition)
 * and queues it for the handler_disposition table, which {@link DispositionWriter} fills in batches.
 * Not written in the message's transaction: a hot duplicate must not touch PostgreSQL synchronously, and a
 * REJECTED_STORE_DOWN row would roll back with the attempt it describes. The queue is bounded: when the
 * database cannot keep up, rows are dropped (and counted), never the messages.
 */
@ApplicationScoped
public class DispositionRecorder implements DispositionSink {

    private static final Logger LOG = Logger.getLogger(DispositionRecorder.class.getName());

    @Inject
    MetricRegistry metrics;

    /** Counts per handler and disposition for /metrics and the dashboard's "dispositions" panel. */
    @Inject
    ConsumerMetrics consumerMetrics;

    @Inject
    @ConfigProperty(name = "wecom.dedup.disposition.buffer", defaultValue = "20000")
    int capacity;

    private BlockingQueue<DispositionRow> queue;

    @Override
    public void record(DedupRequest request, Disposition disposition) {
        consumerMetrics.disposition(request.handler(), disposition.name());
        DispositionRow row = new DispositionRow(OffsetDateTime.now(ZoneOffset.UTC), request, disposition);
        if (!queue().offer(row)) {
            metrics.counter("wecom.handler.dispositions.dropped", new Tag("handler", request.handler())).inc();
            LOG.fine("disposition buffer full; not stored: " + disposition + " " + request.dedupKey());
        }
    }

    List<DispositionRow> drain(int max) {
        List<DispositionRow> rows = new ArrayList<>(Math.min(max, queue().size()));
        queue().drainTo(rows, max);
        return rows;
    }

    int backlog() {
        return queue().size();
    }

    private BlockingQueue<DispositionRow> queue() {
        return queue;
    }

    @PostConstruct
    void init() {
        queue = new ArrayBlockingQueue<>(capacity);
    }

    record DispositionRow(OffsetDateTime recordedAt, DedupRequest request, Disposition disposition) {
    }
}
