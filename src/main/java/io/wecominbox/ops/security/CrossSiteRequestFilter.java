package io.wecominbox.ops.security;

import io.wecominbox.ErrorBody;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * A browser that holds the admin's Basic credentials sends them with any request, also one a foreign page
 * makes it send. So a state-changing request that a browser marks as coming from another origin is refused
 * ({@link CrossSiteCheck} decides). Tools (curl, Prometheus, tests) send no Origin and are not affected; reads
 * stay allowed. Behind a proxy that changes scheme, host or port, list the origin browsers use in
 * {@value #TRUSTED_ORIGINS} (WECOM_SECURITY_TRUSTED_ORIGINS), comma-separated.
 */
@Provider
@PreMatching
public class CrossSiteRequestFilter implements ContainerRequestFilter {

    static final String TRUSTED_ORIGINS = "wecom.security.trusted-origins";

    private volatile CrossSiteCheck check;

    @Override
    public void filter(ContainerRequestContext request) {
        CrossSiteCheck.BrowserRequest seen = new CrossSiteCheck.BrowserRequest(request.getMethod(),
                request.getUriInfo().getBaseUri().getRawPath(), request.getUriInfo().getRequestUri(),
                request.getHeaderString("Origin"), request.getHeaderString("Referer"),
                request.getHeaderString("Sec-Fetch-Site"));
        if (check().isForeign(seen)) {
            request.abortWith(Response.status(Response.Status.FORBIDDEN).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new ErrorBody("cross_site", "admin changes only from this server's own pages")).build());
        }
    }

    private CrossSiteCheck check() {
        CrossSiteCheck current = check;
        if (current == null) {
            String listed = ConfigProvider.getConfig().getOptionalValue(TRUSTED_ORIGINS, String.class).orElse("");
            Set<String> trusted = Arrays.stream(listed.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                    .collect(Collectors.toSet());
            current = new CrossSiteCheck(trusted);
            check = current;
        }
        return current;
    }
}
