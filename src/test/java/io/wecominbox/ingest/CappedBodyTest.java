package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CappedBodyTest {

    @Test
    void takesABodyUpToTheCapExactlyWhateverItsChunks() throws Exception {
        byte[] whole = new byte[1000];
        Arrays.fill(whole, (byte) 'a');
        CappedBody body = new CappedBody(1000, 1000);
        body.append(Arrays.copyOf(whole, 999), 999);
        body.append(new byte[] {'a'}, 1);
        assertArrayEquals(whole, body.bytes());
        CappedBody undeclared = new CappedBody(-1, 1000);
        undeclared.append(whole, 1000);
        assertArrayEquals(whole, undeclared.bytes());
    }

    @Test
    void aDeclaredLengthOverTheCapIsRefusedBeforeAByteIsRead() {
        CallbackRejected e = assertThrows(CallbackRejected.class, () -> new CappedBody(1001, 1000));
        assertEquals(Rejection.BODY_TOO_LARGE, e.rejection());
    }

    @Test
    void anUndeclaredBodyIsRefusedAtTheFirstChunkPastTheCap() throws Exception {
        CappedBody body = new CappedBody(-1, 65536);
        byte[] chunk = new byte[4096];
        for (int i = 0; i < 16; i++) {
            body.append(chunk, chunk.length);
        }
        CallbackRejected e = assertThrows(CallbackRejected.class, () -> body.append(chunk, 1));
        assertEquals(Rejection.BODY_TOO_LARGE, e.rejection());
        assertEquals(65536, body.size(), "nothing past the cap is kept");
    }

    @Test
    void aBodyThatLiesAboutItsLengthIsStillCutAtTheCap() throws Exception {
        CappedBody body = new CappedBody(10, 1000);
        assertThrows(CallbackRejected.class, () -> body.append(new byte[1001], 1001));
    }

    @Test
    void aSlowClientDeclaringTheCapHoldsOnlyTheFirstChunkUntilMoreBytesArrive() throws Exception {
        CappedBody body = new CappedBody(65536, 65536);
        for (int i = 0; i < 10; i++) {
            body.append(new byte[] {'x'}, 1);
        }
        assertEquals(CappedBody.FIRST_CHUNK_BYTES, body.held());
        assertEquals(10, body.bytes().length);
    }

    @Test
    void theBufferGrowsOnlyWithTheBytesReceivedAndNeverPastTheCap() throws Exception {
        CappedBody body = new CappedBody(65536, 65536);
        for (int i = 1; i <= 65536; i++) {
            body.append(new byte[] {'x'}, 1);
            assertTrue(body.held() <= Math.max(CappedBody.FIRST_CHUNK_BYTES, 2 * i), "held " + body.held() + " for " + i);
        }
        assertEquals(65536, body.held());
        assertEquals(65536, body.bytes().length);
    }
}
