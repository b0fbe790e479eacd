package io.wecominbox.handler;

import io.wecominbox.dedup.DedupPolicy;
import java.util.List;
import java.util.Set;

/**
 * A handler: one side effect per WeCom event, run exactly once per handler however often the event is
 * delivered. Implement it as an {@code @ApplicationScoped} CDI bean annotated {@link HandlerDescriptor}; its
 * queue, consumer bean and server configuration are generated from that (docs/handlers.md). The framework
 * (not the handler) builds the dedup key {@code wecom:{name}:{eventKey}[:{batchId}]}, claims it, and commits
 * the claim together with whatever {@link #handle} wrote or sent.
 *
 * <p>{@link #name()}, {@link #eventTypes()}, {@link #keyedByRelationship()} and {@link #policy()} read the
 * descriptor; a handler does not override them (test doubles without a descriptor do).
 */
public interface EventHandler {

    /**
     * Stable name: lower-case letters, digits and '-'. Part of every dedup key, of the queue
     * {@code wecom.handler.<name>}, of the metrics and of the config keys {@code wecom.handler.<name>.*}.
     * Renaming a handler makes every past event new to it.
     */
    default String name() {
        return descriptor().name();
    }

    /**
     * The event types it takes (the {@code eventType} message property: the Event for MsgType=event, else the
     * MsgType). Declared here only: the broker's divert to the handler's queue is generated from it
     * ({@link HandlerRoute}); the runner checks it again and acknowledges (logged, no effect) anything else
     * that reaches the queue.
     */
    default Set<String> eventTypes() {
        return descriptor().eventTypes();
    }

    /**
     * True for handlers whose effect is about the relationship itself (contact, crm): their
     * add_external_contact events are keyed by relationship generation instead of the callback's own key, so
     * a pulled record (reconcile) and the callback of the same add are one event to them, and pulled records
     * are published to their queues. False (the default): the ingest's key, and no pulled records.
     */
    default boolean keyedByRelationship() {
        return descriptor().keyedByRelationship();
    }

    /** Windows and store-down behaviour in code; each value can be overridden per deployment by config. */
    default DedupPolicy policy() {
        return descriptor().policy();
    }

    /** The class's {@link HandlerDescriptor}, read once. */
    default DeclaredHandler descriptor() {
        return DeclaredHandler.of(getClass());
    }

    /**
     * The side effect. Runs inside the consumer's XA transaction: database writes through {@code jdbc/wecom}
     * and JMS sends through {@code BackgroundMessageSender} (the background pool, never the callback path's)
     * commit or roll back with the dedup record and the consumed message. Throw to roll back (JMS redelivers
     * with back-off, then dead-letters); never catch-and-ignore.
     * Must not call outside systems that cannot roll back unless it tolerates a repeat (then say so in the
     * policy: {@link DedupPolicy#naturallyIdempotentHandler()} or accept the hot/cold windows as the protection).
     */
    void handle(HandledEvent event) throws Exception;

    /**
     * The side effects of a batch (the events of one transaction, in queue order, each admitted by dedup):
     * one after the other unless the handler does better (e.g. issues its outbound calls together). All of
     * them commit or roll back together.
     */
    default void handleAll(List<HandledEvent> events) throws Exception {
        for (HandledEvent event : events) {
            handle(event);
        }
    }
}
