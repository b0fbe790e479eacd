package io.wecominbox;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** JAX-RS root: callbacks under /wecom/callback, the admin API under /api. */
@ApplicationPath("/")
public class WeComInboxApplication extends Application {
}
