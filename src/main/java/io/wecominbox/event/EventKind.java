package io.wecominbox.event;

/** The families of callbacks we route and key differently. Anything we do not recognise is kept as UNKNOWN. */
public enum EventKind {
    MESSAGE,
    EXTERNAL_CONTACT,
    EXTERNAL_CHAT,
    EXTERNAL_TAG,
    CONTACT,
    MSGAUDIT_NOTIFY,
    UNKNOWN;

    static final String EVENT_MSG_TYPE = "event";

    /**
     * Ordinary messages are recognised by their MsgId rather than a list of MsgTypes, so a message type
     * WeCom adds later still counts as a message (and keeps its platform id).
     */
    static EventKind classify(String msgType, String event, String msgId) {
        if (!EVENT_MSG_TYPE.equals(msgType)) {
            return msgType != null && msgId != null ? MESSAGE : UNKNOWN;
        }
        if (event == null) {
            return UNKNOWN;
        }
        return switch (event) {
            case "change_external_contact" -> EXTERNAL_CONTACT;
            case "change_external_chat" -> EXTERNAL_CHAT;
            case "change_external_tag" -> EXTERNAL_TAG;
            case "change_contact" -> CONTACT;
            case "msgaudit_notify" -> MSGAUDIT_NOTIFY;
            default -> UNKNOWN;
        };
    }
}
