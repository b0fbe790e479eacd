package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.api.ApiCall;
import io.wecominbox.simulator.api.ApiTiming;
import io.wecominbox.simulator.api.WelcomeCodes;
import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.platform.WelcomeCodeListener;
import java.util.List;

/**
 * The simulator's WeCom API for the consumers to call while the bench runs (the stack is started with its
 * base URL), at a realistic distance: 100 ms ± 30 ms, 1 % of calls at 3 s. Port 0: none, the consumers call
 * whatever the stack was configured with.
 */
final class FakeWeComApi implements AutoCloseable {

    private final WeComSimulator sim;

    private FakeWeComApi(WeComSimulator sim) {
        this.sim = sim;
    }

    static FakeWeComApi start(int port, List<WeComApp> apps) {
        return start(port, apps, ApiTiming.realistic());
    }

    /** The same at another distance (the mix bench: 100 ms ± 30 ms without the slow tail unless asked). */
    static FakeWeComApi start(int port, List<WeComApp> apps, ApiTiming timing) {
        if (port <= 0) {
            return new FakeWeComApi(null);
        }
        WeComSimulator.Builder builder = WeComSimulator.builder().apiPort(port).timeScale(1.0);
        apps.forEach(builder::app);
        WeComSimulator sim = builder.build().start();
        sim.apiTiming(timing);
        IngestBenchMain.log("fake WeCom API on %s (%s)", sim.apiBaseUrl(), timing);
        return new FakeWeComApi(sim);
    }

    /** What the API side knows of each WelcomeCode (used when, within its 20 s, or not); empty with no API. */
    java.util.Optional<WelcomeCodes> codes() {
        return java.util.Optional.ofNullable(sim).map(WeComSimulator::welcomeCodes);
    }

    /** Every call received, or none with no API here. */
    List<ApiCall> calls(String path) {
        return sim == null ? List.of() : sim.apiCalls().calls(path);
    }

    /** Forgets the recorded calls (their bodies add up over a long run); codes and timing stay. */
    void forgetCalls() {
        if (sim != null) {
            sim.apiCalls().clear();
        }
    }

    boolean running() {
        return sim != null;
    }

    /** Tells the fake API of each WelcomeCode the bench's callbacks carry, so their welcomes are accepted. */
    WelcomeCodeListener welcomeCodes() {
        return sim == null ? WelcomeCodeListener.NONE : sim.welcomeCodes()::register;
    }

    @Override
    public void close() {
        if (sim != null) {
            sim.close();
        }
    }
}
