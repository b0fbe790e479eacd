package io.wecominbox.ingest;

import java.util.Objects;

/**
 * A callback refused for a {@link Rejection}. The detail is for the audit sample only (never sent back);
 * it describes the request, never a token, key or plaintext.
 */
public class CallbackRejected extends Exception {

    private static final long serialVersionUID = 1L;

    private final Rejection rejection;

    public CallbackRejected(Rejection rejection, String detail) {
        super(detail, null, false, false); // no stack trace: this is a normal outcome, thrown per bad request
        this.rejection = Objects.requireNonNull(rejection, "rejection");
    }

    public Rejection rejection() {
        return rejection;
    }
}
