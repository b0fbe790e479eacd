package io.wecominbox.ops.security;

import io.wecominbox.ErrorBody;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The second lock on the admin API and the dashboard: inside JAX-RS, a request below /api or /dashboard that
 * reaches a resource without an authenticated administrator is refused. {@link AdminLoginFilter} has already
 * logged the administrator in; this only matters if that filter's web.xml mapping were ever lost, and then
 * fails closed (403 for everyone) instead of open.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHORIZATION)
public class AdminRoleGate implements ContainerRequestFilter {

    private static final Set<String> ADMIN_ROOTS = Set.of("api", "dashboard");

    @Override
    public void filter(ContainerRequestContext request) {
        if (refuses(request.getUriInfo().getBaseUri().getRawPath(), request.getUriInfo().getRequestUri().getRawPath(),
                request.getSecurityContext().isUserInRole(AdminLoginFilter.ADMIN_ROLE))) {
            request.abortWith(Response.status(Response.Status.FORBIDDEN).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new ErrorBody("not_admin", "an administrator's login is required")).build());
        }
    }

    /** True when a request for {@code rawPath} must be refused, given whether its caller is an administrator. */
    static boolean refuses(String rawBasePath, String rawPath, boolean admin) {
        return !admin && isAdminPath(RequestPath.below(rawBasePath, rawPath));
    }

    static boolean isAdminPath(Optional<List<String>> path) {
        return path.isPresent() && !path.get().isEmpty() && ADMIN_ROOTS.contains(path.get().get(0));
    }
}
