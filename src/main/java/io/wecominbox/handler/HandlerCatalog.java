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
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

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
    public Optional<EventHandler> byName(String name) {
        return handlers.stream().filter(h -> h.name().equals(name)).findFirst();
    }

    /** Every deployed handler, by name. */
    public List<EventHandler> handlers() {
        return handlers.stream().sorted(Comparator.comparing(EventHandler::name)).toList();
    }

    /** The event types a deadline waits on ({@link HandlerDescriptor#deadlineLane()}): the relay's lane of its own. */
    public Set<String> deadlineLaneTypes() {
        return deadlineLaneTypes(handlers.stream().map(EventHandler::descriptor).toList());
    }

    static Set<String> deadlineLaneTypes(List<DeclaredHandler> declared) {
        return declared.stream().filter(DeclaredHandler::deadlineLane).flatMap(d -> d.eventTypes().stream())
            .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The policy a handler runs under right now (its defaults with config applied). */
    public DedupPolicy policyOf(EventHandler handler) {
        return policies.effective(handler.name(), handler.policy());
    }

    /** Each handler with the policy in force right now, for checks that need the values, not their text. */
    public List<HandlerPolicy> policies() {
        return handlers.stream().sorted(Comparator.comparing(EventHandler::name))
            .map(h -> new HandlerPolicy(h.name(), policies.effective(h.name(), h.policy()))).toList();
    }

    private HandlerView view(EventHandler handler) {
        DedupPolicy p = policyOf(handler);
        return new HandlerView(handler.name(), List.copyOf(new TreeSet<>(handler.eventTypes())),
            p.naturallyIdempotent(), p.hotWindow().toString(), p.coldWindow().toString(), p.onHotStoreDown().name(),
            p.onColdStoreDown().name(), hotTier.describe());
    }

    /** A handler's name and its effective policy. */
    public record HandlerPolicy(String name, DedupPolicy policy) {
    }

    /** One handler as the ops endpoint shows it. */
    public record HandlerView(String name, List<String> eventTypes, boolean naturallyIdempotent, String hotWindow,
                              String coldWindow, String onHotStoreDown, String onColdStoreDown, String hotTier) {
    }
}
