package io.wecominbox.ingest;

import java.util.Arrays;

/**
 * A request body collected chunk by chunk as it arrives, up to a hard cap. Anyone can POST before the signature
 * is checked, so a body over the cap is refused as soon as it is known to be too big: by its Content-Length if
 * it declares one, else when a byte past the cap arrives. The rest is never held.
 *
 * <p>Memory follows the bytes that arrived, never the declared length: a client that declares 64 KiB and sends
 * one byte every few seconds (a slow-body attack, 1,500 connections at once) holds a {@value #FIRST_CHUNK_BYTES}
 * byte buffer each, not 64 KiB; the buffer doubles only when full, so at most twice what was received.
 * Not thread-safe: one request's reads arrive one at a time ({@link CallbackBodyFilter}).
 */
final class CappedBody {

    /** Larger than a typical callback (1-3 KB), so one chunk usually suffices; small enough to hold by the thousand. */
    static final int FIRST_CHUNK_BYTES = 4096;

    private final int maxBytes;
    private byte[] buffer;
    private int size;

    /**
     * @param declaredLength the Content-Length header, or -1 when absent (chunked); used only to refuse early
     * @throws CallbackRejected the declared length is over the cap
     */
    CappedBody(long declaredLength, int maxBytes) throws CallbackRejected {
        if (declaredLength > maxBytes) {
            throw tooLarge("Content-Length " + declaredLength, maxBytes);
        }
        this.maxBytes = maxBytes;
        this.buffer = new byte[Math.min(FIRST_CHUNK_BYTES, maxBytes + 1)];
    }

    /** Takes {@code length} bytes of {@code chunk}; throws as soon as the body is over the cap. */
    void append(byte[] chunk, int length) throws CallbackRejected {
        if ((long) size + length > maxBytes) {
            throw tooLarge("more than " + maxBytes + " bytes", maxBytes);
        }
        if (size + length > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.min(Math.max(2 * buffer.length, size + length), maxBytes));
        }
        System.arraycopy(chunk, 0, buffer, size, length);
        size += length;
    }

    int size() {
        return size;
    }

    /** The body as received so far (all of it once the stream has ended). */
    byte[] bytes() {
        return Arrays.copyOf(buffer, size);
    }

    /** The capacity held now: what a slow client makes us keep. */
    int held() {
        return buffer.length;
    }

    private static CallbackRejected tooLarge(String what, int maxBytes) {
        return new CallbackRejected(Rejection.BODY_TOO_LARGE, what + " (limit " + maxBytes + ")");
    }
}
