package io.wecominbox.simulator.api;

import java.util.Map;

/** The WeCom error codes the simulator answers with, and their messages. */
public final class WeComErrors {

    public static final int OK = 0;
    public static final int SYSTEM_BUSY = -1;
    public static final int INVALID_CREDENTIAL = 40001;
    public static final int INVALID_CORP_ID = 40013;
    public static final int INVALID_ACCESS_TOKEN = 40014;
    public static final int INVALID_PARAMETER = 40058;
    public static final int ACCESS_TOKEN_MISSING = 41001;
    public static final int WELCOME_CODE_MISSING = 41049;
    public static final int WELCOME_CODE_INVALID = 41050;
    public static final int EXTERNAL_USER_STARTED_CHATTING = 41051;
    public static final int OTHER_APP_SENDING = 41096;
    public static final int ACCESS_TOKEN_EXPIRED = 42001;
    public static final int API_FREQUENCY_LIMIT = 45009;

    private static final Map<Integer, String> MESSAGES = Map.ofEntries(
            Map.entry(OK, "ok"),
            Map.entry(SYSTEM_BUSY, "system busy"),
            Map.entry(INVALID_CREDENTIAL, "invalid credential"),
            Map.entry(INVALID_CORP_ID, "invalid corpid"),
            Map.entry(INVALID_ACCESS_TOKEN, "invalid access_token"),
            Map.entry(INVALID_PARAMETER, "invalid parameter"),
            Map.entry(ACCESS_TOKEN_MISSING, "access_token missing"),
            Map.entry(WELCOME_CODE_MISSING, "missing welcome_code"),
            Map.entry(WELCOME_CODE_INVALID, "invalid welcome_code"),
            Map.entry(EXTERNAL_USER_STARTED_CHATTING, "externaluser has started chatting"),
            Map.entry(OTHER_APP_SENDING, "other app is sending welcome msg"),
            Map.entry(ACCESS_TOKEN_EXPIRED, "access_token expired"),
            Map.entry(API_FREQUENCY_LIMIT, "api freq out of limit"));

    private WeComErrors() {
    }

    /** Like WeCom, non-zero codes carry a hint; clients must branch on errcode, never on errmsg. */
    public static String message(int errcode) {
        String base = MESSAGES.getOrDefault(errcode, "error");
        return errcode == OK ? base : base + ", hint: [sim-" + Long.toHexString(System.nanoTime()) + "]";
    }
}
