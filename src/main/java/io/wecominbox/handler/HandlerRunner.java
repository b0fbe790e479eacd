package io.wecominbox.handler;

import io.wecominbox.dedup.ConfiguredHotTier;
import io.wecominbox.dedup.DedupGate;
import io.wecominbox.dedup.DedupKey;
import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.dedup.DedupRequest;
import io.wecominbox.dedup.Disposition;
import io.wecominbox.dedup.DispositionRecorder;
import io.wecominbox.dedup.JdbcColdTier;
import io.wecominbox.dedup.JtaTransactionHooks;
import io.wecominbox.dedup.PolicyResolver;
import io.wecominbox.dedup.RejectedForRedelivery;
import io.wecominbox.event.MalformedXmlException;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.relationship.RelationshipGenerations;
import io.wecominbox.relationship.RelationshipKey;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * What every handler's message-driven bean delegates to, inside the bean's XA transaction: read the message,
 * check the subscription, build the dedup key, pass the gate, run the handler, inject a test fault if the
 * chaos switch says so. A failure propagates (rollback, redelivery, DLQ); a policy REJECT marks the
 * transaction rollback-only and returns, so an expected outage does not log a stack trace per message.
 */
@ApplicationScoped
public class HandlerRunner {

    private static final Logger LOG = Logger.getLogger(HandlerRunner.class.getName());
    private static final String RELATIONSHIP_EVENT_TYPE = "change_external_contact";

    @Inject
    ConfiguredHotTier hotTier;

    @Inject
    JdbcColdTier coldTier;

    @Inject
    JtaTransactionHooks transactionHooks;

    @Inject
    DispositionRecorder dispositions;

    @Inject
    PolicyResolver policies;

    @Inject
    HandlerFaultInjection faults;

    @Inject
    MetricRegistry metrics;

    @Inject
    RelationshipGenerations relationships;

    @Resource
    private TransactionSynchronizationRegistry transaction;

    private DedupGate gate;

    @PostConstruct
    void init() {
        gate = new DedupGate(hotTier, coldTier, transactionHooks, dispositions);
    }

    public void run(EventHandler handler, Message message) {
        EventMessage delivered = EventMessage.read(message);
        if (delivered.eventType() == null || !handler.eventTypes().contains(delivered.eventType())) {
            // the broker's divert filters on the same types; this is the second line (a replay, a wrong divert)
            metrics.counter("wecom.handler.unsubscribed", new Tag("handler", handler.name())).inc();
            LOG.info(handler.name() + " does not take event type " + delivered.eventType() + ": acknowledged "
                + delivered.eventKey() + " without effect");
            return;
        }
        String eventKey = delivered.eventKey();
        if (handler.keyedByRelationship() && RELATIONSHIP_EVENT_TYPE.equals(delivered.eventType())) {
            // in this transaction, under the relationship's lock: callback and pulled record agree on the key
            RelationshipKey key = relationships.keyFor(delivered.app(), parse(delivered));
            if (key.kind() == RelationshipKey.Kind.STALE) {
                LOG.info(handler.name() + ": pulled record " + delivered.eventKey() + " is contradicted by a newer"
                    + " delete we hold (stale): acknowledged without effect");
                return;
            }
            if (key.kind() == RelationshipKey.Kind.KEYED) {
                eventKey = key.eventKey();
            }
        }
        String dedupKey = DedupKey.of(handler.name(), eventKey, delivered.batchId());
        String handledKey = eventKey;
        DedupPolicy policy = policies.effective(handler.name(), handler.policy());
        DedupRequest request = new DedupRequest(handler.name(), dedupKey, eventKey, delivered.batchId(),
            delivered.app(), delivered.messageId(), delivered.callbackLogId(), delivered.deliveryCount(), policy,
            delivered.replayId());
        try {
            Disposition disposition = gate.run(request, () -> {
                // parsed only when the effect runs: a duplicate does not pay for the XML parser
                HandledEvent event = new HandledEvent(delivered.app(), delivered.eventType(), handledKey,
                    dedupKey, delivered.batchId(), delivered.callbackLogId(), delivered.deliveryCount(),
                    delivered.plaintext(), parse(delivered));
                handler.handle(event);
                faults.afterEffect(handler.name(), event);
            });
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(handler.name() + " " + disposition + " " + dedupKey);
            }
        } catch (RejectedForRedelivery rejected) {
            transaction.setRollbackOnly();
            LOG.info(rejected.getMessage() + " (delivery " + delivered.deliveryCount() + ")");
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new HandlerFailedException(handler.name() + " failed on " + dedupKey, e);
        }
    }

    private static WeComEvent parse(EventMessage delivered) {
        try {
            return WeComEvent.parse(delivered.plaintext());
        } catch (MalformedXmlException e) {
            throw new IllegalStateException("event " + delivered.eventKey() + " does not parse", e);
        }
    }
}
