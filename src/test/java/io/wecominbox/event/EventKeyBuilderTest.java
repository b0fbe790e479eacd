package io.wecominbox.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EventKeyBuilderTest {

    @Test
    void componentsAreJoinedWithColonsAfterTheRecipe() {
        assertEquals("r:a:b", new EventKeyBuilder("r").with("a").with("b").build());
    }

    @Test
    void nullComponentIsEmptyButKeepsItsPosition() {
        assertEquals("r::b", new EventKeyBuilder("r").with(null).with("b").build());
        assertNotEquals(new EventKeyBuilder("r").with(null).with("b").build(),
            new EventKeyBuilder("r").with("b").with(null).build());
    }

    @Test
    void separatorEscapeAndDigestCharactersArePercentEncoded() {
        assertEquals("a%3Ab%25c%23d", EventKeyBuilder.escape("a:b%c#d"));
    }

    @Test
    void whitespaceAndControlCharactersArePercentEncoded() {
        assertEquals("a%20b%09c%0Ad%0De%00f", EventKeyBuilder.escape("a b\tc\nd\re\0f"));
        assertEquals("%E3%80%80%C2%A0%E2%80%AE", EventKeyBuilder.escape("\u3000\u00a0\u202e"));
    }

    @Test
    void ordinaryTextIncludingChineseIsLeftReadable() {
        assertEquals("张三_wm-AJ2.G,x=y", EventKeyBuilder.escape("张三_wm-AJ2.G,x=y"));
    }

    @Test
    void keyAtTheLimitIsNotShortened() {
        String component = "x".repeat(EventKeyBuilder.MAX_CHARS - 2);
        assertEquals("r:" + component, new EventKeyBuilder("r").with(component).build());
    }

    @Test
    void longKeyKeepsAPrefixAndEndsInADigest() {
        String key = new EventKeyBuilder("r").with("x".repeat(1000)).build();
        assertTrue(key.startsWith("r:xxxx"));
        assertTrue(key.matches(".*#sha256=[0-9a-f]{64}"), key);
        assertTrue(key.length() <= EventKeyBuilder.MAX_CHARS);
    }

    @Test
    void shorteningNeverCutsAnEscapeInHalf() {
        for (int shift = 0; shift < 3; shift++) {
            String key = new EventKeyBuilder("r").with("y".repeat(shift) + ":".repeat(400)).build();
            String prefix = key.substring(0, key.indexOf(EventKeyBuilder.DIGEST_MARKER));
            assertFalse(prefix.matches(".*%[0-9A-F]?"), prefix);
        }
    }

    @Test
    void shorteningNeverSplitsASurrogatePair() {
        String key = new EventKeyBuilder("r").with("y" + "😀".repeat(300)).build();
        String prefix = key.substring(0, key.indexOf(EventKeyBuilder.DIGEST_MARKER));
        assertFalse(Character.isHighSurrogate(prefix.charAt(prefix.length() - 1)));
    }
}
