package io.wecominbox.handler.sample;

import io.wecominbox.dedup.StoreDownAction;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandledEvent;
import io.wecominbox.handler.HandlerDescriptor;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.logging.Logger;

/**
 * The example of docs/handlers.md, "Adding a handler" (HandlerSampleTest keeps the page and this class in step).
 * Test code that no deployment adds: it must not become a handler of the application.
 */
// docs:handler
@HandlerDescriptor(name = "tag-audit", eventTypes = "change_external_tag", sessions = 1,
    onHotStoreDown = StoreDownAction.PROCEED, onColdStoreDown = StoreDownAction.REJECT)
@ApplicationScoped
public class TagAuditHandler implements EventHandler {

    private static final Logger LOG = Logger.getLogger(TagAuditHandler.class.getName());

    @Override
    public void handle(HandledEvent event) {
        LOG.info("tag change: " + event); // its toString() leaves customers' identifiers out
    }
}
// docs:end
