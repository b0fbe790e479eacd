package io.wecominbox.ingest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The ingest's tunables (MicroProfile Config; e.g. WECOM_INGEST_MAX_BODY_BYTES overrides). */
@ApplicationScoped
public class IngestSettings {

    static final String DEFAULT_TIMESTAMP_WINDOW_SECONDS = "300";

    /** Real callbacks are a few KB; the cap bounds what an unsigned request can make us hold. */
    @Inject
    @ConfigProperty(name = "wecom.ingest.max-body-bytes", defaultValue = "65536")
    int maxBodyBytes;

    /**
     * The whole body must arrive within this long. WeCom sends a few KB at once and gives up on the answer after
     * 5 s, so a body still trickling in later is not a delivery anyone waits for; cutting it frees its thread.
     */
    @Inject
    @ConfigProperty(name = "wecom.ingest.body-timeout-millis", defaultValue = "5000")
    long bodyTimeoutMillis;

    /**
     * How far a signed request's timestamp may be from our clock, either way; 0 turns the replay guard off.
     * 300 s: WeCom's last retry comes ~84-90 s after the first delivery and may carry the first delivery's
     * timestamp (byte-identical re-sends are observed; fresh stamps are not documented), which leaves 210 s for
     * the two clocks to disagree: far beyond NTP-kept clocks, tight enough that a captured request is useless
     * within minutes. Five minutes is also the tolerance other signed webhooks use (Slack, Stripe).
     */
    @Inject
    @ConfigProperty(name = "wecom.ingest.timestamp-window-seconds", defaultValue = DEFAULT_TIMESTAMP_WINDOW_SECONDS)
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

    /**
     * A delivery that would queue behind one waiting longer than this for a writer is refused at once (503
     * ingest_behind): the writers are behind, and it would only wait out the commit bound for the same 503.
     * At most the commit wait; 0 or less: the commit wait (no early shedding).
     */
    @Inject
    @ConfigProperty(name = "wecom.ingest.shed-after-millis", defaultValue = "1000")
    long shedAfterMillis;

    /**
     * Callback requests one source address may have in flight (body arriving, being verified or committed).
     * WeCom spreads its callbacks over many servers and answers take milliseconds, so even 300/s from a single
     * address would hold ~15 at once and ~750 only if every answer took WeCom's whole 2.5 s commit bound;
     * 100 leaves a slow-body attacker from one address a twentieth of the connection limit.
     */
    @Inject
    @ConfigProperty(name = "wecom.ingest.limit.source-in-flight", defaultValue = "100")
    int sourceInFlight;

    /** Requests per second from one address, with a burst of twice that; 0 = no rate limit. */
    @Inject
    @ConfigProperty(name = "wecom.ingest.limit.source-per-second", defaultValue = "200")
    int sourcePerSecond;

    /**
     * Addresses exempt from the per-source limits (comma-separated, exact): a load balancer that does not pass
     * the client's address on, or the dev stack's simulator and benchmarks on 127.0.0.1. Empty by default.
     */
    @Inject
    @ConfigProperty(name = "wecom.ingest.limit.exempt-sources")
    Optional<String> exemptSources;

    /**
     * Signed callbacks of one app being committed at once on this node: one corp's burst cannot take every
     * commit slot from the others. At the node's measured ingest capacity (~300/s) with commits bounded at
     * 2.5 s, 1000 is never reached by one app unless the database stalls.
     */
    @Inject
    @ConfigProperty(name = "wecom.ingest.limit.app-in-flight", defaultValue = "1000")
    int appInFlight;

    /**
     * Signed callbacks per second of one app on this node (burst twice that); 0 = none. Over it, 503 at once:
     * WeCom re-sends at +5 s and +10 s, which an overloaded node could not have answered in time anyway.
     * WeCom's own API quota is 10,000 calls a minute per corp (~170/s): 500/s is a burst far above it.
     */
    @Inject
    @ConfigProperty(name = "wecom.ingest.limit.app-per-second", defaultValue = "500")
    int appPerSecond;

    public int sourceInFlight() {
        return Math.max(1, sourceInFlight);
    }

    public int sourcePerSecond() {
        return Math.max(0, sourcePerSecond);
    }

    public Set<String> exemptSources() {
        return Arrays.stream(exemptSources.orElse("").split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    public int appInFlight() {
        return Math.max(1, appInFlight);
    }

    public int appPerSecond() {
        return Math.max(0, appPerSecond);
    }

    public int commitBatchSize() {
        return Math.max(1, commitBatchSize);
    }

    public int writers() {
        return Math.max(1, writers);
    }

    public Duration commitWait() {
        return Duration.ofMillis(Math.max(100, commitWaitMillis));
    }

    public Duration shedAfter() {
        Duration wait = commitWait();
        return shedAfterMillis <= 0 || shedAfterMillis > wait.toMillis() ? wait : Duration.ofMillis(shedAfterMillis);
    }

    public int maxBodyBytes() {
        return Math.max(1024, maxBodyBytes);
    }

    public Duration bodyTimeout() {
        return Duration.ofMillis(Math.max(500, bodyTimeoutMillis));
    }

    public Duration timestampWindow() {
        return Duration.ofSeconds(Math.max(0, timestampWindowSeconds));
    }

    public Duration rejectionFlushInterval() {
        return Duration.ofSeconds(Math.max(1, rejectionFlushSeconds));
    }
}
