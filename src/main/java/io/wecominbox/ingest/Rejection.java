package io.wecominbox.ingest;

/**
 * Why a callback was refused, with the HTTP status it gets. Client mistakes are 4xx only (a 5xx would
 * tell WeCom to retry something that can never succeed); the 5xx are our own misconfiguration and a load shed
 * that WeCom should retry.
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
    BODY_TOO_SLOW(408, "body_too_slow", "request body not received in time"),
    BODY_INCOMPLETE(400, "body_incomplete", "request body ended early"),
    BAD_ENCODING(400, "bad_encoding", "body or decrypted message is not valid UTF-8"),
    MALFORMED_XML(400, "malformed_xml", "body is not well-formed XML"),
    XML_TOO_DEEP(400, "xml_too_deep", "XML is nested deeper than allowed"),
    XML_TOO_MANY_ELEMENTS(400, "xml_too_many_elements", "XML has more elements than allowed"),
    XML_TOO_MANY_ATTRIBUTES(400, "xml_too_many_attributes", "an XML element has more attributes than allowed"),
    XML_TEXT_TOO_LONG(400, "xml_text_too_long", "an XML text node is longer than allowed"),
    FORBIDDEN_XML(400, "forbidden_xml", "DOCTYPE and entities are not allowed"),
    MISSING_ENCRYPT(400, "missing_encrypt", "body has no Encrypt element"),
    BAD_BASE64(400, "bad_base64", "Encrypt is not valid Base64"),
    BAD_PADDING(400, "bad_padding", "Encrypt has invalid padding"),
    BAD_CIPHERTEXT(400, "bad_ciphertext", "Encrypt does not decrypt to a WeCom message"),
    WRONG_RECEIVER(400, "wrong_receiver", "message is for another corp or app"),
    MALFORMED_EVENT(400, "malformed_event", "decrypted message is not well-formed XML"),
    /** One address over its share (CallbackAdmission): an abusive client, or a proxy that should be exempt. */
    SOURCE_OVER_LIMIT(429, "source_over_limit", "too many callback requests from this address; retry later"),
    /** A signed callback over its app's share of this node: load shed early so that WeCom retries later. */
    APP_OVER_LIMIT(503, "app_over_limit", "this app's callbacks are over this node's limit; retry later"),
    /** A signed callback refused before it queued: this node's writers are behind (GroupCommitWriter). */
    INGEST_BEHIND(503, "ingest_behind", "this node is behind on storing callbacks; retry later");

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
