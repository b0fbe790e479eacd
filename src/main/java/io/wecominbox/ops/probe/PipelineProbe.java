package io.wecominbox.ops.probe;

import io.wecominbox.messaging.JndiNames;
import io.wecominbox.messaging.MessageSender;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Queue;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Optional;

/**
 * Sends a probe the way the ingest sends a callback: a database row and a JMS message in one XA
 * transaction. {@link PipelineProbeConsumer} records the receipt in the consumer's own XA transaction.
 */
@ApplicationScoped
public class PipelineProbe {

    public static final String PROBE_ID = "probeId";

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    @Inject
    private MessageSender sender;

    @Resource(lookup = JndiNames.PROBE_QUEUE)
    private Queue probeQueue;

    /** Joins the caller's transaction if there is one, so a caller can also roll the probe back. */
    @Transactional
    public long send(String label) {
        ProbeRecord probe = new ProbeRecord(label == null ? "" : label, OffsetDateTime.now());
        em.persist(probe);
        em.flush(); // the id travels in the message
        sender.send(probeQueue, "probe " + probe.id(), Map.of(PROBE_ID, probe.id()));
        return probe.id();
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<ProbeStatus> status(long probeId) {
        ProbeRecord probe = em.find(ProbeRecord.class, probeId);
        if (probe == null) {
            return Optional.empty();
        }
        Object[] receipts = (Object[]) em.createNativeQuery(
                "SELECT count(*), min(received_at)::text FROM pipeline_probe_receipt WHERE probe_id = ?1")
                .setParameter(1, probeId)
                .getSingleResult();
        return Optional.of(new ProbeStatus(probeId, probe.label(), probe.sentAt().toString(),
                ((Number) receipts[0]).intValue(), (String) receipts[1]));
    }
}
