package io.wecominbox.testhooks;

import io.wecominbox.handler.HandledEvent;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * TEST / CHAOS SWITCH, only in the test deployment (never in the production WAR), off unless configured:
 * fails a handler AFTER its business writes and sends, before the commit, so tests can prove that everything
 * (the whole batch) rolls back and the redelivery ends with one effect. {@link FailAfterEffect} applies it.
 * <ul>
 *   <li>{@code wecom.chaos.fail-after-handle.marker}: fail only events whose plaintext contains this text
 *       (unset = switch off);</li>
 *   <li>{@code wecom.chaos.fail-after-handle.attempts} (default 1): fail delivery attempts 1..N, then let it pass;</li>
 *   <li>{@code wecom.chaos.fail-after-handle.handlers}: comma list of handler names (unset = all).</li>
 * </ul>
 */
@ApplicationScoped
public class HandlerFaultInjection {

    private static final Logger LOG = Logger.getLogger(HandlerFaultInjection.class.getName());

    @Inject
    @ConfigProperty(name = "wecom.chaos.fail-after-handle.marker")
    Optional<String> marker;

    @Inject
    @ConfigProperty(name = "wecom.chaos.fail-after-handle.attempts", defaultValue = "1")
    int attempts;

    @Inject
    @ConfigProperty(name = "wecom.chaos.fail-after-handle.handlers")
    Optional<List<String>> handlers;

    @PostConstruct
    void warnIfOn() {
        if (marker.filter(m -> !m.isBlank()).isPresent()) {
            LOG.warning("CHAOS SWITCH ON: handlers " + handlers.map(Object::toString).orElse("(all)")
                + " fail after their effect on delivery attempts 1.." + attempts
                + " of events containing the configured marker (test deployment).");
        }
    }

    void afterEffect(String handler, HandledEvent event) {
        if (marker.filter(m -> !m.isBlank() && event.plaintext().contains(m)).isEmpty()) {
            return;
        }
        if (handlers.isPresent() && !handlers.get().contains(handler)) {
            return;
        }
        if (event.deliveryCount() <= attempts) {
            throw new InjectedFault("chaos: injected failure after " + handler + " handled " + event.dedupKey()
                + " (attempt " + event.deliveryCount() + ")");
        }
    }

    /** The failure the switch injects. */
    public static class InjectedFault extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedFault(String message) {
            super(message);
        }
    }
}
