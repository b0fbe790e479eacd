package io.wecominbox.ops.health;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Operators: every health check with its details (hosts, errors, pool sizes, backlogs). The public /health shows
 * only UP/DOWN and a reason code per check; this is the same findings, behind the admin login (web.xml: /api/*).
 * Answers 200 whatever the verdict: it is a report, not a probe for load balancers.
 */
@Path("api/ops/health")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "health", description = "Health checks with their details")
@SecurityRequirement(name = "admin")
public class OpsHealthResource {

    @Inject
    @Readiness
    Instance<DetailedHealthCheck> readiness;

    @Inject
    @Liveness
    Instance<DetailedHealthCheck> liveness;

    @GET
    @Operation(summary = "Readiness and liveness checks with their details; status UP only when every check is UP")
    public HealthReport health() {
        return HealthReport.of(findings(readiness), findings(liveness));
    }

    private static List<HealthFinding> findings(Instance<DetailedHealthCheck> checks) {
        return StreamSupport.stream(checks.spliterator(), false).map(DetailedHealthCheck::finding)
                .sorted(Comparator.comparing(HealthFinding::name)).toList();
    }

    /** The JSON: the overall status, then each kind's checks. */
    public record HealthReport(String status, List<Check> readiness, List<Check> liveness) {

        static HealthReport of(List<HealthFinding> readiness, List<HealthFinding> liveness) {
            boolean up = readiness.stream().allMatch(HealthFinding::up) && liveness.stream().allMatch(HealthFinding::up);
            return new HealthReport(up ? "UP" : "DOWN", readiness.stream().map(Check::of).toList(),
                    liveness.stream().map(Check::of).toList());
        }
    }

    /** One check: name, status, the reason code when DOWN, and its details. */
    public record Check(String name, String status, String reason, Map<String, Object> details) {

        static Check of(HealthFinding f) {
            return new Check(f.name(), f.up() ? "UP" : "DOWN", f.reason(), f.details());
        }
    }
}
