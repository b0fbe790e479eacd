package io.wecominbox.ingest;

import io.wecominbox.crypto.CallbackCryptoException;
import io.wecominbox.event.MalformedXmlException;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.wecom.WeComApp;

/**
 * Everything between "bytes arrived" and "this is an authentic event": query parameters, outer XML,
 * signature (constant time, inside WeComCrypto), decryption with the app's CorpID as receiveid, optional
 * timestamp window, inner XML. Pure: no container, no I/O, so every refusal is unit-tested.
 */
public final class CallbackVerifier {

    private final TimestampWindow window;

    public CallbackVerifier(TimestampWindow window) {
        this.window = window;
    }

    /** GET URL verification: returns the decrypted echostr, the exact body to answer with. */
    public String verifyUrl(WeComApp app, CallbackQuery query) throws CallbackRejected {
        query.requireSignatureParameters();
        if (query.echostr() == null || query.echostr().isEmpty()) {
            throw new CallbackRejected(Rejection.BAD_QUERY, "echostr is missing");
        }
        String echo = decrypt(app, query, query.echostr());
        window.check(query.timestamp());
        return echo;
    }

    /** POST event as it arrived: bytes that are not UTF-8 are refused before anything reads them. */
    public OpenedCallback open(WeComApp app, CallbackQuery query, byte[] body) throws CallbackRejected {
        query.requireSignatureParameters();
        return open(app, query, StrictUtf8.decode(body));
    }

    /** POST event: the envelope is parsed first (the signature covers its Encrypt value). */
    public OpenedCallback open(WeComApp app, CallbackQuery query, String body) throws CallbackRejected {
        query.requireSignatureParameters();
        CallbackEnvelope envelope = CallbackEnvelope.parse(body);
        String plaintext = decrypt(app, query, envelope.encrypt());
        // After the signature: only authentic but old requests (replays) count as stale.
        window.check(query.timestamp());
        try {
            return new OpenedCallback(app, query, body, envelope, plaintext, WeComEvent.parse(plaintext));
        } catch (MalformedXmlException e) {
            throw XmlRejections.of(e, Rejection.MALFORMED_EVENT);
        }
    }

    private static String decrypt(WeComApp app, CallbackQuery query, String payload) throws CallbackRejected {
        try {
            return app.crypto().verifyAndDecrypt(query.msgSignature(), query.timestamp(), query.nonce(), payload);
        } catch (CallbackCryptoException e) {
            throw new CallbackRejected(rejectionFor(e.reason()), e.getMessage());
        }
    }

    static Rejection rejectionFor(CallbackCryptoException.Reason reason) {
        return switch (reason) {
            case BAD_SIGNATURE -> Rejection.BAD_SIGNATURE;
            case BAD_BASE64 -> Rejection.BAD_BASE64;
            case BAD_PADDING -> Rejection.BAD_PADDING;
            case BAD_CIPHERTEXT_LENGTH, BAD_LENGTH_FIELD -> Rejection.BAD_CIPHERTEXT;
            case WRONG_RECEIVER -> Rejection.WRONG_RECEIVER;
            case BAD_MESSAGE_ENCODING -> Rejection.BAD_ENCODING;
        };
    }
}
