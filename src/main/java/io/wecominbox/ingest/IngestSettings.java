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
