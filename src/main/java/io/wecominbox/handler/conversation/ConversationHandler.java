package io.wecominbox.handler.conversation;

import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandledEvent;
import io.wecominbox.handler.HandlerDescriptor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Keeps every ordinary message once, keyed by (app, MsgId): the write is an insert-if-absent on that key,
 * so a repeat is harmless by construction. Declared naturally idempotent: no dedup record, no claim.
 */
@HandlerDescriptor(name = "conversation",
    eventTypes = {"text", "image", "voice", "video", "location", "link", "file"}, naturallyIdempotent = true)
@ApplicationScoped
public class ConversationHandler implements EventHandler {

    private static final Logger LOG = Logger.getLogger(ConversationHandler.class.getName());

    @Inject
    private ConversationMessageStore store;

    @Override
    public void handle(HandledEvent event) {
        handleAll(List.of(event));
    }

    /** The batch's messages in one insert. */
    @Override
    public void handleAll(List<HandledEvent> events) {
        List<HandledEvent> keyed = new ArrayList<>(events.size());
        for (HandledEvent event : events) {
            if (event.event().msgId() == null) {
                LOG.info("message without MsgId cannot be keyed; not stored: " + event);
            } else {
                keyed.add(event);
            }
        }
        store.keepAll(keyed);
    }
}
