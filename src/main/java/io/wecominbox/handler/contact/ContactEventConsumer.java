package io.wecominbox.handler.contact;

import io.wecominbox.handler.HandlerRunner;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Queue wecom.handler.contact; activation spec "wecom-inbox/ContactEventConsumer" in the drop-in generated
 * from the handler's descriptor (liberty/configDropins/defaults/wecom-handlers.xml).
 */
@MessageDriven
public class ContactEventConsumer implements MessageListener {

    @Inject
    private HandlerRunner runner;

    @Inject
    private ContactHandler handler;

    @Override
    public void onMessage(Message message) {
        runner.run(handler, message);
    }
}
