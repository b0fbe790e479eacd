package io.wecominbox.handler;

import io.wecominbox.dedup.ConfiguredHotTier;
import io.wecominbox.dedup.DedupGate;
import io.wecominbox.dedup.DedupKey;
import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.dedup.DedupRequest;
import io.wecominbox.dedup.DispositionRecorder;
import io.wecominbox.dedup.JdbcColdTier;
import io.wecominbox.dedup.JtaTransactionHooks;
import io.wecominbox.dedup.PolicyResolver;
import io.wecominbox.dedup.RejectedForRedelivery;
import io.wecominbox.event.MalformedXmlException;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.logging.Redacted;
import io.wecominbox.metrics.MetricHandles;
import io.wecominbox.relationship.RelationshipGenerations;
import io.wecominbox.relationship.RelationshipKey;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Message;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.Histogram;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * What every handler's message-driven bean delegates to, inside the bean's XA transaction: take the batch
 * (the bean's message and what waits behind it), read the messages, check the subscription, build the dedup
 * keys, pass the gate, run the handler on what it admitted. A failure propagates (the whole batch rolls back;
 * redeliveries run one at a time, then the DLQ); a policy REJECT marks the transaction rollback-only and
 * returns, so an expected outage does not log a stack trace per message.
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
    QueuedMessages queued;

    @Inject
    MetricRegistry metrics;

    @Inject
    RelationshipGenerations relationships;

    @Inject
    ConsumerThreadPriority priority;

    @Resource
    private TransactionSynchronizationRegistry transaction;

    private DedupGate gate;
    private MetricHandles<Histogram> batchSizes;

    @PostConstruct
    void init() {
        gate = new DedupGate(hotTier, coldTier, transactionHooks, dispositions);
        batchSizes = new MetricHandles<>(tags -> metrics.histogram("wecom.handler.batch.size", tags), "handler");
    }

    /**
     * Runs the message the bean was given, together with what already waits on its queue (a batch of one at
     * low load), as one transaction: the dedup claims of the batch, the handler's effects, one commit.
     */
    public void run(EventHandler handler, Message message) {
        priority.place(handler.descriptor());
        List<Message> batch = queued.batchOf(handler.name(), message);
        batchSizes.of(handler.name()).update(batch.size());
        List<EventMessage> delivered = new ArrayList<>(batch.size());
        for (Message m : batch) {
            EventMessage d = EventMessage.read(m);
            if (d.eventType() == null || !handler.eventTypes().contains(d.eventType())) {
                // the broker's divert filters on the same types; this is the second line (a replay, a wrong divert)
                metrics.counter("wecom.handler.unsubscribed", new Tag("handler", handler.name())).inc();
                LOG.info(handler.name() + " does not take event type " + d.eventType() + ": acknowledged "
                    + ref(d) + " without effect");
            } else {
                delivered.add(d);
            }
        }
        DedupPolicy policy = policies.effective(handler.name(), handler.policy());
        List<Keyed> keyed = new ArrayList<>(delivered.size());
        List<DedupRequest> requests = new ArrayList<>(delivered.size());
        for (EventMessage d : delivered) {
            WeComEvent parsed = keyedByRelationship(handler, d) ? parse(d) : null;
            String eventKey = eventKey(handler, d, parsed);
            if (eventKey != null) {
                keyed.add(new Keyed(d, parsed));
                requests.add(request(handler, policy, d, eventKey));
            }
        }
        try {
            List<DedupGate.Admission> admissions = gate.admit(requests);
            List<HandledEvent> events = new ArrayList<>(admissions.size());
            for (int i = 0; i < admissions.size(); i++) {
                if (admissions.get(i).runs()) {
                    // parsed only when the effect runs (a duplicate does not pay for the XML parser), and once
                    events.add(handledEvent(keyed.get(i), requests.get(i)));
                }
            }
            if (!events.isEmpty()) {
                handler.handleAll(events);
            }
            if (LOG.isLoggable(Level.FINE)) {
                admissions.forEach(a -> LOG.fine(handler.name() + " " + a.disposition() + " " + a.request().dedupKey()));
            }
        } catch (RejectedForRedelivery rejected) {
            transaction.setRollbackOnly();
            LOG.info(handler.name() + ": " + rejected.getMessage() + " (key " + Redacted.id(rejected.key())
                + ", batch of " + batch.size() + ", delivery " + QueuedMessages.deliveryCount(message) + ")");
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new HandlerFailedException(handler.name() + " failed on a batch of " + batch.size()
                + (keyed.isEmpty() ? "" : " from " + ref(keyed.get(0).message())), e);
        }
    }

    /**
     * The event key this handler runs the message under: the relationship's for a handler keyed by it (in this
     * transaction, under the relationship's lock: callback and pulled record agree on the key), else the
     * message's; null for a pulled record that a newer delete we hold contradicts (acknowledged, no effect).
     */
    private String eventKey(EventHandler handler, EventMessage d, WeComEvent parsed) {
        if (!keyedByRelationship(handler, d)) {
            return d.eventKey();
        }
        RelationshipKey key = relationships.keyFor(d.app(), parsed);
        if (key.kind() == RelationshipKey.Kind.STALE) {
            LOG.info(handler.name() + ": pulled record " + ref(d) + " is contradicted by a newer"
                + " delete we hold (stale): acknowledged without effect");
            return null;
        }
        return key.kind() == RelationshipKey.Kind.KEYED ? key.eventKey() : d.eventKey();
    }

    private static boolean keyedByRelationship(EventHandler handler, EventMessage d) {
        return handler.keyedByRelationship() && RELATIONSHIP_EVENT_TYPE.equals(d.eventType());
    }

    private static DedupRequest request(EventHandler handler, DedupPolicy policy, EventMessage d, String eventKey) {
        String dedupKey = DedupKey.of(handler.name(), eventKey, d.batchId());
        return new DedupRequest(handler.name(), dedupKey, eventKey, d.batchId(), d.app(), d.messageId(),
            d.callbackLogId(), d.deliveryCount(), policy, d.replayId());
    }

    private static HandledEvent handledEvent(Keyed keyed, DedupRequest request) {
        EventMessage d = keyed.message();
        return new HandledEvent(d.app(), d.eventType(), request.eventKey(), request.dedupKey(), d.batchId(),
            d.callbackLogId(), d.deliveryCount(), d.plaintext(), keyed.parsed() != null ? keyed.parsed() : parse(d));
    }

    /** A message with a key to run under, and its event if the key needed it parsed (else null: parsed later). */
    private record Keyed(EventMessage message, WeComEvent parsed) {
    }

    /** A message for a log line: its callback_log row (0 for a pulled record) and its key's tag, never the key. */
    private static String ref(EventMessage d) {
        return "callback_log " + d.callbackLogId() + " (key " + Redacted.id(d.eventKey()) + ")";
    }

    private static WeComEvent parse(EventMessage delivered) {
        try {
            return WeComEvent.parse(delivered.plaintext());
        } catch (MalformedXmlException e) {
            throw new IllegalStateException("event " + ref(delivered) + " does not parse", e);
        }
    }
}
