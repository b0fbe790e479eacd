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

/** Operators' self-test of the XA path: send a probe, then see whether it was consumed exactly once. */
@Path("api/ops/probes")
@Produces(MediaType.APPLICATION_JSON)
public class PipelineProbeResource {

    @Inject
    private PipelineProbe probe;

    @POST
    public Response send(@QueryParam("label") String label) {
        long id = probe.send(label);
        return Response.created(URI.create("api/ops/probes/" + id)).entity(new SentProbe(id)).build();
    }

    @GET
    @Path("{id}")
    public ProbeStatus status(@PathParam("id") long id) {
        return probe.status(id).orElseThrow(() -> new NotFoundException("no probe " + id));
    }

    public record SentProbe(long probeId) {
    }
}
