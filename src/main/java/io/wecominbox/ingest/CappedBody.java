package io.wecominbox.ingest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body up to a hard cap. Anyone can POST before the signature is checked, so a body over
 * the cap is refused as soon as it is known to be too big: by its Content-Length if it declares one, else
 * after cap + 1 bytes. The rest is never read into memory.
 */
public final class CappedBody {

    private CappedBody() {
    }

    /**
     * @param declaredLength the Content-Length header, or -1 when absent (chunked)
     * @throws IOException if the client breaks off mid-body
     */
    public static byte[] read(InputStream in, long declaredLength, int maxBytes) throws CallbackRejected, IOException {
        if (declaredLength > maxBytes) {
            throw tooLarge("Content-Length " + declaredLength, maxBytes);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(
                (int) Math.min(maxBytes, declaredLength > 0 ? declaredLength : 4096));
        byte[] buffer = new byte[8192];
        int total = 0;
        int n;
        while ((n = in.read(buffer, 0, (int) Math.min(buffer.length, maxBytes + 1L - total))) > 0) {
            total += n;
            if (total > maxBytes) {
                throw tooLarge("more than " + maxBytes + " bytes", maxBytes);
            }
            body.write(buffer, 0, n);
        }
        return body.toByteArray();
    }

    private static CallbackRejected tooLarge(String what, int maxBytes) {
        return new CallbackRejected(Rejection.BODY_TOO_LARGE, what + " (limit " + maxBytes + ")");
    }
}
