package io.wecominbox.ops.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class BasicUserTest {

    private static String basic(String userAndPassword) {
        return "Basic " + Base64.getEncoder().encodeToString(userAndPassword.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void oneNameOneKeyWhateverThePassword() {
        String key = BasicUser.keyOf(basic("admin:right"));
        assertEquals(key, BasicUser.keyOf(basic("admin:wrong")));
        assertEquals(key, BasicUser.keyOf("basic  " + Base64.getEncoder().encodeToString("admin:x".getBytes(StandardCharsets.UTF_8))),
                "the scheme in any case");
        assertNotEquals(key, BasicUser.keyOf(basic("operator:right")));
        assertTrue(key.matches("user:[0-9a-f]{16}"), key);
    }

    @Test
    void theKeyHoldsNeitherTheNameNorThePassword() {
        String key = BasicUser.keyOf(basic("s3cret-typed-as-name:pw-9f2"));
        assertFalse(key.contains("s3cret") || key.contains("pw-9f2"), key);
    }

    @Test
    void aPasswordWithAColonStillKeysOnTheNameAlone() {
        assertEquals(BasicUser.keyOf(basic("admin:a")), BasicUser.keyOf(basic("admin:a:b:c")));
    }

    @Test
    void noBasicUserNoKey() {
        assertNull(BasicUser.keyOf(null));
        assertNull(BasicUser.keyOf("Bearer abc.def"));
        assertNull(BasicUser.keyOf("Basic !!not-base64!!"));
        assertNull(BasicUser.keyOf(basic("no-colon")));
        assertNull(BasicUser.keyOf(basic(":password-without-name")));
        assertNull(BasicUser.keyOf("Basic"));
    }
}
