package io.wecominbox.ingest;

import io.wecominbox.ErrorBody;
import io.wecominbox.wecom.WeComApp;
import io.wecominbox.wecom.WeComApps;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * WeCom's callback URL, one per app: GET answers URL verification, POST takes an event. The ACK path is
 * verify, decrypt, parse, store the callback_log row in a group commit (local PostgreSQL, no broker), then 200
 * "success"; the publication relay sends the row to wecom.events afterwards. Client mistakes get a 4xx with a
 * JSON reason and are counted in the rejection audit; our own failures escape to the 503 mapper.
 */
@Path("wecom/callback/{app}")
@ApplicationScoped
public class CallbackResource {

    private static final Logger LOG = Logger.getLogger(CallbackResource.class.getName());
    static final String SUCCESS = "success";

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

    private CallbackVerifier verifier;

    @PostConstruct
    void init() {
        verifier = new CallbackVerifier(new TimestampWindow(clock, settings.timestampWindow()));
    }

    @GET
    public Response verifyUrl(@PathParam("app") String name, @Context UriInfo uri,
                              @Context HttpServletRequest request) {
        long started = System.nanoTime();
        try {
            WeComApp app = resolve(name);
            String echo = verifier.verifyUrl(app, CallbackQuery.parse(uri.getRequestUri().getRawQuery()));
            LOG.info("WeCom URL verification passed for app " + app.name());
            return Response.ok(echo, MediaType.TEXT_PLAIN_TYPE).build();
        } catch (CallbackRejected rejected) {
            return reject(name, rejected, request, started);
        }
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response deliver(@PathParam("app") String name, @Context UriInfo uri,
                            @Context HttpServletRequest request, InputStream body) {
        long started = System.nanoTime();
        OffsetDateTime receivedAt = OffsetDateTime.now(clock);
        try {
            WeComApp app = resolve(name);
            CallbackQuery query = CallbackQuery.parse(uri.getRequestUri().getRawQuery());
            byte[] bytes = CappedBody.read(body, request.getContentLengthLong(), settings.maxBodyBytes(),
                    settings.bodyTimeout());
            OpenedCallback callback = verifier.open(app, query, bytes);
            keep(IncomingDelivery.of(callback, receivedAt, request.getRemoteAddr()));
            metrics.accepted(app.name(), callback.event().typeName(), System.nanoTime() - started);
            return Response.ok(SUCCESS, MediaType.TEXT_PLAIN_TYPE).build();
        } catch (CallbackRejected rejected) {
            return reject(name, rejected, request, started);
        } catch (RuntimeException failure) {
            // escapes to the 503 mapper; counted here because only here the time and the app are known
            metrics.failed(configuredOrUnknown(name), System.nanoTime() - started);
            throw failure;
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

    private Response reject(String name, CallbackRejected rejected, HttpServletRequest request, long started) {
        Rejection rejection = rejected.rejection();
        // Only configured names reach the audit table and the metrics: a scan of random URLs must not grow them.
        String auditApp = rejection == Rejection.APP_MISCONFIGURED ? name : configuredOrUnknown(name);
        audit.record(auditApp, rejection, request.getRemoteAddr(), request.getMethod() + " " + rejected.getMessage());
        metrics.rejected(auditApp, rejection.code(), "POST".equals(request.getMethod()), System.nanoTime() - started);
        Response.ResponseBuilder response = Response.status(rejection.status())
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorBody(rejection.code(), rejection.reason()));
        if (rejection == Rejection.BODY_TOO_LARGE || rejection == Rejection.BODY_TOO_SLOW
                || rejection == Rejection.BODY_INCOMPLETE) {
            response.header("Connection", "close"); // the unread rest of the body must not be parsed as a request
        }
        return response.build();
    }

    private String configuredOrUnknown(String name) {
        return apps.find(name).app() != null ? name : RejectionTally.UNKNOWN_APP;
    }
}
