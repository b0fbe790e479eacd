package io.wecominbox.handler.conversation;

import io.wecominbox.handler.HandlerRunner;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Queue wecom.handler.conversation; activation spec "wecom-inbox/ConversationEventConsumer" in the drop-in generated
 * from the handler's descriptor (liberty/configDropins/defaults/wecom-handlers.xml).
 */
@MessageDriven
public class ConversationEventConsumer implements MessageListener {

    @Inject
    private HandlerRunner runner;

    @Inject
    private ConversationHandler handler;

    @Override
    public void onMessage(Message message) {
        runner.run(handler, message);
    }
}
