package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class CappedBodyTest {

    @Test
    void readsABodyUpToTheCapExactly() throws Exception {
        byte[] body = new byte[1000];
        assertArrayEquals(body, CappedBody.read(new ByteArrayInputStream(body), 1000, 1000));
        assertArrayEquals(body, CappedBody.read(new ByteArrayInputStream(body), -1, 1000));
    }

    @Test
    void aDeclaredLengthOverTheCapIsRefusedWithoutReadingAByte() {
        CountingStream in = new CountingStream(Long.MAX_VALUE);
        CallbackRejected e = assertThrows(CallbackRejected.class, () -> CappedBody.read(in, 1001, 1000));
        assertEquals(Rejection.BODY_TOO_LARGE, e.rejection());
        assertEquals(0, in.served);
    }

    @Test
    void anUndeclaredEndlessBodyIsCutJustPastTheCap() {
        CountingStream in = new CountingStream(Long.MAX_VALUE);
        CallbackRejected e = assertThrows(CallbackRejected.class, () -> CappedBody.read(in, -1, 65536));
        assertEquals(Rejection.BODY_TOO_LARGE, e.rejection());
        assertEquals(65537, in.served, "reads cap + 1 bytes and stops");
    }

    @Test
    void aBodyThatLiesAboutItsLengthIsStillCut() {
        CountingStream in = new CountingStream(5000);
        assertThrows(CallbackRejected.class, () -> CappedBody.read(in, 10, 1000));
        assertTrue(in.served <= 1001);
    }

    /** Serves zero bytes up to a limit and counts them. */
    private static final class CountingStream extends InputStream {
        private final long limit;
        long served;

        CountingStream(long limit) {
            this.limit = limit;
        }

        @Override
        public int read() {
            if (served >= limit) {
                return -1;
            }
            served++;
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (served >= limit) {
                return -1;
            }
            int n = (int) Math.min(len, limit - served);
            served += n;
            return n;
        }
    }
}
