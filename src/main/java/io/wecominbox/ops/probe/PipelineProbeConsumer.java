package io.wecominbox.ops.probe;

import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;

/**
 * Records each probe message in the same XA transaction as its receipt from the broker.
 * Bound to queue wecom.probe by the activation spec "wecom-inbox/PipelineProbeConsumer" in server.xml.
 */
@MessageDriven
public class PipelineProbeConsumer implements MessageListener {

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    @Override
    public void onMessage(Message message) {
        try {
            long probeId = message.getLongProperty(PipelineProbe.PROBE_ID);
            int deliveryCount = message.getIntProperty("JMSXDeliveryCount");
            em.persist(new ProbeReceipt(probeId, OffsetDateTime.now(), deliveryCount));
        } catch (JMSException e) {
            // rethrow: the container rolls back and the broker redelivers; never swallow a message
            throw new IllegalStateException("unreadable probe message", e);
        }
    }
}
