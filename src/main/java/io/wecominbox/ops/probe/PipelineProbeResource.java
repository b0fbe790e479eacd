package io.wecominbox.ops.probe;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Operators' self-test of the XA path: send a probe, then see whether it was consumed exactly once. */
@Path("api/ops/probes")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "probes", description = "Self-test of the database + broker XA path")
@SecurityRequirement(name = "admin")
public class PipelineProbeResource {

    @Inject
    private PipelineProbe probe;

    @POST
    @Operation(summary = "Send a probe: a row and a JMS message in one XA transaction")
    public Response send(@QueryParam("label") String label) {
        long id = probe.send(label);
        return Response.created(URI.create("api/ops/probes/" + id)).entity(new SentProbe(id)).build();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "Whether the probe was consumed, and how often (exactly once when XA works)")
    public ProbeStatus status(@PathParam("id") long id) {
        return probe.status(id).orElseThrow(() -> new NotFoundException("no probe " + id));
    }

    public record SentProbe(long probeId) {
    }
}
