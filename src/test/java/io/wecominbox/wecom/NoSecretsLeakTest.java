package io.wecominbox.wecom;

import static io.wecominbox.wecom.SimulatedWeCom.APP;
import static io.wecominbox.wecom.SimulatedWeCom.SECRET;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.api.AccessTokens;
import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.WeComApiPaths;
import jakarta.json.Json;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every log record and outcome the client produces, through success and every failure, is free of secrets. */
class NoSecretsLeakTest {

    /** The simulator's tokens are 64 characters of [A-Za-z0-9_-]; nothing we write has such a run. */
    private static final Pattern TOKEN_LIKE = Pattern.compile("[A-Za-z0-9_-]{40,}");
    private static final String WRONG_SECRET = "Wr0ng-secret-also-never-to-be-logged";

    private final Logger clientLogger = Logger.getLogger("io.wecominbox.wecom");
    private final List<String> written = new ArrayList<>();
    private final Handler capture = new Handler() {
        private final SimpleFormatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
            synchronized (written) {
                written.add(formatter.format(record));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level previousLevel;
    private SimulatedWeCom wecom;

    @BeforeEach
    void captureLogs() {
        previousLevel = clientLogger.getLevel();
        clientLogger.setLevel(Level.ALL);
        capture.setLevel(Level.ALL);
        clientLogger.addHandler(capture);
        wecom = new SimulatedWeCom();
    }

    @AfterEach
    void restore() {
        clientLogger.removeHandler(capture);
        clientLogger.setLevel(previousLevel);
        wecom.close();
    }

    @Test
    void noTokenOrSecretInAnyLogRecordOrOutcome() {
        HttpWeComApi api = wecom.client("wecom.api.gettoken-failures-before-backoff", "2",
                "wecom.api.gettoken-busy-pause-ms", "10", "wecom.api.read-timeout-ms", "300");
        HttpWeComApi wrong = wecom.client("wecom.app.customer.secret", WRONG_SECRET,
                "wecom.api.gettoken-failures-before-backoff", "2");
        MessageSendRequest hello = MessageSendRequest.text("zhangsan", "hello");
        List<Object> outcomes = new ArrayList<>();

        outcomes.add(api.sendMessage(APP, hello, wecom.inSeconds(5)));
        wecom.sim.injectApiFault(WeComApiPaths.MESSAGE_SEND, ApiFault.INVALIDATE_TOKEN, 2);
        outcomes.add(api.sendMessage(APP, hello, wecom.inSeconds(5)));
        for (ApiFault fault : List.of(ApiFault.SYSTEM_BUSY, ApiFault.HTTP_500, ApiFault.DROP_BEFORE_EFFECT,
                ApiFault.DROP_AFTER_EFFECT, ApiFault.SLOW)) {
            wecom.sim.apiSlowDelay(Duration.ofMillis(800));
            wecom.sim.injectApiFault(WeComApiPaths.SEND_WELCOME_MSG, fault, 1);
            outcomes.add(api.sendWelcomeMessage(APP, wecom.newWelcomeCode(), WelcomeContent.text("hi"), wecom.inSeconds(5)));
        }
        outcomes.add(wrong.sendMessage(APP, hello, wecom.inSeconds(5)));
        outcomes.add(wrong.sendMessage(APP, hello, wecom.inSeconds(5)));
        outcomes.add(wrong.sendMessage(APP, hello, wecom.inSeconds(5))); // now backing off
        outcomes.add(new WeComCredentials(APP, "corp", SECRET, Optional.empty()));
        try {
            MessageSendRequest.text("zhangsan", "x").withField("touser", Json.createValue(SECRET));
        } catch (IllegalArgumentException e) {
            outcomes.add(e.getMessage());
        }

        List<String> everything = new ArrayList<>(written);
        outcomes.forEach(o -> everything.add(o.toString()));
        assertTrue(written.stream().anyMatch(line -> line.contains("backs off")), "the scenarios ran: " + written);
        for (String text : everything) {
            assertFalse(text.contains(SECRET), "secret in: " + text);
            assertFalse(text.contains(WRONG_SECRET), "secret in: " + text);
            assertFalse(TOKEN_LIKE.matcher(text).find(), "token-like value in: " + text);
        }
    }

    @Test
    void tokenPatternRecognisesTheSimulatorsTokens() {
        assertTrue(TOKEN_LIKE.matcher(new AccessTokens(Clock.systemUTC()).issue(APP)).matches());
    }

    @Test
    void urlQuotedInAnExceptionMessageLosesItsTokenAndSecret() {
        String scrubbed = WeComHttp.scrub("failed: https://qyapi.weixin.qq.com/cgi-bin/gettoken?corpid=ww1&corpsecret="
                + SECRET + " and /cgi-bin/message/send?access_token=abc123&debug=1");

        assertFalse(scrubbed.contains(SECRET), scrubbed);
        assertFalse(scrubbed.contains("abc123"), scrubbed);
        assertTrue(scrubbed.contains("corpid=ww1"), scrubbed);
    }
}
