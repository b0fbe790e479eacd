package io.wecominbox.handler.conversation;

import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandledEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Keeps every ordinary message once, keyed by (app, MsgId): the write is an insert-if-absent on that key,
 * so a repeat is harmless by construction. Declared naturally idempotent: no dedup record, no claim.
 */
@ApplicationScoped
public class ConversationHandler implements EventHandler {

    public static final String NAME = "conversation";

    private static final Logger LOG = Logger.getLogger(ConversationHandler.class.getName());

    static final Set<String> EVENT_TYPES = Set.of("text", "image", "voice", "video", "location", "link", "file");

    @Inject
    private ConversationMessageStore store;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<String> eventTypes() {
        return EVENT_TYPES;
    }

    @Override
    public DedupPolicy policy() {
        return DedupPolicy.naturallyIdempotentHandler();
    }

    @Override
    public void handle(HandledEvent event) {
        if (event.event().msgId() == null) {
            LOG.info("message without MsgId cannot be keyed; not stored: " + event);
            return;
        }
        store.keep(event);
    }
}
