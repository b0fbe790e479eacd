package io.wecominbox.ingest;

/** The JSON body of every error answer: a stable code and a short human reason. */
public record ErrorBody(String error, String reason) {
}
