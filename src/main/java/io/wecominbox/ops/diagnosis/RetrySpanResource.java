package io.wecominbox.ops.diagnosis;

import io.wecominbox.handler.HandlerCatalog;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Does each handler's hot dedup window still cover how long WeCom (or anything else) keeps re-sending? */
@Path("api/ops/retry-span")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "diagnosis", description = "Retry diagnosis: how events are repeated, and whether dedup covers it")
@SecurityRequirement(name = "admin")
public class RetrySpanResource {

    @Inject
    private RetrySpanQuery query;

    @Inject
    private HandlerCatalog catalog;

    @Inject
    private Clock clock;

    @GET
    @Operation(summary = "Measured P99 retry span, the hot window it implies, and each handler's hot window against it",
        description = "Span = last minus first arrival of one event key (view callback_retry_span), over the keys"
            + " repeated in the period. The implied hot window is 2 × P99 (lower) to 3 × P99 (upper); configure the"
            + " upper one. A handler whose hot window (wecom.handler.<name>.hot-window) is below the upper bound gets"
            + " a warning: WITHIN_IMPLIED between the bounds, SHORTER_THAN_IMPLIED below 2 × P99. With no repeated"
            + " event in the period the status is NO_DATA, the figures are null and every handler's verdict is"
            + " NO_DATA.")
    @APIResponse(responseCode = "200", description = "The measurement and the comparison",
        content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RetrySpanReport.class)))
    @APIResponse(responseCode = "400", description = "period is not an ISO-8601 duration between PT1H and P90D")
    public RetrySpanReport report(
        @Parameter(description = "How far back to look, ISO-8601 (PT1H to P90D)", example = "P7D",
            schema = @Schema(defaultValue = "P7D")) @QueryParam("period") String period,
        @Parameter(description = "Only this WeCom app (as in callback_log.app); all apps when absent")
        @QueryParam("app") String app) throws SQLException {
        Duration p = RetrySpanPeriod.parse(period);
        Instant since = clock.instant().minus(p);
        String onlyApp = app == null || app.isBlank() ? null : app.trim();
        return RetrySpanReports.build(RetrySpanPeriod.label(period), since, onlyApp, query.since(since, onlyApp),
            catalog.policies());
    }
}
