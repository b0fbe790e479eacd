package io.wecominbox.wecom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/** Makes the one {@link WeComApi} of the application from MicroProfile Config; its token cache is shared. */
@ApplicationScoped
public class WeComApiProducer {

    private static final Logger LOG = Logger.getLogger(WeComApiProducer.class.getName());

    @Inject
    Config config;

    @Inject
    Clock clock;

    @Produces
    @ApplicationScoped
    WeComApi weComApi() {
        Function<String, Optional<String>> lookup = key -> config.getOptionalValue(key, String.class);
        WeComApiSettings settings = WeComApiSettings.read(lookup);
        LOG.info(() -> "WeCom API at " + settings.baseUrl() + ", connect timeout "
                + settings.connectTimeout().toMillis() + " ms, read timeout " + settings.readTimeout().toMillis() + " ms");
        return new HttpWeComApi(settings, new ConfigAppCredentials(lookup), clock);
    }
}
