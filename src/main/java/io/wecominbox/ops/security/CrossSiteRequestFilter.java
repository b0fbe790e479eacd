package io.wecominbox.ops.security;

import io.wecominbox.ingest.ErrorBody;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.net.URI;
import java.util.Set;

/**
 * A browser that holds the admin's Basic credentials sends them with any request, also one a foreign page
 * makes it send. So a state-changing admin request that a browser marks as coming from another origin is
 * refused. Tools (curl, Prometheus, tests) send no Origin and are not affected; reads stay allowed.
 */
@Provider
@PreMatching
public class CrossSiteRequestFilter implements ContainerRequestFilter {

    private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS");

    @Override
    public void filter(ContainerRequestContext request) {
        if (SAFE.contains(request.getMethod()) || !request.getUriInfo().getPath().replaceFirst("^/", "").startsWith("api/")) {
            return;
        }
        String origin = request.getHeaderString("Origin");
        String site = request.getHeaderString("Sec-Fetch-Site");
        boolean foreign = "cross-site".equals(site) || (origin != null && !sameOrigin(origin, request.getUriInfo().getRequestUri()));
        if (foreign) {
            request.abortWith(Response.status(Response.Status.FORBIDDEN).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new ErrorBody("cross_site", "admin changes only from this server's own pages")).build());
        }
    }

    /** Same host name; scheme and port are not compared, as a TLS-terminating proxy changes both. */
    static boolean sameOrigin(String origin, URI request) {
        try {
            String host = URI.create(origin).getHost();
            return host != null && host.equalsIgnoreCase(request.getHost());
        } catch (IllegalArgumentException e) {
            return false; // "null" or garbage: not our page
        }
    }
}
