package io.wecominbox.handler.crm;

import io.wecominbox.handler.HandlerRunner;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * Queue wecom.handler.crm; activation spec "wecom-inbox/CrmEventConsumer" in the drop-in generated
 * from the handler's descriptor (liberty/configDropins/defaults/wecom-handlers.xml).
 */
@MessageDriven
public class CrmEventConsumer implements MessageListener {

    @Inject
    private HandlerRunner runner;

    @Inject
    private CrmHandler handler;

    @Override
    public void onMessage(Message message) {
        runner.run(handler, message);
    }
}
