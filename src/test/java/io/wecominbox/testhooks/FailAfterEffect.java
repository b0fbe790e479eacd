package io.wecominbox.testhooks;

import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.handler.DeclaredHandler;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandledEvent;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.util.List;
import java.util.Set;

/**
 * Test deployments only: every handler, decorated so that the chaos switch can fail it after its effect.
 * Only the batch entry point is decorated, because that is what the runner calls: the failure comes after
 * the whole batch's effects, as a failed commit would.
 */
@Decorator
@Priority(Interceptor.Priority.APPLICATION)
public abstract class FailAfterEffect implements EventHandler {

    @Inject
    @Delegate
    EventHandler handler;

    @Inject
    HandlerFaultInjection faults;

    @Override
    public void handleAll(List<HandledEvent> events) throws Exception {
        handler.handleAll(events);
        for (HandledEvent event : events) {
            faults.afterEffect(handler.name(), event);
        }
    }

    // the decorator is abstract: every other method goes to the handler unchanged. EventHandler's default
    // methods are declared again, abstract: an inherited default would run on the decorator, whose class has
    // no @HandlerDescriptor
    @Override
    public abstract String name();

    @Override
    public abstract Set<String> eventTypes();

    @Override
    public abstract DedupPolicy policy();

    @Override
    public abstract boolean keyedByRelationship();

    @Override
    public abstract DeclaredHandler descriptor();
}
