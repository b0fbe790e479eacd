package io.wecominbox.ops.health;

import io.wecominbox.dedup.ConfiguredHotTier;
import io.wecominbox.handler.HandlerCatalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Redis (the dedup hot tier) counts against readiness only for handlers whose policy REJECTs while it is
 * down: they cannot make progress without it. Handlers that PROCEED keep working on the cold tier, so for
 * them a dead Redis is reported in the data but leaves the node ready.
 */
@Readiness
@ApplicationScoped
public class RedisReadinessCheck implements HealthCheck {

    @Inject
    private ConfiguredHotTier hotTier;

    @Inject
    private HandlerCatalog handlers;

    @Inject
    private ProbedInBackground background;

    @Override
    public HealthCheckResponse call() {
        return background.latest("redis", this::probe);
    }

    HealthCheckResponse probe() {
        var response = HealthCheckResponse.named("redis").withData("tier", hotTier.describe());
        if (!hotTier.isShared() || hotTier.answers()) {
            return response.up().build();
        }
        List<String> blocked = handlers.all().stream()
            .filter(h -> !h.naturallyIdempotent() && "REJECT".equals(h.onHotStoreDown()) && !"PT0S".equals(h.hotWindow()))
            .map(HandlerCatalog.HandlerView::name)
            .toList();
        return response.status(blocked.isEmpty())
            .withData("answers", false)
            .withData("handlers waiting for it", blocked.isEmpty() ? "none (all proceed on the cold tier)" : String.join(",", blocked))
            .build();
    }
}
