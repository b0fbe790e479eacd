package io.wecominbox.testsupport;

import io.wecominbox.simulator.WeComSimulator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * {@link FakeWeCom} for one test class: started before its first test, its recorded calls and faults cleared
 * before each test, closed after the last (which frees the fixed API port for the next class). Register it
 * as a static field with {@code @RegisterExtension}.
 */
public final class FakeWeComExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private WeComSimulator simulator;

    public WeComSimulator simulator() {
        return simulator;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        simulator = FakeWeCom.start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        simulator.reset();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        simulator.close();
    }
}
