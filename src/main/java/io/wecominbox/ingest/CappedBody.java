package io.wecominbox.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Reads a request body up to a hard cap and within a deadline. Anyone can POST before the signature is checked,
 * so a body over the cap is refused as soon as it is known to be too big: by its Content-Length if it declares
 * one, else after cap + 1 bytes. The rest is never read into memory.
 *
 * <p>Memory follows the bytes that arrived, never the declared length: a client that declares 64 KiB and sends
 * one byte every few seconds (a slow-body attack, 1,500 connections at once) holds a {@value #FIRST_CHUNK_BYTES}
 * byte buffer each, not 64 KiB; the buffer doubles only when full, so at most twice what was received. And it
 * holds a request thread only until the deadline: WeCom sends its few KB at once and stops waiting after 5 s,
 * so a body still arriving after that is not WeCom's, and answering it would help no one.
 */
public final class CappedBody {

    /** Larger than a typical callback (1-3 KB), so one read usually suffices; small enough to hold by the thousand. */
    static final int FIRST_CHUNK_BYTES = 4096;

    private CappedBody() {
    }

    /**
     * @param declaredLength the Content-Length header, or -1 when absent (chunked); used only to refuse early
     * @param timeout        the whole body must have arrived this long after the call
     * @throws CallbackRejected too large, too slow, or broken off (also by the server's read timeout)
     */
    public static byte[] read(InputStream in, long declaredLength, int maxBytes, Duration timeout)
            throws CallbackRejected {
        return read(in, declaredLength, maxBytes, timeout, System::nanoTime);
    }

    static byte[] read(InputStream in, long declaredLength, int maxBytes, Duration timeout, LongSupplier nanoTime)
            throws CallbackRejected {
        if (declaredLength > maxBytes) {
            throw tooLarge("Content-Length " + declaredLength, maxBytes);
        }
        long deadline = nanoTime.getAsLong() + timeout.toNanos();
        long readLimit = maxBytes + 1L; // one byte past the cap proves the body too large
        byte[] buffer = new byte[(int) Math.min(FIRST_CHUNK_BYTES, readLimit)];
        int total = 0;
        while (true) {
            if (total == buffer.length) {
                buffer = Arrays.copyOf(buffer, (int) Math.min(2L * buffer.length, readLimit));
            }
            int n = readSome(in, buffer, total);
            if (n < 0) {
                return Arrays.copyOf(buffer, total);
            }
            total += n;
            if (total > maxBytes) {
                throw tooLarge("more than " + maxBytes + " bytes", maxBytes);
            }
            if (total == declaredLength) {
                // complete: a thread held up after the bytes arrived (GC, a busy node) is not a slow client
                return Arrays.copyOf(buffer, total);
            }
            // checked between reads: each read itself is bounded by the HTTP endpoint's readTimeout (server.xml)
            if (nanoTime.getAsLong() - deadline > 0) {
                throw new CallbackRejected(Rejection.BODY_TOO_SLOW,
                        total + " bytes after " + timeout.toMillis() + " ms, body not complete");
            }
        }
    }

    // A client that breaks off, or that the server's read timeout cut, is a client problem: 4xx, not our 503.
    private static int readSome(InputStream in, byte[] buffer, int offset) throws CallbackRejected {
        try {
            return in.read(buffer, offset, buffer.length - offset);
        } catch (IOException e) {
            throw new CallbackRejected(Rejection.BODY_INCOMPLETE, "body broken off after " + offset + " bytes ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    private static CallbackRejected tooLarge(String what, int maxBytes) {
        return new CallbackRejected(Rejection.BODY_TOO_LARGE, what + " (limit " + maxBytes + ")");
    }
}
