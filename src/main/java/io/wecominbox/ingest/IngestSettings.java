package io.wecominbox.ingest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The ingest's tunables (MicroProfile Config; e.g. WECOM_INGEST_MAX_BODY_BYTES overrides). */
@ApplicationScoped
public class IngestSettings {

    /** Real callbacks are a few KB; the cap bounds what an unsigned request can make us hold. */
    @Inject
    @ConfigProperty(name = "wecom.ingest.max-body-bytes", defaultValue = "65536")
    int maxBodyBytes;

    /** 0 = off. When on, keep it well above WeCom's ~90 s late retry, which re-sends the same timestamp. */
    @Inject
    @ConfigProperty(name = "wecom.ingest.timestamp-window-seconds", defaultValue = "0")
    long timestampWindowSeconds;

    @Inject
    @ConfigProperty(name = "wecom.ingest.rejection-flush-seconds", defaultValue = "10")
    long rejectionFlushSeconds;

    /** Most callback_log rows one group commit takes; the requests waiting when a commit starts share it. */
    @Inject
    @ConfigProperty(name = "wecom.ingest.commit-batch-size", defaultValue = "256")
    int commitBatchSize;

    /** Commits in flight at once: while one waits for its fsync, the next batch is being written. */
    @Inject
    @ConfigProperty(name = "wecom.ingest.writers", defaultValue = "2")
    int writers;

    /** How long a request waits for the commit of its row before answering 503 (WeCom gives up at 5 s). */
    @Inject
    @ConfigProperty(name = "wecom.ingest.commit-wait-millis", defaultValue = "2500")
    long commitWaitMillis;

    public int commitBatchSize() {
        return Math.max(1, commitBatchSize);
    }

    public int writers() {
        return Math.max(1, writers);
    }

    public Duration commitWait() {
        return Duration.ofMillis(Math.max(100, commitWaitMillis));
    }

    public int maxBodyBytes() {
        return Math.max(1024, maxBodyBytes);
    }

    public Duration timestampWindow() {
        return Duration.ofSeconds(Math.max(0, timestampWindowSeconds));
    }

    public Duration rejectionFlushInterval() {
        return Duration.ofSeconds(Math.max(1, rejectionFlushSeconds));
    }
}
