package io.wecominbox;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/**
 * JAX-RS root: callbacks under /wecom/callback (public, signed by WeCom), the admin API under /api (login
 * as a member of wecom-admin, see WEB-INF/web.xml). The OpenAPI document is served at /openapi.
 */
@ApplicationPath("/")
@OpenAPIDefinition(info = @Info(title = "WeCom Inbox", version = "1",
        description = "WeCom callback ingest (public, signed) and the operators' admin API (HTTP Basic, role wecom-admin)"))
@SecurityScheme(securitySchemeName = "admin", type = SecuritySchemeType.HTTP, scheme = "basic",
        description = "A user of group wecom-admin (ADMIN_USER / ADMIN_PASSWORD)")
public class WeComInboxApplication extends Application {
}
