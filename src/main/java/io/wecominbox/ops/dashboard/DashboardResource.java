package io.wecominbox.ops.dashboard;

import io.wecominbox.callbacklog.CallbackLogStatistics.KeyTimeline;
import io.wecominbox.cluster.ClusterNodes;
import io.wecominbox.ops.metrics.BrokerQueues;
import io.wecominbox.ops.metrics.ConsumerActivity;
import io.wecominbox.ingest.IngestMetrics;
import io.wecominbox.ops.metrics.RetryRate;
import io.wecominbox.relay.PublicationRelay;
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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Small read-only JSON views for the dashboard; every range and count is clamped. */
@Path("api/ops/dashboard")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "dashboard", description = "What the dashboard shows, as JSON")
@SecurityRequirement(name = "admin")
public class DashboardResource {

    @Inject
    private DashboardQueries queries;

    @Inject
    private IngestMetrics ingest;

    @Inject
    private RetryRate retryRate;

    @Inject
    private BrokerQueues queues;

    @Inject
    private ConsumerActivity consumers;

    @Inject
    private PublicationRelay relay;

    @Inject
    private ClusterNodes nodes;

    @Inject
    private Clock clock;

    @GET
    @Path("ingest")
    @Operation(summary = "Deliveries, retries, rejections and ACK latency over the last minutes (5-120)")
    public IngestSeries ingest(@QueryParam("minutes") Integer minutes) throws SQLException {
        int m = clamp(minutes, 15, 5, 120);
        long step = IngestSeries.stepFor(m);
        Instant to = clock.instant();
        Instant from = Instant.ofEpochSecond(Math.floorDiv(to.minus(Duration.ofMinutes(m)).getEpochSecond(), step) * step);
        Map<String, IngestSeries.RetryRateView> rates = new TreeMap<>();
        retryRate.current().forEach((app, r) ->
                rates.put(app, new IngestSeries.RetryRateView(r.deliveries(), r.keys(), r.ratio())));
        return new IngestSeries(from, to, step, IngestSeries.merge(queries.ingest(from, step),
                ingest.window().series(from, to, Duration.ofSeconds(step))), rates);
    }

    @GET
    @Path("timeline")
    @Operation(summary = "Recent event keys (retried first) with every delivery's offset from the first one")
    public List<KeyTimeline> timeline(@QueryParam("minutes") Integer minutes,
                                                       @QueryParam("keys") Integer keys) throws SQLException {
        Instant from = clock.instant().minus(Duration.ofMinutes(clamp(minutes, 60, 1, 24 * 60)));
        return queries.timeline(from, clamp(keys, 12, 1, 50));
    }

    @GET
    @Path("queues")
    @Operation(summary = "Broker queue depths (dead-letter and expiry queues included), cached a few seconds")
    public BrokerQueues.Snapshot queues() {
        return queues.snapshot();
    }

    @GET
    @Path("relay")
    @Operation(summary = "Callbacks stored but not yet published to the broker, and the age of the oldest")
    public PublicationRelay.Status relay() {
        return relay.status();
    }

    @GET
    @Path("nodes")
    @Operation(summary = "Every node of the deployment from its heartbeat: running, silent or stopped, with its"
            + " last minute's callbacks and ACK latency")
    public List<ClusterNodes.Node> nodes() throws SQLException {
        return nodes.all();
    }

    @GET
    @Path("rejections")
    @Operation(summary = "Refused callbacks per hour, app and reason (latest first)")
    public List<DashboardQueries.RejectionRow> rejections(@QueryParam("hours") Integer hours) throws SQLException {
        return queries.rejections(clamp(hours, 24, 1, 24 * 7), 50);
    }

    @GET
    @Path("welcomes")
    @Operation(summary = "The latest welcome outcomes (welcome_send_log): status, latency from CreateTime, errcode;"
            + " codes shortened (1-50 rows)")
    public List<DashboardQueries.WelcomeSendRow> welcomes(@QueryParam("limit") Integer limit) throws SQLException {
        return queries.welcomes(clamp(limit, 15, 1, 50));
    }

    @GET
    @Path("consumers")
    @Operation(summary = "Dispositions per handler and the latest cleanup runs (this node, since start)")
    public ConsumerView consumers() {
        return new ConsumerView(consumers.dispositions(), List.copyOf(consumers.cleanups().values()));
    }

    public record ConsumerView(Map<String, Map<String, Long>> dispositions, List<ConsumerActivity.CleanupRun> cleanups) {
    }

    static int clamp(Integer value, int fallback, int min, int max) {
        return value == null ? fallback : Math.max(min, Math.min(max, value));
    }
}
