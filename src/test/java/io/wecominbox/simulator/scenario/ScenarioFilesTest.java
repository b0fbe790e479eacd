package io.wecominbox.simulator.scenario;

import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.ApiFaults;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.platform.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScenarioFilesTest {

    private static Properties props(String text) throws Exception {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return p;
    }

    @Test
    void parsesRateDurationMixAndFaults() throws Exception {
        Scenario s = ScenarioFiles.parse("x", props("""
                description=test
                rate=2.5
                duration=2m
                mix.add_external_contact=3
                mix.text_message=1
                mix.unknown_event=0
                platform.lost-ack-rate=0.1
                platform.slow-ack-rate=0.05
                api.fault.send_welcome_msg.system_busy=0.2
                api.fault./cgi-bin/message/send.http-502=0.1
                """));

        assertEquals(2.5, s.eventsPerSecond());
        assertEquals(Duration.ofMinutes(2), s.duration());
        assertEquals(300, s.eventCount());
        assertEquals(Map.of(EventType.ADD_EXTERNAL_CONTACT, 3.0, EventType.TEXT_MESSAGE, 1.0), s.mix());
        assertEquals(0.1, s.lostAckRate());
        assertEquals(0.05, s.slowAckPretendRate());
        assertTrue(s.apiFaults().contains(ApiFaults.Rule.rate(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SYSTEM_BUSY, 0.2)));
        assertTrue(s.apiFaults().contains(ApiFaults.Rule.rate(WeComApiPaths.MESSAGE_SEND, ApiFault.HTTP_502, 0.1)));
    }

    @Test
    void durationAcceptsMillisSecondsMinutesAndIso() {
        assertEquals(Duration.ofMillis(500), ScenarioFiles.duration("500ms"));
        assertEquals(Duration.ofSeconds(90), ScenarioFiles.duration("90s"));
        assertEquals(Duration.ofSeconds(90), ScenarioFiles.duration("1.5m"));
        assertEquals(Duration.ofSeconds(45), ScenarioFiles.duration("PT45S"));
    }

    @Test
    void pickFollowsTheWeights() throws Exception {
        Scenario s = ScenarioFiles.parse("x", props("rate=1\nduration=1s\nmix.text_message=3\nmix.create_party=1\n"));
        Map<EventType, Integer> counts = new EnumMap<>(EventType.class);
        Random random = new Random(9);
        for (int i = 0; i < 8000; i++) counts.merge(s.pick(random), 1, Integer::sum);

        assertEquals(2, counts.size());
        assertTrue(Math.abs(counts.get(EventType.TEXT_MESSAGE) - 6000) < 250, counts.toString());
    }

    @Test
    void typosAreRejectedWithTheKeyNamed() {
        IllegalArgumentException unknownType = assertThrows(IllegalArgumentException.class,
                () -> ScenarioFiles.parse("x", props("rate=1\nduration=1s\nmix.add_contact=1\n")));
        assertTrue(unknownType.getMessage().contains("add_contact"));
        assertThrows(IllegalArgumentException.class,
                () -> ScenarioFiles.parse("x", props("rate=1\nduration=1s\nmix.text_message=1\nrat=3\n")));
        assertThrows(IllegalArgumentException.class,
                () -> ScenarioFiles.parse("x", props("rate=1\nduration=1s\nmix.text_message=1\napi.fault.nope.slow=0.1\n")));
        assertThrows(IllegalArgumentException.class, () -> ScenarioFiles.parse("x", props("duration=1s\nmix.text_message=1\n")));
        assertThrows(IllegalArgumentException.class, () -> ScenarioFiles.parse("x", props("rate=1\nduration=1s\n")));
    }

    @Test
    void shippedDemoAndSmokeScenariosLoadFromTheClasspath() throws Exception {
        Scenario demo = ScenarioFiles.load("demo");
        Scenario smoke = ScenarioFiles.load("smoke");

        assertEquals("demo", demo.name());
        assertTrue(demo.mix().get(EventType.ADD_EXTERNAL_CONTACT) >= 30, "demo is mostly new customers");
        assertTrue(demo.lostAckRate() > 0);
        assertTrue(smoke.apiFaults().isEmpty());
        assertEquals(EventType.values().length, smoke.mix().size(), "smoke covers every event type");
    }

    @Test
    void loadsAScenarioFromAFilePath(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("burst.properties");
        Files.writeString(file, "rate=100\nduration=1s\nmix.text_message=1\n");

        Scenario s = ScenarioFiles.load(file.toString());
        assertEquals("burst", s.name());
        assertEquals(100, s.eventCount());
    }
}
