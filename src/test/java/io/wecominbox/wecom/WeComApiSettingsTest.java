package io.wecominbox.wecom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.wecom.WeComCallOutcome.Kind;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WeComApiSettingsTest {

    @Test
    void baseUrlDefaultsToWeCom() {
        WeComApiSettings settings = WeComApiSettings.read(key -> Optional.empty());

        assertEquals(URI.create("https://qyapi.weixin.qq.com"), settings.baseUrl());
        assertEquals(Duration.ofSeconds(2), settings.connectTimeout());
        assertEquals(Duration.ofSeconds(3), settings.readTimeout());
    }

    @Test
    void baseUrlFromConfigIsWhereTheClientCalls() {
        try (SimulatedWeCom wecom = new SimulatedWeCom()) {
            // a trailing slash, as an operator may well write it
            HttpWeComApi api = wecom.client(WeComApiSettings.BASE_URL, wecom.sim.apiBaseUrl() + "/");

            WeComCallOutcome outcome = api.sendMessage(SimulatedWeCom.APP,
                    MessageSendRequest.text("zhangsan", "hi"), wecom.inSeconds(5));

            assertEquals(Kind.DONE, outcome.kind(), outcome.toString());
            assertEquals(1, wecom.sim.calls(WeComApiPaths.GET_TOKEN));
            assertEquals(1, wecom.sim.calls(WeComApiPaths.MESSAGE_SEND));
        }
    }

    @Test
    void timeoutsAreKeptFarUnderTheWelcomeWindow() {
        Map<String, String> config = Map.of("wecom.api.connect-timeout-ms", "60000",
                "wecom.api.read-timeout-ms", "120000", "wecom.api.call-budget-ms", "600000");

        WeComApiSettings settings = WeComApiSettings.read(key -> Optional.ofNullable(config.get(key)));

        assertEquals(WeComApiSettings.MAX_TIMEOUT, settings.connectTimeout());
        assertEquals(WeComApiSettings.MAX_TIMEOUT, settings.readTimeout());
        assertEquals(Duration.ofSeconds(20), settings.callBudget());
    }
}
