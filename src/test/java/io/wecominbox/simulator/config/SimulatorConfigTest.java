package io.wecominbox.simulator.config;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulatorConfigTest {

    private static Properties file() {
        Properties p = new Properties();
        p.setProperty("wecom.apps", "customer, contacts");
        p.setProperty("wecom.api.base-url", "http://127.0.0.1:9090");
        for (String app : new String[] {"customer", "contacts"}) {
            p.setProperty("wecom.app." + app + ".corp-id", "wwcorp");
            p.setProperty("wecom.app." + app + ".token", "file-token-" + app);
            p.setProperty("wecom.app." + app + ".encoding-aes-key", "k".repeat(43));
            p.setProperty("wecom.app." + app + ".agent-id", "1000002");
            p.setProperty("wecom.app." + app + ".secret", "file-secret-" + app);
        }
        return p;
    }

    @Test
    void readsEveryAppNamedInWecomAppsInOrder() {
        SimulatorConfig config = SimulatorConfig.from(file(), new EnvironmentOverrides(Map.of()));

        assertEquals(java.util.List.of("customer", "contacts"), java.util.List.copyOf(config.apps().keySet()));
        assertEquals("file-token-customer", config.app("customer").token());
        assertEquals("http://127.0.0.1:9090", config.apiBaseUrl().orElseThrow());
    }

    @Test
    void upperCaseUnderscoreEnvironmentVariableOverridesTheFile() {
        SimulatorConfig config = SimulatorConfig.from(file(), new EnvironmentOverrides(Map.of(
                "WECOM_APP_CUSTOMER_TOKEN", "env-token",
                "WECOM_APP_CUSTOMER_ENCODING_AES_KEY", "e".repeat(43),
                "WECOM_API_BASE_URL", "http://sim:9090")));

        assertEquals("env-token", config.app("customer").token());
        assertEquals("e".repeat(43), config.app("customer").encodingAesKey());
        assertEquals("file-token-contacts", config.app("contacts").token());
        assertEquals("http://sim:9090", config.apiBaseUrl().orElseThrow());
    }

    @Test
    void lookupTriesExactNameThenSanitizedThenUpperCase() {
        EnvironmentOverrides exact = new EnvironmentOverrides(Map.of(
                "wecom.app.customer.secret", "exact", "wecom_app_customer_secret", "sanitized",
                "WECOM_APP_CUSTOMER_SECRET", "upper"));
        EnvironmentOverrides sanitized = new EnvironmentOverrides(Map.of(
                "wecom_app_customer_secret", "sanitized", "WECOM_APP_CUSTOMER_SECRET", "upper"));

        assertEquals("exact", exact.lookup("wecom.app.customer.secret").orElseThrow());
        assertEquals("sanitized", sanitized.lookup("wecom.app.customer.secret").orElseThrow());
        assertEquals("WECOM_APP_CUSTOMER_CORP_ID", EnvironmentOverrides.environmentName("wecom.app.customer.corp-id"));
    }

    @Test
    void appListItselfCanComeFromTheEnvironment() {
        SimulatorConfig config = SimulatorConfig.from(file(), new EnvironmentOverrides(Map.of("WECOM_APPS", "contacts")));

        assertEquals(1, config.apps().size());
        assertTrue(config.apps().containsKey("contacts"));
    }

    @Test
    void missingKeyIsNamedWithItsEnvironmentVariableButNoValueIsPrinted() {
        Properties p = file();
        p.remove("wecom.app.customer.secret");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SimulatorConfig.from(p, new EnvironmentOverrides(Map.of())));
        assertTrue(e.getMessage().contains("wecom.app.customer.secret"));
        assertTrue(e.getMessage().contains("WECOM_APP_CUSTOMER_SECRET"));
    }

    @Test
    void appToStringNeverShowsTokenKeyOrSecret() {
        WeComApp app = SimulatorConfig.from(file(), new EnvironmentOverrides(Map.of())).app("customer");

        String text = app.toString();
        assertFalse(text.contains("file-token"));
        assertFalse(text.contains("file-secret"));
        assertFalse(text.contains("kkkk"));
    }
}
