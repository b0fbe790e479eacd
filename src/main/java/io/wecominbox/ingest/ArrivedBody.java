package io.wecominbox.ingest;

/**
 * A callback's body once it has arrived, or why it could not be had (too large, too slow, broken off, or the
 * request refused before it was read), and when the request arrived, so that the ACK time counts the body's
 * arrival.
 */
record ArrivedBody(byte[] bytes, CallbackRejected refused, long arrivedNanos) {

    static ArrivedBody complete(byte[] bytes, long arrivedNanos) {
        return new ArrivedBody(bytes, null, arrivedNanos);
    }

    static ArrivedBody refused(CallbackRejected refused, long arrivedNanos) {
        return new ArrivedBody(null, refused, arrivedNanos);
    }

    /** The body, or the rejection that stands for it. */
    byte[] bytesOrThrow() throws CallbackRejected {
        if (refused != null) {
            throw refused;
        }
        return bytes;
    }
}
