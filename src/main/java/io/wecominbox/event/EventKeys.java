package io.wecominbox.event;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The event key: what makes one callback the same event as another, whatever the delivery. It carries no
 * app or handler prefix (the ingest adds the app, the dedup framework the handler).
 *
 * <p>Only ordinary messages have a platform id. For events the official "FromUserName + CreateTime" is wrong
 * (FromUserName is always {@code sys}, CreateTime has 1 s resolution), so each recipe names the business
 * fields that make the event itself distinct. Never a hash of the ciphertext, nonce or signature (they may
 * differ between retries) nor of the payload.
 */
public final class EventKeys {

    private static final Set<String> USER_CHANGES = Set.of("create_user", "update_user", "delete_user");
    private static final Set<String> PARTY_CHANGES = Set.of("create_party", "update_party", "delete_party");
    private static final Set<String> CHAT_CHANGES = Set.of("create", "update", "dismiss");
    private static final Set<String> TAG_CHANGES = Set.of("create", "update", "delete", "shuffle");
    /** Already positional in the catch-all key, or the same for every event of the app (the CorpID). */
    private static final Set<String> CATCH_ALL_HEADER =
        Set.of("MsgType", "Event", "ChangeType", "FromUserName", "CreateTime", "ToUserName");

    private EventKeys() {
    }

    public static String keyOf(WeComEvent e) {
        return switch (e.kind()) {
            case MESSAGE -> message(e);
            case EXTERNAL_CONTACT -> externalContact(e);
            case EXTERNAL_CHAT -> externalChat(e);
            case EXTERNAL_TAG -> externalTag(e);
            case CONTACT -> contact(e);
            case MSGAUDIT_NOTIFY -> msgauditNotify(e);
            case UNKNOWN -> catchAll(e);
        };
    }

    /** MsgId is WeCom's own 64-bit id for the message: the one platform id there is. */
    private static String message(WeComEvent e) {
        return new EventKeyBuilder("msg").with(e.msgId()).build();
    }

    /**
     * A WelcomeCode is issued per add, so it alone tells two adds apart (two customers adding the same member
     * in the same second have different codes). Without one, member + customer + second does; deletions add
     * Source and failed transfers FailReason, since either can differ for the same pair in the same second.
     */
    private static String externalContact(WeComEvent e) {
        String changeType = e.changeType();
        if (changeType == null) {
            return catchAll(e);
        }
        if (e.field(PulledContact.RUN_FIELD) != null) {
            // a pulled record (never a callback): its own key per run; the handlers re-key it by generation
            return new EventKeyBuilder("external_contact").with("reconciled").with(e.field(PulledContact.RUN_FIELD))
                .with(changeType).with(e.userId()).with(e.externalUserId()).build();
        }
        return switch (changeType) {
            case "add_external_contact", "add_half_external_contact" -> e.welcomeCode() != null
                ? new EventKeyBuilder("external_contact").with(changeType).with("welcome").with(e.welcomeCode())
                    .build()
                : memberAndCustomer(e).build();
            case "edit_external_contact", "del_follow_user" -> memberAndCustomer(e).build();
            case "del_external_contact" -> memberAndCustomer(e).with(e.field("Source")).build();
            case "transfer_fail" -> memberAndCustomer(e).with(e.field("FailReason")).build();
            default -> catchAll(e);
        };
    }

    /**
     * The business key of one beginning of a relationship, shared by its add callback and a pulled record of
     * it, so contact and crm run once whichever came first. Member and customer say which relationship; the
     * generation (our count of its beginnings, see relationship.GenerationRule) tells a delete-and-re-add
     * from a repeat. Not in it: CreateTime and WelcomeCode (a pulled record has neither) and
     * follow_user.createtime (the FIRST add: the same for every generation, and no callback carries it).
     */
    public static String relationshipGeneration(String userId, String externalUserId, int generation) {
        return new EventKeyBuilder("external_contact").with("relationship").with(userId).with(externalUserId)
            .with(Integer.toString(generation)).build();
    }

    /**
     * The end of one generation found by a complete reconcile pass (its delete callback was lost): once per
     * generation. Delete callbacks keep their own keys (two deletes of one generation are two facts).
     */
    public static String relationshipGone(String userId, String externalUserId, int generation) {
        return new EventKeyBuilder("external_contact").with("relationship").with(userId).with(externalUserId)
            .with(Integer.toString(generation)).with("gone").build();
    }

    private static EventKeyBuilder memberAndCustomer(WeComEvent e) {
        return new EventKeyBuilder("external_contact").with(e.changeType()).with(e.userId())
            .with(e.externalUserId()).with(e.field("CreateTime"));
    }

    /**
     * CurMemVer changes with every membership change, so it separates joins/quits within a second;
     * CreateTime is kept because a rename or dismiss carries no member version.
     */
    private static String externalChat(WeComEvent e) {
        if (!isOneOf(CHAT_CHANGES, e.changeType())) {
            return catchAll(e);
        }
        return new EventKeyBuilder("external_chat").with(e.field("ChatId")).with(e.changeType())
            .with(e.field("UpdateDetail")).with(e.field("CurMemVer")).with(e.field("CreateTime")).build();
    }

    /** A tag or tag group (TagType) by its Id, per rule strategy; CreateTime separates repeated edits. */
    private static String externalTag(WeComEvent e) {
        if (!isOneOf(TAG_CHANGES, e.changeType())) {
            return catchAll(e);
        }
        return new EventKeyBuilder("external_tag").with(e.changeType()).with(e.field("TagType"))
            .with(e.field("Id")).with(e.field("StrategyId")).with(e.field("CreateTime")).build();
    }

    /**
     * ChangeType is part of every contact key because creating a member fires create_user AND update_user in
     * the same second. Two real updates of one member within a second merge; a handler re-reading the member
     * sees the latest state either way. update_tag is told apart by what it added and removed.
     */
    private static String contact(WeComEvent e) {
        String changeType = e.changeType();
        if (isOneOf(USER_CHANGES, changeType)) {
            return new EventKeyBuilder("contact").with(changeType).with(e.userId()).with(e.field("CreateTime"))
                .build();
        }
        if (isOneOf(PARTY_CHANGES, changeType)) {
            return new EventKeyBuilder("contact").with(changeType).with(e.field("Id")).with(e.field("CreateTime"))
                .build();
        }
        if ("update_tag".equals(changeType)) {
            return new EventKeyBuilder("contact").with(changeType).with(e.field("TagId"))
                .with(e.field("AddUserItems")).with(e.field("DelUserItems"))
                .with(e.field("AddPartyItems")).with(e.field("DelPartyItems"))
                .with(e.field("CreateTime")).build();
        }
        return catchAll(e);
    }

    /**
     * msgaudit_notify carries no identity: it only says "go and pull". WeCom sends it at most every 15 s per
     * app, so the second is enough, and merging two would cost nothing (the pull fetches everything new).
     */
    private static String msgauditNotify(WeComEvent e) {
        return new EventKeyBuilder("msgaudit_notify").with(e.field("CreateTime")).build();
    }

    /**
     * Anything without a recipe (unknown events, unfamiliar change types, messages without MsgId): every
     * business field, so two different events never merge. Fields go in name order as {@code name=value} (an
     * XML name has no '='), so XML layout and field order do not change the key.
     */
    private static String catchAll(WeComEvent e) {
        EventKeyBuilder key = new EventKeyBuilder("unknown").with(e.msgType()).with(e.event())
            .with(e.changeType()).with(e.fromUserName()).with(e.field("CreateTime"));
        for (Map.Entry<String, String> f : new TreeMap<>(e.fields()).entrySet()) {
            if (!CATCH_ALL_HEADER.contains(f.getKey())) {
                key.with(f.getKey() + "=" + f.getValue());
            }
        }
        return key.build();
    }

    // Set.of(...).contains(null) throws, and ChangeType may be missing.
    private static boolean isOneOf(Set<String> known, String changeType) {
        return changeType != null && known.contains(changeType);
    }
}
