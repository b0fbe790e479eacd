package io.wecominbox.ops.handlers;

import io.wecominbox.handler.HandlerCatalog;
import io.wecominbox.handler.HandlerCatalog.HandlerView;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Operators: which handlers run, what they take, and the dedup policy in force for each (config applied). */
@Path("api/ops/handlers")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "handlers", description = "The deployed handlers and their dedup policies")
@SecurityRequirement(name = "admin")
public class HandlerResource {

    @Inject
    private HandlerCatalog catalog;

    @GET
    @Operation(summary = "Each handler: the event types it takes and its effective dedup policy (hot and cold"
        + " windows, what it does when a store is down)")
    public List<HandlerView> handlers() {
        return catalog.all();
    }
}
