package io.wecominbox.simulator;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulatorOptionsTest {

    @Test
    void parsesTheDocumentedRunCommand() {
        SimulatorOptions o = SimulatorOptions.parse("--config", "sim.properties", "--callback-base",
                "http://127.0.0.1:9080/wecom/callback", "--api-port", "9090", "--scenario", "demo",
                "--time-scale", "0.1", "--apps", "customer, contacts");

        assertEquals(URI.create("http://127.0.0.1:9080/wecom/callback"), o.callbackBase().orElseThrow());
        assertEquals(9090, o.apiPort());
        assertEquals("demo", o.scenario().orElseThrow());
        assertEquals(0.1, o.timeScale());
        assertEquals(Duration.ofSeconds(5), o.ackTimeout());
        assertEquals(List.of("customer", "contacts"), o.apps());
    }

    @Test
    void apiOnlyNeedsNeitherCallbackBaseNorScenario() {
        assertTrue(SimulatorOptions.parse("--config", "sim.properties", "--api-only").apiOnly());
    }

    @Test
    void missingRequiredOrUnknownOptionsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> SimulatorOptions.parse("--scenario", "demo"));
        assertThrows(IllegalArgumentException.class, () -> SimulatorOptions.parse("--config", "f", "--scenario", "demo"));
        assertThrows(IllegalArgumentException.class, () -> SimulatorOptions.parse("--config", "f", "--api-only", "--bogus", "1"));
        assertThrows(IllegalArgumentException.class, () -> SimulatorOptions.parse("--config"));
    }

    @Test
    void sampleConfigHasEveryKeyAndAValidAesKey() {
        String sample = SimulatorMain.sampleConfig();
        for (String key : new String[] {"wecom.apps=", "wecom.api.base-url=", "wecom.app.customer.corp-id=",
                "wecom.app.customer.token=", "wecom.app.customer.encoding-aes-key=", "wecom.app.customer.agent-id=",
                "wecom.app.customer.secret="}) {
            assertTrue(sample.contains(key), key);
        }
        String key = sample.lines().filter(l -> l.startsWith("wecom.app.customer.encoding-aes-key=")).findFirst()
                .orElseThrow().split("=", 2)[1];
        assertTrue(io.wecominbox.crypto.EncodingAesKeys.isValid(key));
    }
}
