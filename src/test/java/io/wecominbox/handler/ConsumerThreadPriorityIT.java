package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Black box, on the server as liberty/jvm.options starts it: a text message (conversation, crm, bot) and an add
 * with a welcome code (welcome, crm, contact) are delivered on threads whose OS nice value /metrics shows. The
 * server runs as this test's user, so what the OS lets that user do decides what is right.
 */
@ExtendWith(ArquillianExtension.class)
class ConsumerThreadPriorityIT {

    private static final Pattern NICE = Pattern.compile(
        "^wecom_handler_thread_nice\\{[^}]*handler=\"([a-z-]+)\"[^}]*} (\\S+)", Pattern.MULTILINE);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();

    @Test
    void handlersNobodyWaitsForRunAtNiceTenAndTheWelcomeAndTheBotAtTheCallbackUrlsPriority() {
        String id = Long.toString(7_100_000_000_000_000_000L + System.nanoTime() % 1_000_000_000_000L);
        assertEquals(200, client.post("customer", wecom.post(SampleEvents.textMessage(id, "priority"))).statusCode());
        assertEquals(200, client.post("customer", wecom.post(SampleEvents.addExternalContact("wmPriority" + id,
            Instant.now().getEpochSecond(), "CODE_" + id))).statusCode());

        Map<String, Integer> nice = new TreeMap<>();
        boolean all = Poll.until(Duration.ofSeconds(30), () -> {
            nice.clear();
            nice.putAll(niceByHandler(scrape()));
            return nice.keySet().containsAll(List.of("bot", "contact", "conversation", "crm", "welcome"));
        });
        assertTrue(all, "every handler's delivery thread shows its nice value: " + nice);

        int catchUp = mayRaisePrioritiesAgain() ? 10 : 0; // else nothing is lowered (ConsumerThreadPriority's probe)
        assertEquals(catchUp, nice.get("crm"), "crm: " + nice);
        assertEquals(catchUp, nice.get("conversation"), "conversation: " + nice);
        assertEquals(catchUp, nice.get("contact"), "contact: " + nice);
        assertEquals(0, nice.get("welcome"), "the welcome at the callback URL's priority: " + nice);
        assertEquals(0, nice.get("bot"), "the bot at the callback URL's priority: " + nice);
    }

    /** Root, or an RLIMIT_NICE that lets nice 0 be set again (proc(5) limits: "Max nice priority" 20). */
    private static boolean mayRaisePrioritiesAgain() {
        try {
            String status = Files.readString(Path.of("/proc/self/status"));
            Matcher uid = Pattern.compile("^Uid:\\s+\\d+\\s+(\\d+)", Pattern.MULTILINE).matcher(status);
            if (uid.find() && uid.group(1).equals("0")) {
                return true;
            }
            Matcher nice = Pattern.compile("^Max nice priority\\s+(\\d+)", Pattern.MULTILINE)
                .matcher(Files.readString(Path.of("/proc/self/limits")));
            return nice.find() && Integer.parseInt(nice.group(1)) >= 20;
        } catch (IOException e) {
            return false;
        }
    }

    private static Map<String, Integer> niceByHandler(String metrics) {
        Map<String, Integer> out = new TreeMap<>();
        Matcher m = NICE.matcher(metrics);
        while (m.find()) {
            out.put(m.group(1), (int) Double.parseDouble(m.group(2)));
        }
        return out;
    }

    private static String scrape() {
        HttpResponse<String> response = Http.applicationMetrics();
        assertNotNull(response, "the server answers over TLS");
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }
}
