package io.wecominbox.ops.handlers;

import io.wecominbox.handler.HandlerCatalog;
import io.wecominbox.handler.HandlerCatalog.HandlerView;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** Operators: which handlers run, what they take, and the dedup policy in force for each (config applied). */
@Path("api/ops/handlers")
@Produces(MediaType.APPLICATION_JSON)
public class HandlerResource {

    @Inject
    private HandlerCatalog catalog;

    @GET
    public List<HandlerView> handlers() {
        return catalog.all();
    }
}
