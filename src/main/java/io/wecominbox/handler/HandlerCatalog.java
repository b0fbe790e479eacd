package io.wecominbox.handler;

import io.wecominbox.dedup.ConfiguredHotTier;
import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.dedup.PolicyResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/** Every handler deployed, with the policy it runs under right now (defaults plus config). */
@ApplicationScoped
public class HandlerCatalog {

    @Inject
    @Any
    Instance<EventHandler> handlers;

    @Inject
    PolicyResolver policies;

    @Inject
    ConfiguredHotTier hotTier;

    public List<HandlerView> all() {
        return handlers.stream().sorted(Comparator.comparing(EventHandler::name)).map(this::view).toList();
    }

    /** The deployed handler of that name, if any. */
    public java.util.Optional<EventHandler> byName(String name) {
        return handlers.stream().filter(h -> h.name().equals(name)).findFirst();
    }

    /** Every deployed handler, by name. */
    public List<EventHandler> handlers() {
        return handlers.stream().sorted(Comparator.comparing(EventHandler::name)).toList();
    }

    /** The policy a handler runs under right now (its defaults with config applied). */
    public DedupPolicy policyOf(EventHandler handler) {
        return policies.effective(handler.name(), handler.policy());
    }

    private HandlerView view(EventHandler handler) {
        DedupPolicy p = policyOf(handler);
        return new HandlerView(handler.name(), List.copyOf(new TreeSet<>(handler.eventTypes())),
            p.naturallyIdempotent(), p.hotWindow().toString(), p.coldWindow().toString(), p.onHotStoreDown().name(),
            p.onColdStoreDown().name(), hotTier.describe());
    }

    /** One handler as the ops endpoint shows it. */
    public record HandlerView(String name, List<String> eventTypes, boolean naturallyIdempotent, String hotWindow,
                              String coldWindow, String onHotStoreDown, String onColdStoreDown, String hotTier) {
    }
}
