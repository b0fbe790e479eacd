package io.wecominbox.handler;

import io.wecominbox.dedup.StoreDownAction;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Everything about a handler that is not its code, declared once on its class: the {@link EventHandler}
 * methods of the same names read it ({@link DeclaredHandler}), and the broker's routes, the server's queue,
 * activation spec, session variable and pool sums, and the consumer bean are generated from it
 * (docs/handlers.md, "Adding a handler").
 *
 * <p>{@link Inherited}: a CDI client proxy subclasses the handler, and must show the same declaration.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface HandlerDescriptor {

    /** See {@link EventHandler#name()}: {@code [a-z][a-z0-9-]*}, stable. */
    String name();

    /** See {@link EventHandler#eventTypes()}. */
    String[] eventTypes();

    /** See {@link EventHandler#keyedByRelationship()}. */
    boolean keyedByRelationship() default false;

    /**
     * A deadline waits on these events (the welcome's 20 s): the publication relay sends every event of their
     * types on a lane of its own, so they do not queue behind the other events that arrived before them.
     */
    boolean deadlineLane() default false;

    /**
     * Whether somebody waits for its effect: the OS priority of the threads that deliver its messages
     * ({@link Urgency}). By default a handler catches up after a burst, below the callback URL.
     */
    Urgency urgency() default Urgency.CATCH_UP;

    /** The default of {@code handler.<name>.sessions}: the queue's concurrent consumer transactions. */
    int sessions() default 2;

    /** No dedup record: the effect is an upsert keyed by the event (the store-down actions are then moot). */
    boolean naturallyIdempotent() default false;

    StoreDownAction onHotStoreDown() default StoreDownAction.PROCEED;

    StoreDownAction onColdStoreDown() default StoreDownAction.REJECT;

    /** ISO-8601 ({@code PT15M}); empty: {@code DedupPolicy.DEFAULT_HOT_WINDOW}. */
    String hotWindow() default "";

    /** ISO-8601 ({@code P30D}); empty: {@code DedupPolicy.DEFAULT_COLD_WINDOW}. */
    String coldWindow() default "";
}
