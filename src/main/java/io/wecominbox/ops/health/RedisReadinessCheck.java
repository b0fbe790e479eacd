package io.wecominbox.ops.health;

import io.wecominbox.dedup.ConfiguredHotTier;
import io.wecominbox.handler.HandlerCatalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.eclipse.microprofile.health.Readiness;

/**
 * Redis (the dedup hot tier) counts against readiness only for handlers whose policy REJECTs while it is
 * down: they cannot make progress without it. Handlers that PROCEED keep working on the cold tier, so for
 * them a dead Redis is reported in the data but leaves the node ready.
 */
@Readiness
@ApplicationScoped
public class RedisReadinessCheck implements DetailedHealthCheck {

    @Inject
    private ConfiguredHotTier hotTier;

    @Inject
    private HandlerCatalog handlers;

    @Inject
    private ProbedInBackground background;

    @Override
    public HealthFinding finding() {
        return background.latest("redis", this::probe);
    }

    HealthFinding probe() {
        var finding = HealthFinding.named("redis").detail("tier", hotTier.describe());
        if (hotTier.refused()) {
            return finding.status(false, "redis_without_password");
        }
        if (!hotTier.isShared() || hotTier.answers()) {
            return finding.up();
        }
        List<String> blocked = handlers.all().stream()
            .filter(h -> !h.naturallyIdempotent() && "REJECT".equals(h.onHotStoreDown()) && !"PT0S".equals(h.hotWindow()))
            .map(HandlerCatalog.HandlerView::name)
            .toList();
        return finding.detail("answers", false)
            .detail("handlers waiting for it", blocked.isEmpty() ? "none (all proceed on the cold tier)" : String.join(",", blocked))
            .status(blocked.isEmpty(), "hot_tier_unreachable");
    }
}
