package io.wecominbox.simulator.platform;

import java.util.Locale;

/**
 * Every callback the simulator can generate. Scenario files name them in lower case
 * ({@code mix.add_external_contact=50}).
 */
public enum EventType {
    /** Ordinary text message from a member to the app; the only kind with a platform id (64-bit MsgId). */
    TEXT_MESSAGE,
    /** A customer added a member; carries a fresh WelcomeCode registered with the API side. */
    ADD_EXTERNAL_CONTACT,
    /** Same event without WelcomeCode (welcome configured in the admin console, already chatted, ...). */
    ADD_EXTERNAL_CONTACT_WITHOUT_WELCOME_CODE,
    ADD_HALF_EXTERNAL_CONTACT,
    EDIT_EXTERNAL_CONTACT,
    DEL_EXTERNAL_CONTACT,
    DEL_FOLLOW_USER,
    TRANSFER_FAIL,
    EXTERNAL_CHAT_CREATE,
    EXTERNAL_CHAT_UPDATE,
    EXTERNAL_CHAT_DISMISS,
    EXTERNAL_TAG_CHANGE,
    /** In a scenario this always comes with UPDATE_USER in the same second, as WeCom fires both. */
    CREATE_USER,
    UPDATE_USER,
    CREATE_PARTY,
    UPDATE_TAG,
    MSGAUDIT_NOTIFY,
    /** An event type the app has never heard of: it must still be acknowledged and kept. */
    UNKNOWN_EVENT;

    public String scenarioName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EventType fromScenarioName(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown event type '" + name + "'");
        }
    }
}
