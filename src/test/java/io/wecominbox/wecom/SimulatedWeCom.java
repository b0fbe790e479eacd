package io.wecominbox.wecom;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.config.WeComApp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The simulator's API side on a free local port, and a client configured for it through the same config
 * keys production uses ({@code wecom.api.base-url}, {@code wecom.app.customer.*}).
 */
final class SimulatedWeCom implements AutoCloseable {

    static final String APP = "customer";
    static final String CORP_ID = "wwsimcorp01";
    static final String SECRET = "S3cret-customer-never-to-be-logged";
    static final String AGENT_ID = "1000002";

    final Clock clock;
    final WeComSimulator sim;

    SimulatedWeCom(Clock clock) {
        this.clock = clock;
        this.sim = WeComSimulator.builder().clock(clock).apiPort(0).seed(7)
                .app(new WeComApp(APP, CORP_ID, "callbackToken", "k".repeat(43), AGENT_ID, SECRET))
                .build().start();
    }

    SimulatedWeCom() {
        this(Clock.systemUTC());
    }

    /** The production config for the simulator, plus the given overrides (e.g. timeouts). */
    Map<String, String> config(String... overrides) {
        Map<String, String> config = new HashMap<>(Map.of(
                WeComApiSettings.BASE_URL, sim.apiBaseUrl().toString(),
                "wecom.app." + APP + ".corp-id", CORP_ID,
                "wecom.app." + APP + ".secret", SECRET,
                "wecom.app." + APP + ".agent-id", AGENT_ID));
        for (int i = 0; i < overrides.length; i += 2) {
            config.put(overrides[i], overrides[i + 1]);
        }
        return config;
    }

    HttpWeComApi client(String... overrides) {
        return client(config(overrides));
    }

    HttpWeComApi client(Map<String, String> config) {
        return new HttpWeComApi(WeComApiSettings.read(key -> Optional.ofNullable(config.get(key))),
                new ConfigAppCredentials(key -> Optional.ofNullable(config.get(key))), clock);
    }

    /** A WelcomeCode as an add_external_contact event just now would carry it. */
    String newWelcomeCode() {
        String code = "wc-" + UUID.randomUUID();
        sim.welcomeCodes().register(APP, code, clock.instant());
        return code;
    }

    Instant in(Duration d) {
        return clock.instant().plus(d);
    }

    Instant inSeconds(long seconds) {
        return in(Duration.ofSeconds(seconds));
    }

    @Override
    public void close() {
        sim.close();
    }
}
