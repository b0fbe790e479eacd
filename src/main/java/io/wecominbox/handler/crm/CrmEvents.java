package io.wecominbox.handler.crm;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.event.PulledContact;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.HandledEvent;
import jakarta.json.JsonObjectBuilder;
import java.time.Instant;

/**
 * The normalized JSON the CRM receives (schema {@value #SCHEMA}): WeCom's names mapped to stable camelCase
 * fields, absent fields left out, the time in ISO-8601 UTC. The dedup key travels along so the CRM can
 * recognise a deliberate re-run (its key ends in the batch id).
 */
final class CrmEvents {

    static final String SCHEMA = "wecom-inbox.crm.v1";

    private CrmEvents() {
    }

    static String toJson(HandledEvent handled) {
        WeComEvent e = handled.event();
        JsonObjectBuilder json = JSON.createObjectBuilder()
            .add("schema", SCHEMA)
            .add("app", handled.app())
            .add("eventType", handled.eventType())
            .add("eventKey", handled.eventKey())
            .add("dedupKey", handled.dedupKey());
        put(json, "changeType", e.changeType());
        var pulled = PulledContact.of(e);
        if (pulled.isPresent()) {
            // no callback time: when a pull saw it, and when the member first added the customer
            // a gone one had ended by the start of the pass that no longer listed it
            json.add("origin", "reconcile").add("reconcileRunId", pulled.get().runId())
                .add(pulled.get().gone() ? "endedBy" : "observedAt", pulled.get().observedAt().toString());
            if (pulled.get().followCreatedAt() != null) {
                json.add("firstAddedAt", pulled.get().followCreatedAt().toString());
            }
        } else if (e.createTime() > 0) {
            json.add("occurredAt", Instant.ofEpochSecond(e.createTime()).toString());
        }
        put(json, "corpId", e.toUserName());
        put(json, "userId", e.userId() != null ? e.userId() : member(e));
        put(json, "externalUserId", e.externalUserId());
        put(json, "state", e.state());
        put(json, "chatId", e.field("ChatId"));
        put(json, "tagId", e.field("Id"));
        put(json, "msgId", e.msgId());
        put(json, "source", e.field("Source"));
        if (handled.batchId() != null) {
            json.add("batchId", handled.batchId());
        }
        return json.build().toString();
    }

    // an ordinary message names its sender in FromUserName; events have "sys" there
    private static String member(WeComEvent e) {
        return e.msgId() != null ? e.fromUserName() : null;
    }

    private static void put(JsonObjectBuilder json, String name, String value) {
        if (value != null) {
            json.add(name, value);
        }
    }
}
