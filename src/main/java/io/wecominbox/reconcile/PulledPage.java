package io.wecominbox.reconcile;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One batch/get_by_user answer: the relationships it lists and where the next page starts (null: this was
 * the chunk's last page). Entries without a userid or external_userid are skipped, never guessed.
 */
record PulledPage(List<Record> records, String nextCursor) {

    /** One follow_info: member, customer, first add time (createtime), State. */
    record Record(String userId, String externalUserId, Instant followCreatedAt, String state) {
    }

    static PulledPage parse(JsonObject reply) {
        List<Record> records = new ArrayList<>();
        JsonValue list = reply.get("external_contact_list");
        if (list instanceof JsonArray array) {
            for (JsonValue item : array) {
                if (item instanceof JsonObject entry && entry.get("external_contact") instanceof JsonObject customer
                    && entry.get("follow_info") instanceof JsonObject follow) {
                    String userId = text(follow, "userid");
                    String externalUserId = text(customer, "external_userid");
                    if (userId != null && externalUserId != null) {
                        Instant created = follow.get("createtime") instanceof JsonNumber n && n.longValue() > 0
                            ? Instant.ofEpochSecond(n.longValue()) : null;
                        records.add(new Record(userId, externalUserId, created, text(follow, "state")));
                    }
                }
            }
        }
        String next = text(reply, "next_cursor");
        return new PulledPage(List.copyOf(records), next);
    }

    /** get_follow_user_list's members. */
    static List<String> members(JsonObject reply) {
        List<String> members = new ArrayList<>();
        if (reply.get("follow_user") instanceof JsonArray array) {
            for (JsonValue v : array) {
                if (v instanceof JsonString s && !s.getString().isBlank()) {
                    members.add(s.getString());
                }
            }
        }
        return members.stream().distinct().sorted().toList();
    }

    private static String text(JsonObject o, String name) {
        return o.get(name) instanceof JsonString s && !s.getString().isEmpty() ? s.getString() : null;
    }
}
