package io.wecominbox.ingest;

import io.wecominbox.ErrorBody;
import io.wecominbox.Failures;
import io.wecominbox.callbacklog.IncomingDelivery;
import io.wecominbox.callbacklog.RecordedDelivery;
import io.wecominbox.wecom.WeComApp;
import io.wecominbox.wecom.WeComApps;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What WeCom's callback URL does with a request once it is in hand ({@link CallbackServlet} reads it): GET
 * answers URL verification; POST verifies, decrypts and parses, stores the callback_log row in a group commit
 * (local PostgreSQL, no broker), then answers "success"; the publication relay sends the row to wecom.events
 * afterwards. Client mistakes get a 4xx with a JSON reason and are counted in the rejection audit; our own
 * failures get a 503 so that WeCom retries.
 */
@ApplicationScoped
public class CallbackIntake {

    private static final Logger LOG = Logger.getLogger(CallbackIntake.class.getName());

    @Inject
    private WeComApps apps;

    @Inject
    private GroupCommitWriter writer;

    @Inject
    private ParkedDeliveries parked;

    @Inject
    private RejectionAudit audit;

    @Inject
    private IngestSettings settings;

    @Inject
    private Clock clock;

    @Inject
    private IngestMetrics metrics;

    @Inject
    private CallbackAdmission admission;

    private CallbackVerifier verifier;

    @PostConstruct
    void init() {
        verifier = new CallbackVerifier(new TimestampWindow(clock, settings.timestampWindow()));
    }

    /** GET: WeCom's URL verification; the echo, decrypted. */
    CallbackAnswer verifyUrl(String name, String rawQuery, String remoteAddr) {
        long started = System.nanoTime();
        try {
            WeComApp app = resolve(name);
            String echo = verifier.verifyUrl(app, CallbackQuery.parse(rawQuery));
            LOG.info("WeCom URL verification passed for app " + app.name());
            return CallbackAnswer.text(echo);
        } catch (CallbackRejected rejected) {
            return refuse(name, rejected, remoteAddr, false, started);
        }
    }

    /** POST: one delivery, kept before "success" is answered. */
    CallbackAnswer deliver(String name, String rawQuery, ArrivedBody body, String remoteAddr) {
        long started = body.arrivedNanos();
        OffsetDateTime receivedAt = OffsetDateTime.now(clock);
        try {
            WeComApp app = resolve(name);
            CallbackQuery query = CallbackQuery.parse(rawQuery);
            OpenedCallback callback = verifier.open(app, query, body.bytesOrThrow());
            RequestLimiter.Permit share = admission.admitApp(app.name()); // signed: WeCom's, so it counts
            if (!share.admitted()) {
                throw new CallbackRejected(Rejection.APP_OVER_LIMIT, share.verdict().name().toLowerCase(Locale.ROOT));
            }
            try {
                keep(callback.delivery(receivedAt, remoteAddr));
            } catch (GroupCommitWriter.WritersBehindException behind) {
                throw new CallbackRejected(Rejection.INGEST_BEHIND, behind.getMessage());
            } finally {
                admission.releaseApp(share);
            }
            metrics.accepted(app.name(), callback.event().typeName(), System.nanoTime() - started);
            return CallbackAnswer.SUCCESS;
        } catch (CallbackRejected rejected) {
            return refuse(name, rejected, remoteAddr, true, started);
        } catch (RuntimeException failure) {
            metrics.failed(configuredOrUnknown(name), System.nanoTime() - started);
            LOG.log(Level.WARNING, "callback failed, answering 503: {0}", Failures.rootCause(failure));
            return CallbackAnswer.error(503, ErrorBody.UNAVAILABLE, Map.of());
        }
    }

    /** Stored in callback_log, or kept by the broker while the database is away; else it throws (503). */
    private void keep(IncomingDelivery delivery) {
        try {
            RecordedDelivery row = writer.store(delivery);
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine("accepted " + delivery.eventKey() + " attempt " + row.attempt() + " as callback_log "
                        + row.callbackLogId());
            }
        } catch (GroupCommitWriter.DeliveryNotRecordedException notStored) {
            if (!notStored.databaseUnavailable()) {
                throw notStored;
            }
            parked.park(delivery, notStored.possiblyStoredAs());
        }
    }

    private WeComApp resolve(String name) throws CallbackRejected {
        WeComApps.AppLookup lookup = apps.find(name);
        if (lookup.app() != null) {
            return lookup.app();
        }
        throw new CallbackRejected(lookup.misconfigured() ? Rejection.APP_MISCONFIGURED : Rejection.UNKNOWN_APP,
                "app " + name);
    }

    /** The answer to a refused request, audited and counted. */
    CallbackAnswer refuse(String name, CallbackRejected rejected, String remoteAddr, boolean post, long started) {
        Rejection rejection = rejected.rejection();
        // Only configured names reach the audit table and the metrics: a scan of random URLs must not grow them.
        String auditApp = rejection == Rejection.APP_MISCONFIGURED ? name : configuredOrUnknown(name);
        audit.record(auditApp, rejection, remoteAddr, (post ? "POST " : "GET ") + rejected.getMessage());
        metrics.rejected(auditApp, rejection.code(), post, System.nanoTime() - started);
        Map<String, String> headers = new LinkedHashMap<>();
        if (rejection == Rejection.BODY_TOO_LARGE || rejection == Rejection.BODY_TOO_SLOW
                || rejection == Rejection.BODY_INCOMPLETE || rejection == Rejection.SOURCE_OVER_LIMIT) {
            headers.put("Connection", "close"); // the unread rest of the body must not be parsed as a request
        }
        if (rejection == Rejection.SOURCE_OVER_LIMIT || rejection == Rejection.APP_OVER_LIMIT
                || rejection == Rejection.INGEST_BEHIND) {
            headers.put("Retry-After", "1");
        }
        return CallbackAnswer.error(rejection.status(), new ErrorBody(rejection.code(), rejection.reason()), headers);
    }

    private String configuredOrUnknown(String name) {
        return apps.find(name).app() != null ? name : RejectionTally.UNKNOWN_APP;
    }
}
