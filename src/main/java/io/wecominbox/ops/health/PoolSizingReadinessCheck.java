package io.wecominbox.ops.health;

import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandlerCatalog;
import io.wecominbox.handler.PoolSizing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.health.Readiness;

/**
 * Not ready while server.xml's pools are smaller than the consumers' sessions need ({@link PoolSizing}):
 * an operator who raises {@code handler.<name>.sessions} must raise the pools with it, and Liberty's
 * variables cannot add them up.
 */
@Readiness
@ApplicationScoped
public class PoolSizingReadinessCheck implements DetailedHealthCheck {

    @Inject
    Config config;

    @Inject
    HandlerCatalog handlers;

    @Override
    public HealthFinding finding() {
        Map<String, Integer> sessions = handlers.handlers().stream().map(EventHandler::name)
            .collect(Collectors.toMap(n -> n, n -> number("handler." + n + ".sessions")));
        PoolSizing sizing = new PoolSizing(sessions, number("probe.sessions"), number("background.connections"),
            number("ingest.db.connections"), number("db.pool.size"), number("background.jms.pool.size"));
        List<String> shortfalls = sizing.shortfalls();
        var finding = HealthFinding.named("pool-sizing")
            .detail("dbPool", sizing.dbPool()).detail("backgroundJmsPool", sizing.backgroundJmsPool());
        if (!shortfalls.isEmpty()) {
            finding.detail("shortfall", String.join("; ", shortfalls));
        }
        return finding.status(shortfalls.isEmpty(), "pools_too_small");
    }

    private int number(String name) {
        return config.getOptionalValue(name, Integer.class).orElse(0);
    }
}
