package io.wecominbox.wecom;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * The WeCom apps this deployment serves, built once at startup from MicroProfile Config (environment
 * variables such as {@code WECOM_APP_CUSTOMER_TOKEN} override). Misconfigured apps are logged and answer
 * 503; names not configured at all answer 404.
 */
@ApplicationScoped
public class WeComApps {

    private static final Logger LOG = Logger.getLogger(WeComApps.class.getName());

    @Inject
    private Config config;

    private WeComAppsConfig apps;

    @PostConstruct
    void load() {
        apps = WeComAppsConfig.read(key -> config.getOptionalValue(key, String.class));
        if (apps.ready().isEmpty() && apps.broken().isEmpty()) {
            LOG.warning("no WeCom app configured (" + WeComAppsConfig.APPS + " / WECOM_APPS): every callback answers 404");
        }
        apps.ready().values().forEach(app -> LOG.info("WeCom app " + app.name() + " ready: corp " + app.corpId()
                + ", agent " + app.agentId() + ", callback URL /wecom/callback/" + app.name()));
        apps.broken().forEach((name, problems) -> LOG.severe("WeCom app " + name
                + " is misconfigured and answers 503 until fixed: " + String.join("; ", problems)));
    }

    /** Observing startup creates the bean (and runs {@link #load}) at deployment, not at the first callback. */
    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
        // nothing else to do: being called was the point
    }

    public AppLookup find(String name) {
        WeComApp app = apps.ready().get(name);
        if (app != null) {
            return new AppLookup(app, false);
        }
        return new AppLookup(null, apps.broken().containsKey(name));
    }

    public Set<String> names() {
        return apps.ready().keySet();
    }

    /** The app when ready; otherwise whether the name is configured but broken (503) or unknown (404). */
    public record AppLookup(WeComApp app, boolean misconfigured) {
    }
}
