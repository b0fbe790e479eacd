package io.wecominbox.handler.crm;

import io.wecominbox.dedup.StoreDownAction;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandledEvent;
import io.wecominbox.handler.HandlerDescriptor;
import io.wecominbox.messaging.JndiNames;
import io.wecominbox.messaging.BackgroundMessageSender;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.jms.Queue;
import java.util.Map;

/**
 * Tells the CRM about customer activity: one normalized JSON message on queue crm.outbound per event, sent in
 * the same XA transaction as the dedup record, so the CRM gets exactly one per event (and one more per
 * deliberate re-run). Cold tier and REJECT when the database is down: a CRM message cannot be taken back.
 * Keyed by relationship: a customer added is one CRM message, whether the callback or a reconcile pull told us.
 */
@HandlerDescriptor(name = "crm",
    // customer and customer-group changes, and customers' text messages (the CRM's activity timeline)
    eventTypes = {"change_external_contact", "change_external_chat", "change_external_tag", "text"},
    keyedByRelationship = true, onHotStoreDown = StoreDownAction.PROCEED, onColdStoreDown = StoreDownAction.REJECT)
@ApplicationScoped
public class CrmHandler implements EventHandler {

    @Inject
    private BackgroundMessageSender sender;

    @Resource(lookup = JndiNames.CRM_OUTBOUND_QUEUE)
    private Queue outbound;

    @Override
    public void handle(HandledEvent event) {
        sender.send(outbound, CrmEvents.toJson(event), Map.of(
            "app", event.app(),
            "eventType", event.eventType(),
            "eventKey", event.eventKey(),
            "dedupKey", event.dedupKey()));
    }
}
