package io.wecominbox.handler.welcome;

import io.wecominbox.handler.HandlerRunner;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Queue wecom.handler.welcome; activation spec "wecom-inbox/WelcomeEventConsumer" in the drop-in generated
 * from the handler's descriptor (liberty/configDropins/defaults/wecom-handlers.xml).
 */
@MessageDriven
public class WelcomeEventConsumer implements MessageListener {

    @Inject
    private HandlerRunner runner;

    @Inject
    private WelcomeHandler handler;

    @Override
    public void onMessage(Message message) {
        runner.run(handler, message);
    }
}
