package io.wecominbox.ops.security;

import io.wecominbox.ErrorBody;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.inject.Inject;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The login of the admin API and the dashboard (WEB-INF/web.xml maps it to /api/* and /dashboard/*), in this
 * order:
 * <ol>
 *   <li>Over plain HTTP while {@value AdminLoginGuard#REQUIRES_TLS} is on: 403 {@code tls_required}, with no
 *       Basic challenge, so a browser is never asked to send the password in clear and none sent is looked at.</li>
 *   <li>A source address or user name locked after wrong passwords: 429 {@code locked_out} with Retry-After, the
 *       password unchecked.</li>
 *   <li>The container's own HTTP Basic login (the web.xml login-config, Liberty's user registry): a wrong or
 *       missing password gets its usual 401 challenge, and a wrong one is counted.</li>
 *   <li>Role {@value #ADMIN_ROLE}, else 403.</li>
 * </ol>
 * Not a web.xml security-constraint: the container runs a constraint's login before any filter, so a filter
 * would never see the failed attempts it has to count, nor could it refuse a locked source first.
 * {@link AdminRoleGate} checks the role again inside JAX-RS, in case this filter were ever left unmapped.
 */
public class AdminLoginFilter implements Filter {

    static final String ADMIN_ROLE = "wecom-admin";

    @Inject
    AdminLoginGuard guard;

    @Override
    public void init(FilterConfig config) {
        if (guard == null) {
            // a container that did not inject the filter: look the guard up rather than run without it
            guard = CDI.current().select(AdminLoginGuard.class).get();
        }
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        if (guard.requiresTls() && !request.isSecure()) {
            refuse(response, HttpServletResponse.SC_FORBIDDEN, "tls_required",
                    "the admin API and the dashboard answer over HTTPS only");
            return;
        }
        String source = request.getRemoteAddr();
        String authorization = request.getHeader("Authorization");
        String user = BasicUser.keyOf(authorization);
        Optional<AdminLockout.Refusal> refusal = guard.refusal(source, user);
        if (refusal.isPresent()) {
            response.setHeader("Retry-After", Long.toString(refusal.get().retryAfterSeconds()));
            refuse(response, 429, "locked_out", "too many wrong passwords (" + refusal.get().scope()
                    + "); try again in " + refusal.get().retryAfterSeconds() + " s");
            return;
        }
        if (!request.authenticate(response)) {
            if (authorization != null) {
                guard.failed(source, user); // a request without credentials is a challenge, not a guess
            }
            return; // the container has answered 401 with its Basic challenge
        }
        if (!request.isUserInRole(ADMIN_ROLE)) {
            refuse(response, HttpServletResponse.SC_FORBIDDEN, "not_admin", "this user is not an administrator");
            return;
        }
        guard.succeeded(source);
        chain.doFilter(request, response);
    }

    private static void refuse(HttpServletResponse response, int status, String error, String reason) throws IOException {
        byte[] body = new ErrorBody(error, reason).toJson().getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
