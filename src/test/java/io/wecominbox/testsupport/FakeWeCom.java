package io.wecominbox.testsupport;

import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.config.EnvironmentOverrides;
import io.wecominbox.simulator.config.SimulatorConfig;
import java.net.URI;
import java.util.Properties;

/**
 * The WeCom simulator in the test JVM, playing both sides for the stack's apps: its fake API listens on the
 * fixed port the test server calls ({@code WECOM_SIM_API_PORT} in target/stack/stack.env, set by
 * {@code stack.sh services-start} for test runs together with the server's WECOM_API_BASE_URL), and its
 * platform side delivers signed callbacks to the server with WeCom's re-sends (time scale 0.05: +0.25 s,
 * +0.5 s, ...). One per test class; closing it frees the port for the next.
 */
public final class FakeWeCom {

    private FakeWeCom() {
    }

    public static int apiPort() {
        return Integer.parseInt(StackEnv.get("WECOM_SIM_API_PORT", "9091"));
    }

    public static WeComSimulator start() {
        SimulatorConfig config = SimulatorConfig.from(new Properties(),
            new EnvironmentOverrides(StackEnv.wecomEnvironment()));
        return WeComSimulator.builder().config(config).apiPort(apiPort()).timeScale(0.05)
            .callbackBase(URI.create(StackEnv.baseUrl() + "/wecom/callback")).build().start();
    }
}
