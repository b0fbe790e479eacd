package io.wecominbox.wecom;

import io.wecominbox.wecom.WeComCallOutcome.Kind;
import java.util.Set;

/** The WeCom errcodes the client branches on (never on errmsg, which carries a changing hint). */
public final class WeComErrorCodes {

    public static final int OK = 0;
    public static final int SYSTEM_BUSY = -1;
    public static final int INVALID_CREDENTIAL = 40001;
    public static final int INVALID_ACCESS_TOKEN = 40014;
    public static final int ACCESS_TOKEN_EXPIRED = 42001;
    public static final int WELCOME_CODE_MISSING = 41049;
    public static final int WELCOME_CODE_INVALID = 41050;
    /** "externaluser has started chatting": a welcome already reached the customer. */
    public static final int EXTERNAL_USER_STARTED_CHATTING = 41051;
    public static final int OTHER_APP_SENDING = 41096;
    public static final int API_FREQUENCY_LIMIT = 45009;
    public static final int API_CONCURRENCY_LIMIT = 45033;

    /** The token was refused: drop it, fetch a new one and try once more. */
    private static final Set<Integer> TOKEN_REFUSED = Set.of(INVALID_CREDENTIAL, INVALID_ACCESS_TOKEN, ACCESS_TOKEN_EXPIRED);
    private static final Set<Integer> TRANSIENT = Set.of(SYSTEM_BUSY, OTHER_APP_SENDING, API_FREQUENCY_LIMIT,
            API_CONCURRENCY_LIMIT);

    private WeComErrorCodes() {
    }

    /** What an API call's errcode means for the caller (token refusals still present after a fresh token: RETRY). */
    public static Kind classify(int errcode) {
        if (errcode == OK) {
            return Kind.DONE;
        }
        if (errcode == EXTERNAL_USER_STARTED_CHATTING) {
            return Kind.ALREADY_DONE;
        }
        if (TRANSIENT.contains(errcode) || TOKEN_REFUSED.contains(errcode)) {
            return Kind.RETRY;
        }
        return Kind.GIVE_UP;
    }

    public static boolean tokenRefused(int errcode) {
        return TOKEN_REFUSED.contains(errcode);
    }
}
