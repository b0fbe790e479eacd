package io.wecominbox.ops.replay;

import io.wecominbox.ErrorBody;
import io.wecominbox.ops.replay.ReplayPlan.TooOld;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.net.URI;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Replay / backfill: re-publish past callback_log events to handlers' queues, through dedup (nothing runs
 * twice) or, with a batch id, as a forced re-run (each event once more per handler, once per batch).
 */
@Path("api/ops/replays")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "replays", description = "Replay / backfill of callback_log events to handlers (docs/operations.md)")
@SecurityRequirement(name = "admin")
public class ReplayResource {

    private static final String EXAMPLE = """
            {"from": "2026-12-01T08:00:00Z", "to": "2026-12-01T09:00:00Z", "app": "customer",
             "eventTypes": ["text"], "handlers": ["crm", "bot"], "batchId": "crm-backfill-2026-12-01",
             "reason": "CRM lost its queue between 08:00 and 09:00", "maxRate": 100}""";

    @Inject
    private ReplayService replays;

    @Inject
    private ReplayRuns runs;

    @Context
    private SecurityContext security;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start a replay (runs in the background; poll its URL)", description = """
            Selects callback_log deliveries (every given criterion must hold; at least one is required): from/to on \
            received_at (ISO-8601 with offset; from inclusive, to exclusive), app, eventTypes, eventKeys \
            ({app}:{key} as in callback_log.event_key), callbackLogIds. Retries of one event are one event, \
            replayed from its first delivery. handlers: names as in GET /api/ops/handlers; left out = every \
            handler that takes the selected event types; each event goes only to the chosen handlers that take \
            its type. Without batchId the replay goes through dedup (events already processed are counted as \
            duplicates); with batchId ([A-Za-z0-9._-]{1,64}) each event runs once more per handler, once per \
            batch. The whole request is refused (422, too_old) if any event is older than a chosen handler's \
            cold window (hot window when it has no cold tier; naturally idempotent handlers have no limit). \
            maxRate (messages per second) is at most wecom.replay.max-rate (default 200).""")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
        schema = @Schema(implementation = RequestSchema.class),
        examples = @ExampleObject(name = "batch re-run", value = EXAMPLE)))
    @APIResponse(responseCode = "202", description = "Started; Location is the replay's URL",
        content = @Content(schema = @Schema(implementation = ReplayRun.class)))
    @APIResponse(responseCode = "400", description = "Invalid request or nothing selected (error invalid_request)",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "503", description = "The server refused to run it (executor saturated or stopping;"
        + " error not_started): recorded FAILED with that reason, nothing published; send it again later",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "422", description = "Events older than a handler's cold window (error too_old)",
        content = @Content(schema = @Schema(implementation = TooOldBody.class)))
    public Response start(String body) {
        ReplayRequest request;
        try {
            request = ReplayRequest.parse(body);
            ReplayRun run = replays.start(request, security.getUserPrincipal().getName());
            return Response.accepted(run).location(URI.create("api/ops/replays/" + run.replayId())).build();
        } catch (InvalidReplayRequest e) {
            return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON)
                .entity(new ErrorBody("invalid_request", e.getMessage())).build();
        } catch (ReplayNotStarted e) {
            return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON)
                .header("Retry-After", "30").location(URI.create("api/ops/replays/" + e.replayId()))
                .entity(new ErrorBody("not_started", "replay " + e.replayId() + " " + e.getMessage())).build();
        } catch (ReplayTooOld e) {
            List<TooOld> shown = e.events().subList(0, Math.min(100, e.events().size()));
            return Response.status(422).type(MediaType.APPLICATION_JSON).entity(new TooOldBody("too_old",
                e.getMessage() + ": replay refused; a forced resend of events that old is not possible by replay",
                e.events().size(), shown)).build();
        }
    }

    @GET
    @Operation(summary = "Recent replays, newest first (without per-handler outcomes)")
    public List<ReplayRun> recent(@QueryParam("limit") @DefaultValue("20") int limit) {
        return runs.recent(Math.max(1, Math.min(limit, 200)));
    }

    @GET
    @Path("{id}")
    @Operation(summary = "One replay: state, done / total, rate, and per handler the effects and duplicates")
    @APIResponse(responseCode = "200", description = "The replay",
        content = @Content(schema = @Schema(implementation = ReplayRun.class)))
    @APIResponse(responseCode = "404", description = "No such replay")
    public ReplayRun get(@PathParam("id") long id) {
        return runs.find(id).orElseThrow(() -> new NotFoundException("no replay " + id));
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Cancel a running replay (what was published stays published)")
    @APIResponse(responseCode = "200", description = "The replay after cancelling (or as it ended)",
        content = @Content(schema = @Schema(implementation = ReplayRun.class)))
    @APIResponse(responseCode = "404", description = "No such replay")
    public ReplayRun cancel(@PathParam("id") long id) {
        ReplayRun before = get(id);
        if (ReplayRun.RUNNING.equals(before.state())) {
            replays.cancel(id);
        }
        return get(id);
    }

    @POST
    @Path("{id}/cancel")
    @Operation(summary = "Cancel a running replay (same as DELETE, for clients that cannot send DELETE)")
    @APIResponse(responseCode = "200", description = "The replay after cancelling (or as it ended)",
        content = @Content(schema = @Schema(implementation = ReplayRun.class)))
    @APIResponse(responseCode = "404", description = "No such replay")
    public ReplayRun cancelByPost(@PathParam("id") long id) {
        return cancel(id);
    }

    /** The 422 answer: how many pairs are too old, and up to 100 of them. */
    public record TooOldBody(String error, String reason, int count, List<TooOld> events) {
    }

    /** The request body, for the OpenAPI document (the resource parses it itself to name every mistake). */
    @Schema(name = "ReplayRequest")
    public record RequestSchema(
        @Schema(description = "received_at at or after (ISO-8601 with offset)") String from,
        @Schema(description = "received_at before (ISO-8601 with offset)") String to,
        @Schema(description = "callback_log.app") String app,
        @Schema(description = "callback_log.event_type values") List<String> eventTypes,
        @Schema(description = "callback_log.event_key values ({app}:{key})") List<String> eventKeys,
        @Schema(description = "callback_log_id values (any delivery of an event selects the event)")
        List<Long> callbackLogIds,
        @Schema(description = "handler names; left out = every handler that takes the selected types")
        List<String> handlers,
        @Schema(description = "forced re-run batch id, [A-Za-z0-9._-]{1,64}; left out = through dedup")
        String batchId,
        @Schema(description = "why (recorded), at most 500 characters") String reason,
        @Schema(description = "messages per second, at most wecom.replay.max-rate") Integer maxRate) {
    }
}
