package io.wecominbox.simulator.api;

import java.util.Locale;

/** A fault the API side can inject into one call. Names in JSON and scenario files are lower case. */
public enum ApiFault {
    /** Perform the effect, then answer only after the slow delay (past the caller's timeout). */
    SLOW(true),
    /** errcode -1 "system busy"; no effect. */
    SYSTEM_BUSY(false),
    /** errcode 41096: another app is sending a welcome message; no effect. */
    OTHER_APP_SENDING(false),
    HTTP_500(false),
    HTTP_502(false),
    /** Close the connection without an answer, before the effect. */
    DROP_BEFORE_EFFECT(false),
    /** Perform the effect, then close the connection without an answer: the caller cannot know it worked. */
    DROP_AFTER_EFFECT(true),
    /** errcode 45009: the app called this API too often; no effect. */
    FREQUENCY_LIMIT(false),
    /** Expire the caller's access token just before the call, so it gets 42001. */
    INVALIDATE_TOKEN(false);

    private final boolean effectPerformed;

    ApiFault(boolean effectPerformed) {
        this.effectPerformed = effectPerformed;
    }

    public boolean effectPerformed() {
        return effectPerformed;
    }

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ApiFault fromName(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown API fault '" + name + "'");
        }
    }
}
