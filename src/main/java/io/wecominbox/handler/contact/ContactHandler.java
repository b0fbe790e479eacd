package io.wecominbox.handler.contact;

import io.wecominbox.event.PulledContact;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandledEvent;
import io.wecominbox.handler.HandlerDescriptor;
import io.wecominbox.handler.contact.ExternalContactStore.ContactChange;
import io.wecominbox.relationship.Relationship;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps external_contact (member ↔ customer) current from change_external_contact events. Every write is an
 * upsert conditional on the event's CreateTime ({@link ExternalContactStore}), so a repeat changes nothing
 * and order does not matter: declared naturally idempotent, no dedup record, PROCEED whatever store is down.
 * Adds are keyed by relationship generation, so a pulled record and its late callback meet.
 */
@HandlerDescriptor(name = "contact", eventTypes = "change_external_contact", keyedByRelationship = true,
    naturallyIdempotent = true)
@ApplicationScoped
public class ContactHandler implements EventHandler {

    private static final Logger LOG = Logger.getLogger(ContactHandler.class.getName());

    @Inject
    ExternalContactStore store;

    @Override
    public void handle(HandledEvent event) {
        WeComEvent e = event.event();
        if (e.userId() == null || e.externalUserId() == null || e.createTime() == 0 || e.changeType() == null) {
            LOG.info("change_external_contact without UserID, ExternalUserID, CreateTime or ChangeType: not kept "
                + event);
            return;
        }
        var pulled = PulledContact.of(e);
        if (pulled.isPresent() && pulled.get().gone()) {
            boolean gone = store.goneByReconcile(pulled.get(), event.app());
            LOG.fine(() -> (gone ? "external_contact marked GONE by reconcile run " : "external_contact changed since run ")
                + pulled.get().runId() + ": " + event);
            return;
        }
        if (pulled.isPresent()) {
            boolean found = store.addedByReconcile(pulled.get(), event.app());
            LOG.fine(() -> (found ? "external_contact found by reconcile run " : "external_contact already current, run ")
                + pulled.get().runId() + ": " + event);
            return;
        }
        ContactChange change = new ContactChange(new Relationship(event.app(), e.userId(), e.externalUserId()),
            Instant.ofEpochSecond(e.createTime()), event.callbackLogId(), tags(e));
        boolean changed = switch (e.changeType()) {
            case "add_external_contact" -> store.added(change, "ADDED", e.state());
            case "add_half_external_contact" -> store.added(change, "HALF_ADDED", e.state());
            case "edit_external_contact" -> store.edited(change);
            case "del_external_contact" -> store.deleted(change, "DELETED_BY_MEMBER", blankToNull(e.field("Source")));
            case "del_follow_user" -> store.deleted(change, "DELETED_BY_CUSTOMER", null);
            case "transfer_fail" -> store.transferFailed(change, blankToNull(e.field("FailReason")));
            default -> {
                LOG.info("unknown change_external_contact ChangeType " + e.changeType() + ": not kept " + event);
                yield false;
            }
        };
        if (!changed && LOG.isLoggable(Level.FINE)) {
            LOG.fine("external_contact unchanged (older or repeated event): " + event);
        }
    }

    // WeCom's change_external_contact events carry no tags today; keep them if a future one does
    private static String tags(WeComEvent e) {
        String tags = e.field("TagId") != null ? e.field("TagId") : e.field("Tags");
        return blankToNull(tags);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
