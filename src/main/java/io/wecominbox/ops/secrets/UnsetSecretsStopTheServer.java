package io.wecominbox.ops.secrets;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;

/**
 * Fails closed at start: if a required password is unset, log which ones (names only, never a value) and stop
 * the whole server. Stopping the server, not only failing this application, because a server without its app
 * still answers HTTP and its health endpoint would show nothing wrong.
 */
@ApplicationScoped
public class UnsetSecretsStopTheServer {

    private static final Logger LOG = Logger.getLogger(UnsetSecretsStopTheServer.class.getName());

    @Inject
    Config config;

    void check(@Observes @Initialized(ApplicationScoped.class) Object started) {
        List<RequiredSecret> missing = RequiredSecret.missing(name -> config.getOptionalValue(name, String.class));
        if (missing.isEmpty()) {
            return;
        }
        String names = missing.stream().map(s -> s.environment() + " (" + s.what() + ", Liberty variable "
                + s.variable() + ")").collect(Collectors.joining(", "));
        String message = "WeCom Inbox stops the server: not set: " + names
                + ". Set each in the server's environment or as a file in VARIABLE_SOURCE_DIRS (docs/deploy.md);"
                + " an unset secret is never used.";
        LOG.severe(message);
        // another thread: exiting from inside the application's start would wait on the start it is part of
        Thread exit = new Thread(() -> System.exit(78), "unset-secrets-exit");
        exit.start();
        throw new IllegalStateException(message);
    }
}
