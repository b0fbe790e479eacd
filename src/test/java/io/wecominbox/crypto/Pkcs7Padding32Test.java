package io.wecominbox.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wecominbox.crypto.CallbackCryptoException.Reason;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class Pkcs7Padding32Test {

    @Test
    void padsEveryLengthToAMultipleOf32WithPadValues1To32() {
        for (int length = 0; length <= 96; length++) {
            byte[] padded = Pkcs7Padding32.pad(new byte[length]);
            int expectedPad = 32 - (length % 32);
            assertEquals(0, padded.length % 32, "length " + length);
            assertEquals(length + expectedPad, padded.length, "length " + length);
            for (int i = length; i < padded.length; i++) {
                assertEquals(expectedPad, padded[i], "pad byte at " + i);
            }
        }
    }

    @Test
    void addsAFullBlockOf32WhenInputIsAligned() {
        byte[] padded = Pkcs7Padding32.pad(new byte[64]);
        assertEquals(96, padded.length);
        assertEquals(32, padded[95]);
    }

    @Test
    void unpadReversesPadForEveryPadValue() throws Exception {
        for (int length = 0; length <= 96; length++) {
            byte[] data = new byte[length];
            Arrays.fill(data, (byte) 0x41);
            byte[] padded = Pkcs7Padding32.pad(data);
            assertEquals(length, Pkcs7Padding32.unpaddedLength(padded));
            assertArrayEquals(data, Arrays.copyOf(padded, length));
        }
    }

    @Test
    void rejectsPadValueZero() {
        byte[] block = new byte[32];
        assertBadPadding(block);
    }

    @Test
    void rejectsPadLargerThan32() {
        byte[] block = new byte[64];
        Arrays.fill(block, (byte) 33);
        assertBadPadding(block);
    }

    @Test
    void rejectsPadLongerThanTheData() {
        byte[] block = new byte[16];
        Arrays.fill(block, (byte) 20);
        assertBadPadding(block);
    }

    @Test
    void rejectsInconsistentPadBytes() {
        byte[] padded = Pkcs7Padding32.pad(new byte[10]); // pad 22
        padded[15] = 21;
        assertBadPadding(padded);
    }

    @Test
    void rejectsEmptyInput() {
        assertBadPadding(new byte[0]);
    }

    private static void assertBadPadding(byte[] padded) {
        CallbackCryptoException e = assertThrows(CallbackCryptoException.class,
                () -> Pkcs7Padding32.unpaddedLength(padded));
        assertEquals(Reason.BAD_PADDING, e.reason());
    }
}
