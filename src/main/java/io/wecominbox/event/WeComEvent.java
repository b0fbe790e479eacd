package io.wecominbox.event;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * One decrypted WeCom callback: the top-level fields of its plaintext XML, in document order.
 * Immutable. Every callback parses, whatever its type: unknown ones become {@link EventKind#UNKNOWN},
 * never an error, so that no delivery is dropped.
 */
public final class WeComEvent {

    private static final String UNKNOWN_TYPE = "unknown";

    private final Map<String, String> fields;
    private final EventKind kind;

    private WeComEvent(Map<String, String> fields) {
        this.fields = Collections.unmodifiableMap(fields);
        this.kind = EventKind.classify(msgType(), event(), msgId());
    }

    /** Parses the decrypted plaintext ({@code <xml>...</xml>}) with the hardened parser. */
    public static WeComEvent parse(String plaintextXml) throws MalformedXmlException {
        return from(SecureXml.parse(plaintextXml));
    }

    /** Builds the event from an already parsed root element (its direct children are the fields). */
    public static WeComEvent from(Element root) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                // First occurrence wins, as in SecureXml.childText, so field() and childText agree.
                fields.putIfAbsent(n.getNodeName(), SecureXml.textOf((Element) n));
            }
        }
        return new WeComEvent(fields);
    }

    public String toUserName() {
        return optional("ToUserName");
    }

    public String fromUserName() {
        return optional("FromUserName");
    }

    /**
     * Seconds since the epoch. 0 when absent or not a non-negative number: a bad timestamp must not make an
     * event unreadable. Key recipes use the raw text instead, so two bad values never collapse into one.
     */
    public long createTime() {
        String raw = optional("CreateTime");
        if (raw == null) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(raw));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    public String msgType() {
        return optional("MsgType");
    }

    /** The Event field; ordinary messages carry none, so null for them. */
    public String event() {
        return optional("Event");
    }

    public String changeType() {
        return optional("ChangeType");
    }

    public String agentId() {
        return optional("AgentID");
    }

    public String msgId() {
        return optional("MsgId");
    }

    public String welcomeCode() {
        return optional("WelcomeCode");
    }

    public String userId() {
        return optional("UserID");
    }

    public String externalUserId() {
        return optional("ExternalUserID");
    }

    public String state() {
        return optional("State");
    }

    /** The raw text of a top-level field ("" when empty), or null when absent. */
    public String field(String name) {
        return fields.get(name);
    }

    /** All top-level fields in document order; list elements hold their items joined with ','. */
    public Map<String, String> fields() {
        return fields;
    }

    public EventKind kind() {
        return kind;
    }

    /** What handlers route on: the Event for MsgType=event, else the MsgType; "unknown" when missing. */
    public String typeName() {
        String name = EventKind.EVENT_MSG_TYPE.equals(msgType()) ? event() : msgType();
        return name != null ? name : UNKNOWN_TYPE;
    }

    // Typed accessors treat an empty field as absent: an empty WelcomeCode is no code to send with.
    private String optional(String name) {
        String value = fields.get(name);
        return value == null || value.isEmpty() ? null : value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WeComEvent other && fields.equals(other.fields);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fields);
    }

    /** Type and time only: message content and member ids do not belong in logs by accident. */
    @Override
    public String toString() {
        return "WeComEvent[" + kind + " " + typeName() + " createTime=" + createTime() + "]";
    }
}
