package io.wecominbox.ingest;

/**
 * Why a callback was refused, with the HTTP status it gets. Client mistakes are 4xx only (a 5xx would
 * tell WeCom to retry something that can never succeed); the one 5xx is our own misconfiguration.
 * The code is stable: it is the JSON {@code error} and the {@code reason} column of callback_rejection.
 */
public enum Rejection {
    UNKNOWN_APP(404, "unknown_app", "no such WeCom app"),
    APP_MISCONFIGURED(503, "app_misconfigured", "this WeCom app is not configured correctly"),
    MISSING_SIGNATURE(401, "missing_signature", "msg_signature is missing"),
    BAD_SIGNATURE(401, "bad_signature", "msg_signature does not match"),
    STALE_TIMESTAMP(401, "stale_timestamp", "timestamp outside the accepted window"),
    BAD_QUERY(400, "bad_query", "timestamp, nonce or the query string is malformed"),
    BODY_TOO_LARGE(413, "body_too_large", "request body too large"),
    MALFORMED_XML(400, "malformed_xml", "body is not well-formed XML"),
    FORBIDDEN_XML(400, "forbidden_xml", "DOCTYPE and entities are not allowed"),
    MISSING_ENCRYPT(400, "missing_encrypt", "body has no Encrypt element"),
    BAD_BASE64(400, "bad_base64", "Encrypt is not valid Base64"),
    BAD_PADDING(400, "bad_padding", "Encrypt has invalid padding"),
    BAD_CIPHERTEXT(400, "bad_ciphertext", "Encrypt does not decrypt to a WeCom message"),
    WRONG_RECEIVER(400, "wrong_receiver", "message is for another corp or app"),
    MALFORMED_EVENT(400, "malformed_event", "decrypted message is not well-formed XML");

    private final int status;
    private final String code;
    private final String reason;

    Rejection(int status, String code, String reason) {
        this.status = status;
        this.code = code;
        this.reason = reason;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** The short reason the client sees: fixed text, so nothing of the request or our config leaks. */
    public String reason() {
        return reason;
    }
}
