package io.wecominbox.ops.dashboard;

import jakarta.servlet.ServletContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.InputStream;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * Serves the dashboard's few static files. JAX-RS owns every path of this application ("/"), so the servlet
 * container's static file serving never sees them; the files live under WEB-INF/dashboard and only the
 * names listed here are served, with a policy that allows nothing from outside this server.
 */
@Path("dashboard")
public class DashboardPage {

    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=UTF-8",
            "dashboard.css", "text/css; charset=UTF-8",
            "dashboard.js", "text/javascript; charset=UTF-8",
            "charts.js", "text/javascript; charset=UTF-8");

    private static final String POLICY = "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            + "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    @Context
    private ServletContext servletContext;

    @GET
    @Operation(hidden = true)
    public Response index(@Context UriInfo uri) {
        if (!uri.getRequestUri().getPath().endsWith("/")) {
            // relative links in the page resolve against /dashboard/
            return Response.seeOther(uri.getRequestUriBuilder().replacePath(uri.getRequestUri().getPath() + "/")
                    .replaceQuery(null).build()).build();
        }
        return file("index.html");
    }

    @GET
    @Path("{file}")
    @Operation(hidden = true)
    public Response file(@PathParam("file") String name) {
        String type = FILES.get(name);
        InputStream content = type == null ? null : servletContext.getResourceAsStream("/WEB-INF/dashboard/" + name);
        if (content == null) {
            throw new NotFoundException();
        }
        return Response.ok(content, type)
                .header("Content-Security-Policy", POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .header("Cache-Control", "no-cache")
                .build();
    }
}
