package io.wecominbox.testsupport;

import io.wecominbox.simulator.WeComSimulator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For process-level tests (crash execution): installs the built WAR into the test server, starts the fake
 * WeCom and then Liberty before the class's first test; stops Liberty, removes the WAR and closes the fake
 * after the last. Register it as a static field with {@code @RegisterExtension}; {@link #liberty()} is the
 * server to kill and restart.
 */
public final class LibertyAndWeComExtension implements BeforeAllCallback, AfterAllCallback {

    private final LibertyProcess liberty = new LibertyProcess();
    private WeComSimulator wecom;

    public LibertyProcess liberty() {
        return liberty;
    }

    public WeComSimulator wecom() {
        return wecom;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        liberty.installApplication();
        wecom = FakeWeCom.start();
        liberty.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            liberty.stop();
            liberty.removeApplication();
        } finally {
            if (wecom != null) {
                wecom.close();
            }
        }
    }
}
