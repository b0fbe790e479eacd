package io.wecominbox.handler.bot;

import io.wecominbox.handler.HandlerRunner;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Queue wecom.handler.bot; activation spec "wecom-inbox/BotEventConsumer" in the drop-in generated
 * from the handler's descriptor (liberty/configDropins/defaults/wecom-handlers.xml).
 */
@MessageDriven
public class BotEventConsumer implements MessageListener {

    @Inject
    private HandlerRunner runner;

    @Inject
    private BotHandler handler;

    @Override
    public void onMessage(Message message) {
        runner.run(handler, message);
    }
}
