package io.wecominbox.event;

import java.time.Instant;
import java.util.Optional;

/**
 * A relationship (member, customer) that a reconcile pull found, or that a complete pass no longer listed
 * ({@code gone}: it travels as a del_follow_user, as the lost delete callback would have), as an event for the
 * contact and crm handlers.
 * It travels in the callbacks' shape (plaintext XML of a change_external_contact / add_external_contact) so
 * the handlers read it like any other, with two fields no callback has: {@code ReconcileRunId} (the run that
 * found it; its presence is what marks an event as pulled) and {@code FollowCreateTime} (follow_info.createtime,
 * the FIRST add). CreateTime is when the page was fetched: the relationship existed then. It never has a
 * WelcomeCode, so no welcome can ever be attempted for it.
 *
 * @param observedAt      when the page listing it was fetched (whole seconds); for a gone one, when the pass
 *                        that did not list it started (the relationship had ended by then)
 * @param followCreatedAt follow_info.createtime, or null when WeCom gave none
 */
public record PulledContact(String corpId, String userId, String externalUserId, String state, Instant observedAt,
                            Instant followCreatedAt, long runId, boolean gone) {

    public static final String RUN_FIELD = "ReconcileRunId";
    public static final String FOLLOW_CREATE_TIME_FIELD = "FollowCreateTime";
    public static final String CHANGE_TYPE = "add_external_contact";
    public static final String GONE_CHANGE_TYPE = "del_follow_user";

    /** The pulled record behind an event, if it is one. */
    public static Optional<PulledContact> of(WeComEvent e) {
        String run = e.field(RUN_FIELD);
        if (run == null || run.isBlank() || e.userId() == null || e.externalUserId() == null) {
            return Optional.empty();
        }
        String follow = e.field(FOLLOW_CREATE_TIME_FIELD);
        Instant followCreatedAt = follow == null || follow.isBlank() ? null : Instant.ofEpochSecond(Long.parseLong(follow));
        return Optional.of(new PulledContact(e.toUserName(), e.userId(), e.externalUserId(), e.state(),
            Instant.ofEpochSecond(e.createTime()), followCreatedAt, Long.parseLong(run),
            GONE_CHANGE_TYPE.equals(e.changeType())));
    }

    /** The event's plaintext XML (values in CDATA; a member id never contains "]]>", WeCom ids are [\w.@-]). */
    public String toXml() {
        StringBuilder xml = new StringBuilder("<xml>");
        text(xml, "ToUserName", corpId);
        text(xml, "FromUserName", "sys");
        number(xml, "CreateTime", observedAt.getEpochSecond());
        text(xml, "MsgType", "event");
        text(xml, "Event", "change_external_contact");
        text(xml, "ChangeType", gone ? GONE_CHANGE_TYPE : CHANGE_TYPE);
        text(xml, "UserID", userId);
        text(xml, "ExternalUserID", externalUserId);
        if (!gone) {
            text(xml, "State", state == null ? "" : state);
        }
        if (followCreatedAt != null) {
            number(xml, FOLLOW_CREATE_TIME_FIELD, followCreatedAt.getEpochSecond());
        }
        number(xml, RUN_FIELD, runId);
        return xml.append("</xml>").toString();
    }

    private static void text(StringBuilder xml, String name, String value) {
        if (value != null && value.contains("]]>")) {
            throw new IllegalArgumentException(name + " cannot be carried in CDATA");
        }
        xml.append('<').append(name).append("><![CDATA[").append(value == null ? "" : value).append("]]></")
            .append(name).append('>');
    }

    private static void number(StringBuilder xml, String name, long value) {
        xml.append('<').append(name).append('>').append(value).append("</").append(name).append('>');
    }
}
