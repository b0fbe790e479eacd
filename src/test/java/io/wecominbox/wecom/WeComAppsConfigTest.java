package io.wecominbox.wecom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.crypto.EncodingAesKeys;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WeComAppsConfigTest {

    private static final String KEY = EncodingAesKeys.generate();
    private static final String TOKEN = "tOkEn-value-123";

    private final Map<String, String> props = new HashMap<>();

    private WeComAppsConfig read() {
        return WeComAppsConfig.read(k -> Optional.ofNullable(props.get(k)));
    }

    private void app(String name) {
        props.put("wecom.app." + name + ".corp-id", "ww0123456789abcdef");
        props.put("wecom.app." + name + ".token", TOKEN);
        props.put("wecom.app." + name + ".encoding-aes-key", KEY);
        props.put("wecom.app." + name + ".agent-id", "1000002");
        props.put("wecom.app." + name + ".secret", "s3cr3t");
    }

    @Test
    void buildsOneCryptoPerListedApp() {
        props.put("wecom.apps", " customer , contacts,");
        app("customer");
        app("contacts");
        WeComAppsConfig config = read();
        assertEquals(List.of("customer", "contacts"), List.copyOf(config.ready().keySet()));
        assertEquals("ww0123456789abcdef", config.ready().get("customer").corpId());
        assertEquals("1000002", config.ready().get("customer").agentId());
        assertTrue(config.broken().isEmpty());
    }

    @Test
    void aMisconfiguredAppIsReportedByKeyAndEnvironmentNameWithoutItsValues() {
        props.put("wecom.apps", "customer,contacts");
        app("customer");
        app("contacts");
        props.remove("wecom.app.contacts.token");
        props.put("wecom.app.contacts.corp-id", "  ");
        WeComAppsConfig config = read();
        assertEquals(List.of("customer"), List.copyOf(config.ready().keySet()), "the good app still starts");
        String problems = String.join("; ", config.broken().get("contacts"));
        assertTrue(problems.contains("wecom.app.contacts.token (or WECOM_APP_CONTACTS_TOKEN)"), problems);
        assertTrue(problems.contains("WECOM_APP_CONTACTS_CORP_ID"), problems);
    }

    @Test
    void aBadAesKeyIsReportedWithoutEchoingTheKey() {
        props.put("wecom.apps", "customer");
        app("customer");
        String badKey = "x".repeat(42) + "!";
        props.put("wecom.app.customer.encoding-aes-key", badKey);
        List<String> problems = read().broken().get("customer");
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("wecom.app.customer.encoding-aes-key"), problems.get(0));
        assertFalse(problems.get(0).contains(badKey));
        assertFalse(problems.get(0).contains(TOKEN));
    }

    @Test
    void badAndDuplicateNamesAreReported() {
        props.put("wecom.apps", "customer,customer,Bad Name");
        app("customer");
        WeComAppsConfig config = read();
        assertTrue(config.ready().isEmpty(), "an app listed twice is ambiguous");
        assertTrue(config.broken().containsKey("customer"));
        assertTrue(config.broken().containsKey("Bad Name"));
    }

    @Test
    void noAppsIsEmptyNotAnError() {
        WeComAppsConfig config = read();
        assertTrue(config.ready().isEmpty());
        assertTrue(config.broken().isEmpty());
    }

    @Test
    void agentIdAndSecretAreOptionalForTheIngest() {
        props.put("wecom.apps", "customer");
        app("customer");
        props.remove("wecom.app.customer.agent-id");
        props.remove("wecom.app.customer.secret");
        assertTrue(read().ready().containsKey("customer"));
    }

    @Test
    void environmentNamesFollowMicroProfileConfig() {
        assertEquals("WECOM_APP_MY_APP_ENCODING_AES_KEY",
                WeComAppsConfig.environmentName("wecom.app.my-app.encoding-aes-key"));
    }
}
