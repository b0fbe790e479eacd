package io.wecominbox.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.HandledEvent;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedactedTest {

    private static final String KEY = "customer:external_contact:add_external_contact:welcome:CALLBACK_CODE_zhangsan";

    @Test
    void theTagIsTheFirst12HexDigitsOfSha256() {
        // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad (FIPS 180-2)
        assertEquals("#ba7816bf8f01", Redacted.id("abc"));
    }

    @Test
    void theSameValueGivesTheSameTagEveryTime() {
        assertEquals(Redacted.id(KEY), Redacted.id(KEY));
        assertEquals(Redacted.id(KEY), Redacted.id(new String(KEY.toCharArray())));
        assertEquals(Redacted.id("张三"), Redacted.id("张三"), "UTF-8, whatever the platform encoding");
    }

    @Test
    void theTagRevealsNoneOfTheValue() {
        for (String value : List.of(KEY, "zhangsan", "wmAbCdEfGhIjKlMn", "WELCOME_CODE_1", "x")) {
            String tag = Redacted.id(value);
            assertTrue(tag.matches("#[0-9a-f]{12}"), tag);
            assertFalse(tag.contains(value), value + " in " + tag);
            for (String part : value.split("[:_]")) {
                assertFalse(part.length() >= 4 && tag.contains(part), part + " in " + tag);
            }
        }
    }

    @Test
    void differentValuesGetDifferentTags() {
        Set<String> tags = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            tags.add(Redacted.id("customer:msg:" + i));
        }
        assertEquals(100_000, tags.size());
        assertNotEquals(Redacted.id("zhangsan"), Redacted.id("zhangsan "));
    }

    @Test
    void nullIsSaidSo() {
        assertEquals("#-", Redacted.id(null));
    }

    @Test
    void aHandledEventInALogLineShowsItsRowAndTagNeverItsKey() throws Exception {
        String xml = "<xml><UserID>zhangsan</UserID><ExternalUserID>wmSecret</ExternalUserID>"
                + "<WelcomeCode>CALLBACK_CODE</WelcomeCode></xml>";
        HandledEvent event = new HandledEvent("customer", "change_external_contact", KEY, "wecom:welcome:" + KEY, null,
                42, 1, xml, WeComEvent.parse(xml));
        String line = event.toString();
        assertTrue(line.contains("callbackLog=42"), line);
        assertTrue(line.contains(Redacted.id("wecom:welcome:" + KEY)), line);
        for (String secret : List.of("zhangsan", "wmSecret", "CALLBACK_CODE", "welcome:")) {
            assertFalse(line.contains(secret), secret + " in " + line);
        }
    }
}
