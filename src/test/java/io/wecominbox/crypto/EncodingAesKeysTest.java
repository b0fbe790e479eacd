package io.wecominbox.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class EncodingAesKeysTest {

    private static final String OFFICIAL_KEY = "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C";

    @Test
    void generatesValid43CharacterAlphanumericKeys() {
        for (int i = 0; i < 200; i++) {
            String key = EncodingAesKeys.generate();
            assertEquals(43, key.length());
            assertTrue(key.matches("[A-Za-z0-9]{43}"), "letters and digits only");
            assertTrue(EncodingAesKeys.isValid(key));
            assertEquals(32, EncodingAesKeys.decode(key).length);
        }
    }

    @Test
    void generatedKeysAreDistinct() {
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            keys.add(EncodingAesKeys.generate());
        }
        assertEquals(100, keys.size());
    }

    @Test
    void acceptsOfficialKeyWhoseLastCharacterHasUnusedBitsSet() {
        // 'C' leaves non-zero bits past the 256th; WeCom keys are like that and must decode.
        assertEquals(32, EncodingAesKeys.decode(OFFICIAL_KEY).length);
    }

    @Test
    void rejectsKeyOfWrongLengthWithoutEchoingIt() {
        String shortKey = OFFICIAL_KEY.substring(0, 42);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EncodingAesKeys.decode(shortKey));
        assertFalse(e.getMessage().contains(shortKey));
        assertFalse(EncodingAesKeys.isValid(OFFICIAL_KEY + "A"));
    }

    @Test
    void rejectsNonBase64CharactersWithoutEchoingTheKeyOrCause() {
        String bad = OFFICIAL_KEY.substring(0, 42) + "-";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EncodingAesKeys.decode(bad));
        assertFalse(e.getMessage().contains(bad));
        assertNull(e.getCause(), "the JDK's message would name a key character");
    }

    @Test
    void rejectsKeyThatDecodesToFewerThan32Bytes() {
        String paddedInside = OFFICIAL_KEY.substring(0, 42) + "=";
        assertFalse(EncodingAesKeys.isValid(paddedInside));
    }

    @Test
    void rejectsNull() {
        assertFalse(EncodingAesKeys.isValid(null));
    }
}
