package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.StackEnv;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The simulator plays WeCom for both demo apps with the dev stack's credentials (the same variables the
 * server got): real AES, signatures and WeCom's re-sends against the real server.
 */
@ExtendWith(ArquillianExtension.class)
class SimulatedWeComDeliveryIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private static WeComSimulator simulator() {
        SimulatorConfig config = SimulatorConfig.from(new Properties(), new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        return WeComSimulator.builder().config(config).apiPort(0).timeScale(0.05)
                .callbackBase(URI.create(StackEnv.baseUrl() + "/wecom/callback")).build();
    }

    @Test
    void everyEventTypeOfBothAppsIsAcknowledgedAndLoggedOnce() throws Exception {
        try (WeComSimulator sim = simulator().start()) {
            for (String app : List.of("customer", "contacts")) {
                for (EventType type : EventType.values()) {
                    SimEvent event = sim.newEvent(app, type);
                    DeliveryOutcome outcome = sim.deliver(event);
                    assertTrue(outcome.acknowledged(), app + " " + type + ": " + outcome.lastStatus());
                    assertEquals(1, outcome.attemptCount(), app + " " + type);
                    assertEquals(List.of(1), attempts(keyOf(app, event)), app + " " + type);
                }
            }
        }
    }

    @Test
    void aLostAcknowledgementMakesWeComResendAndTheResendIsAttemptTwo() throws Exception {
        try (WeComSimulator sim = simulator().start()) {
            sim.loseNextAcks(1);
            SimEvent event = sim.newEvent("customer", EventType.ADD_EXTERNAL_CONTACT);
            DeliveryOutcome outcome = sim.deliver(event);
            assertTrue(outcome.acknowledged());
            assertEquals(2, outcome.attemptCount(), "the first 200 was 'lost', so WeCom re-sent the same bytes");
            assertEquals(List.of(1, 2), attempts(keyOf("customer", event)));
        }
    }

    private static String keyOf(String app, SimEvent event) throws Exception {
        return app + ":" + EventKeys.keyOf(WeComEvent.parse(event.xml()));
    }

    private static List<Integer> attempts(String key) throws Exception {
        try (Connection c = StackEnv.openDatabase();
             PreparedStatement s = c.prepareStatement(
                     "SELECT attempt FROM callback_log WHERE event_key = ? ORDER BY attempt")) {
            s.setString(1, key);
            List<Integer> attempts = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    attempts.add(rs.getInt(1));
                }
            }
            return attempts;
        }
    }
}
