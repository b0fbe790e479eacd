package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CappedBodyTest {

    private static final Duration LONG = Duration.ofMinutes(1);

    @Test
    void readsABodyUpToTheCapExactly() throws Exception {
        byte[] body = new byte[1000];
        assertArrayEquals(body, CappedBody.read(new ByteArrayInputStream(body), 1000, 1000, LONG));
        assertArrayEquals(body, CappedBody.read(new ByteArrayInputStream(body), -1, 1000, LONG));
    }

    @Test
    void aDeclaredLengthOverTheCapIsRefusedWithoutReadingAByte() {
        CountingStream in = new CountingStream(Long.MAX_VALUE);
        CallbackRejected e = assertThrows(CallbackRejected.class, () -> CappedBody.read(in, 1001, 1000, LONG));
        assertEquals(Rejection.BODY_TOO_LARGE, e.rejection());
        assertEquals(0, in.served);
    }

    @Test
    void anUndeclaredEndlessBodyIsCutJustPastTheCap() {
        CountingStream in = new CountingStream(Long.MAX_VALUE);
        CallbackRejected e = assertThrows(CallbackRejected.class, () -> CappedBody.read(in, -1, 65536, LONG));
        assertEquals(Rejection.BODY_TOO_LARGE, e.rejection());
        assertEquals(65537, in.served, "reads cap + 1 bytes and stops");
    }

    @Test
    void aBodyThatLiesAboutItsLengthIsStillCut() {
        CountingStream in = new CountingStream(5000);
        assertThrows(CallbackRejected.class, () -> CappedBody.read(in, 10, 1000, LONG));
        assertTrue(in.served <= 1001);
    }

    @Test
    void aSlowClientDeclaringTheCapHoldsOnlyTheFirstChunkUntilMoreBytesArrive() throws Exception {
        CountingStream in = new CountingStream(10); // declares 64 KiB, sends 10 bytes, then the stream ends
        assertEquals(10, CappedBody.read(in, 65536, 65536, LONG).length);
        assertTrue(in.largestBuffer <= CappedBody.FIRST_CHUNK_BYTES, "buffer " + in.largestBuffer);
    }

    @Test
    void theBufferGrowsOnlyWithTheBytesReceivedOneAtATime() throws Exception {
        CountingStream in = new CountingStream(65536, 1);
        assertEquals(65536, CappedBody.read(in, 65536, 65536, LONG).length);
        assertTrue(in.bufferAlwaysWithinTwiceTheBytesReceived, "a buffer outgrew twice what had arrived");
        assertTrue(in.largestBuffer <= 65537, "buffer " + in.largestBuffer);
    }

    @Test
    void aBodyStillTricklingInAfterTheTimeoutIsCutAs408() {
        AtomicLong now = new AtomicLong();
        CountingStream trickle = new CountingStream(65536, 1) {
            @Override
            public int read(byte[] b, int off, int len) {
                now.addAndGet(Duration.ofSeconds(2).toNanos()); // one byte every 2 s
                return super.read(b, off, len);
            }
        };
        CallbackRejected e = assertThrows(CallbackRejected.class,
                () -> CappedBody.read(trickle, 65536, 65536, Duration.ofSeconds(5), now::get));
        assertEquals(Rejection.BODY_TOO_SLOW, e.rejection());
        assertEquals(408, e.rejection().status());
        assertEquals(3, trickle.served, "cut at the first read that ends past the deadline");
    }

    @Test
    void aBodyCompleteByItsDeclaredLengthIsTakenEvenWhenTheThreadWasHeldPastTheDeadline() throws Exception {
        AtomicLong now = new AtomicLong();
        CountingStream arrived = new CountingStream(3000) {
            @Override
            public int read(byte[] b, int off, int len) {
                now.addAndGet(Duration.ofSeconds(6).toNanos()); // a GC pause or a starved node, not the client
                return super.read(b, off, len);
            }
        };
        assertEquals(3000, CappedBody.read(arrived, 3000, 65536, Duration.ofSeconds(5), now::get).length);
    }

    @Test
    void aBodyThatArrivesInTimeIsRead() throws Exception {
        AtomicLong now = new AtomicLong();
        CountingStream quick = new CountingStream(3000, 1000) {
            @Override
            public int read(byte[] b, int off, int len) {
                now.addAndGet(Duration.ofMillis(100).toNanos());
                return super.read(b, off, len);
            }
        };
        assertEquals(3000, CappedBody.read(quick, 3000, 65536, Duration.ofSeconds(5), now::get).length);
    }

    @Test
    void aClientThatBreaksOffOrIsCutByTheReadTimeoutIsAClientError() {
        InputStream broken = new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("read timed out");
            }
        };
        CallbackRejected e = assertThrows(CallbackRejected.class, () -> CappedBody.read(broken, 100, 1000, LONG));
        assertEquals(Rejection.BODY_INCOMPLETE, e.rejection());
        assertEquals(4, e.rejection().status() / 100);
    }

    /** Serves zero bytes up to a limit (at most {@code perRead} per call), counts them and watches the buffers. */
    private static class CountingStream extends InputStream {
        private final long limit;
        private final int perRead;
        long served;
        int largestBuffer;
        boolean bufferAlwaysWithinTwiceTheBytesReceived = true;

        CountingStream(long limit) {
            this(limit, Integer.MAX_VALUE);
        }

        CountingStream(long limit, int perRead) {
            this.limit = limit;
            this.perRead = perRead;
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
            largestBuffer = Math.max(largestBuffer, b.length);
            if (b.length > Math.max(CappedBody.FIRST_CHUNK_BYTES, 2 * served)) {
                bufferAlwaysWithinTwiceTheBytesReceived = false;
            }
            int n = (int) Math.min(Math.min(len, perRead), limit - served);
            served += n;
            return n;
        }
    }
}
