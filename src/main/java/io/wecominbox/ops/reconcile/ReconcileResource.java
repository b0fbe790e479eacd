package io.wecominbox.ops.reconcile;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.ErrorBody;
import io.wecominbox.reconcile.ReconcileRun;
import io.wecominbox.reconcile.ReconcileRuns;
import io.wecominbox.reconcile.ReconcileService;
import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.ws.rs.Consumes;
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
import java.io.StringReader;
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

/** Reconciliation pull: start a pass of one app now, follow its progress, see past passes. */
@Path("api/ops/reconcile-runs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "reconcile", description = "Pull what WeCom gave up delivering (docs/operations.md)")
@SecurityRequirement(name = "admin")
public class ReconcileResource {

    @Inject
    private ReconcileService service;

    @Inject
    private ReconcileRuns runs;

    @Context
    private SecurityContext security;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start a reconcile pass of one app now (runs in the background; poll its URL)",
        description = """
            Lists the app's members with customers (get_follow_user_list), pages their customers \
            (batch/get_by_user) and hands every relationship the contact store does not hold as current to the \
            contact and crm handlers, deduplicated against the callbacks by relationship generation. Only a \
            complete pass marks relationships it did not list as GONE. One pass per app at a time (409 while one \
            runs, on any node).""")
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
        schema = @Schema(implementation = StartRequest.class),
        examples = @ExampleObject(name = "after an outage", value = "{\"app\": \"customer\"}")))
    @APIResponse(responseCode = "202", description = "Started; Location is the run's URL",
        content = @Content(schema = @Schema(implementation = ReconcileRun.class)))
    @APIResponse(responseCode = "400", description = "No app, or no such app (error invalid_request)",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    @APIResponse(responseCode = "409", description = "A pass of this app is already running (error already_running)",
        content = @Content(schema = @Schema(implementation = ErrorBody.class)))
    public Response start(String body) {
        String app;
        try (JsonReader reader = JSON.createReader(new StringReader(body == null || body.isBlank() ? "{}" : body))) {
            JsonObject json = reader.readObject();
            app = json.getString("app", null);
        } catch (JsonException | IllegalStateException | ClassCastException e) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "body must be {\"app\": \"<name>\"}");
        }
        if (app == null || app.isBlank()) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", "app is required");
        }
        try {
            return service.start(app, "OPERATOR", security.getUserPrincipal().getName())
                .map(run -> Response.accepted(run).location(URI.create("api/ops/reconcile-runs/" + run.runId())).build())
                .orElseGet(() -> error(Response.Status.CONFLICT, "already_running",
                    "a reconcile pass of app " + app + " is running; see GET api/ops/reconcile-runs"));
        } catch (IllegalArgumentException e) {
            return error(Response.Status.BAD_REQUEST, "invalid_request", e.getMessage());
        }
    }

    @GET
    @Operation(summary = "Recent reconcile passes, newest first")
    public List<ReconcileRun> recent(@QueryParam("limit") @DefaultValue("20") int limit) {
        return runs.recent(Math.max(1, Math.min(limit, 200)));
    }

    @GET
    @Path("{id}")
    @Operation(summary = "One pass: state, progress (chunk, pages), counts (seen, new, known, gone), errors, why it stopped")
    @APIResponse(responseCode = "200", description = "The pass",
        content = @Content(schema = @Schema(implementation = ReconcileRun.class)))
    @APIResponse(responseCode = "404", description = "No such pass")
    public ReconcileRun get(@PathParam("id") long id) {
        return runs.find(id).orElseThrow(() -> new NotFoundException("no reconcile run " + id));
    }

    private static Response error(Response.Status status, String code, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(new ErrorBody(code, message)).build();
    }

    /** The request body, for the OpenAPI document. */
    @Schema(name = "ReconcileRequest")
    public record StartRequest(@Schema(description = "WeCom app name (wecom.apps)", required = true) String app) {
    }
}
