package io.wecominbox.wecom;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What one WeCom API call came to, as a decision for the caller.
 *
 * <p>A RETRY with {@link #effectUnknown()} (timed out or connection lost after the request went out) may
 * have been performed by WeCom: nobody can tell whether the timeout struck before or after. Treat it as
 * "maybe sent". For send_welcome_msg that is safe: the code is single-use, so a redelivered attempt
 * answers 41051 (ALREADY_DONE) if the first one went through. message/send has no such guard unless the
 * caller asks for {@code enable_duplicate_check}.
 *
 * @param kind          what to do next
 * @param errcode       WeCom's errcode, empty when no WeCom answer was read
 * @param errmsg        WeCom's errmsg, or our own description of what went wrong (never a token or secret)
 * @param httpStatus    the HTTP status, 0 when none was received
 * @param latency       time spent in this API method, token fetch included
 * @param effectUnknown true when WeCom may have performed the call although we did not learn so
 * @param reply         WeCom's answer (e.g. msgid, invaliduser for message/send); empty object when none
 */
public record WeComCallOutcome(Kind kind, OptionalInt errcode, String errmsg, int httpStatus, Duration latency,
                               boolean effectUnknown, JsonObject reply) {

    /** The caller's next step. */
    public enum Kind {
        /** errcode 0: performed. */
        DONE,
        /** Performed earlier (41051: a welcome already reached the customer): never retry. */
        ALREADY_DONE,
        /** Transient (busy, rate limit, 5xx, timeout, connection): try again later, within the business window. */
        RETRY,
        /** Will not work by retrying (invalid or missing code, bad request, no credentials). */
        GIVE_UP
    }

    public WeComCallOutcome {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(errcode, "errcode");
        Objects.requireNonNull(errmsg, "errmsg");
        Objects.requireNonNull(latency, "latency");
        reply = reply == null ? JsonValue.EMPTY_JSON_OBJECT : reply;
    }

    /** An outcome for something that went wrong on our side of the wire (no WeCom errcode). */
    static WeComCallOutcome local(Kind kind, String description, int httpStatus, boolean effectUnknown) {
        return new WeComCallOutcome(kind, OptionalInt.empty(), description, httpStatus, Duration.ZERO,
                effectUnknown, JsonValue.EMPTY_JSON_OBJECT);
    }

    WeComCallOutcome withLatency(Duration total) {
        return new WeComCallOutcome(kind, errcode, errmsg, httpStatus, total, effectUnknown, reply);
    }

    /** True for DONE and ALREADY_DONE: the effect has happened, nothing is left to do. */
    public boolean done() {
        return kind == Kind.DONE || kind == Kind.ALREADY_DONE;
    }

    @Override
    public String toString() {
        return kind + "[errcode=" + (errcode.isPresent() ? String.valueOf(errcode.getAsInt()) : "-")
                + ", errmsg=" + errmsg + ", http=" + httpStatus + ", latency=" + latency.toMillis() + "ms"
                + (effectUnknown ? ", effect unknown (maybe performed)" : "") + "]";
    }
}
