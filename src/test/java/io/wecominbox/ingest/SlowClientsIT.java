package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.SlowBodyFlood;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackEnv;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Black box, issue 22: a slow-body attack on a real app's callback URL (1,200 sockets from 100 addresses, each
 * declaring 64 KiB and sending a byte every 2 s, replaced as soon as the server cuts one) while WeCom posts
 * genuine callbacks at a steady 10/s. WeCom waits 5 s for its answer, so each genuine callback is sent with a
 * 5 s timeout, as WeCom does: one not answered 200 in that time is a failed delivery.
 */
@ExtendWith(ArquillianExtension.class)
class SlowClientsIT {

    private static final int SLOW_CONNECTIONS = 1_200;
    private static final int SLOW_SOURCES = 100;
    private static final int GENUINE_PER_SECOND = 10;
    private static final int GENUINE_SECONDS = 30;
    /** WeCom's own wait for an answer. */
    private static final Duration WECOM_TIMEOUT = Duration.ofSeconds(5);

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final List<Long> answerMillis = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(WECOM_TIMEOUT).build();

    @Test
    void genuineCallbacksAreAnsweredWithinWeComsFiveSecondsWhileAThousandSlowClientsAreCut() throws Exception {
        URI base = URI.create(StackEnv.baseUrl());
        String slowPath = "/wecom/callback/customer?" + wecom.post(SampleEvents.textMessage("1", "x")).query();
        String prefix = "88" + (System.currentTimeMillis() % 1_000_000_000L);
        List<CompletableFuture<String>> answers = new ArrayList<>();

        SlowBodyFlood flood = new SlowBodyFlood(new InetSocketAddress(base.getHost(), base.getPort()), slowPath,
                64 * 1024, SLOW_CONNECTIONS, SLOW_SOURCES, 2_000).start();
        SlowBodyFlood.Result slow;
        try {
            Thread.sleep(5_000); // the attack in full before the first genuine callback
            long next = System.nanoTime();
            for (int i = 0; i < GENUINE_PER_SECOND * GENUINE_SECONDS; i++) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                next += 1_000_000_000L / GENUINE_PER_SECOND;
                answers.add(deliver(base, wecom.post(SampleEvents.textMessage(prefix + String.format("%05d", i), "hi"))));
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).join();
        } finally {
            slow = flood.stop();
        }

        Map<String, Integer> outcomes = new TreeMap<>();
        answers.forEach(answer -> outcomes.merge(answer.join(), 1, Integer::sum));
        List<Long> sorted = answerMillis.stream().sorted().toList();
        String summary = "genuine " + outcomes + " answered in ms p50/p99/max " + (sorted.isEmpty() ? "-" : sorted.get(
                sorted.size() / 2) + "/" + sorted.get(sorted.size() * 99 / 100) + "/" + sorted.get(sorted.size() - 1))
                + "; slow sockets opened " + slow.opened() + ", refused "
                + slow.refused() + ", cut " + slow.cutAfterMillis().size() + " (longest after "
                + slow.longestCutMillis() + " ms), still open at the end " + slow.stillOpenAtStop();
        System.out.println("SlowClientsIT: " + summary);

        assertEquals(Map.of("200", answers.size()), outcomes, "every genuine callback answered 200 in time: " + summary);
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> Sql.count(
                "SELECT count(DISTINCT event_key) FROM callback_log WHERE event_key LIKE ?",
                "%:msg:" + prefix + "%") == answers.size()), "each answered callback has its callback_log row");
        // The server cuts a slow body 5 s after it started (wecom.ingest.body-timeout-millis, checked between the
        // 2 s bytes), so a socket lives ~7 s: bounded generously here, a benchmark measures it.
        assertTrue(slow.cutAfterMillis().size() >= SLOW_CONNECTIONS,
                "the server cut slow sockets and the attack replaced them: " + summary);
        assertTrue(slow.longestCutMillis() < 20_000, "no slow socket outlived the body deadline by much: " + summary);
    }

    @Test
    void anAddressOverItsInFlightLimitIsRefused429AtOnceAndHasItsPlacesBackWhenItsRequestsEnd() throws Exception {
        URI base = URI.create(StackEnv.baseUrl());
        InetAddress attacker = InetAddress.getByName("127.0.0.77");
        String slowHead = "POST /wecom/callback/customer?" + wecom.post(SampleEvents.textMessage("1", "x")).query()
                + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n\r\n<";
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 100; i++) { // the server's default wecom.ingest.limit.source-in-flight
                Socket socket = new Socket(base.getHost(), base.getPort(), attacker, 0);
                socket.getOutputStream().write(slowHead.getBytes(StandardCharsets.US_ASCII));
                held.add(socket);
            }
            // The server admits the held ones on its own threads, a few milliseconds each: probe until one is
            // refused. An admitted probe waits for its body like the others (no answer within 300 ms) and is held
            // too. All of it well before the first held bodies' 5 s deadline.
            String over = "(no probe refused)";
            for (int probe = 0; probe < 20 && !over.startsWith("HTTP/1.1 429"); probe++) {
                Socket socket = new Socket(base.getHost(), base.getPort(), attacker, 0);
                held.add(socket);
                socket.getOutputStream().write(slowHead.getBytes(StandardCharsets.US_ASCII));
                socket.setSoTimeout(300);
                try {
                    byte[] answer = new byte[4096];
                    int n = socket.getInputStream().read(answer);
                    over = n < 0 ? "(closed without an answer)" : new String(answer, 0, n, StandardCharsets.UTF_8);
                } catch (java.net.SocketTimeoutException admitted) {
                    over = "(admitted)";
                }
            }
            assertTrue(over.startsWith("HTTP/1.1 429"), over);
            assertTrue(over.contains("\"error\":\"source_over_limit\""), over);
            assertTrue(over.contains("Retry-After: 1"), over);
            assertTrue(held.size() <= 110, "refused at about the limit of 100: after " + held.size() + " sockets");
            String genuine = postFrom(attacker, base, signedRequest(base));
            assertTrue(genuine.startsWith("HTTP/1.1 429"), "a signed callback from that address too: " + genuine);
            assertTrue(postFrom(InetAddress.getByName("127.0.0.78"), base, signedRequest(base)).startsWith("HTTP/1.1 200"),
                    "another address is not affected");
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
        assertTrue(Poll.until(Duration.ofSeconds(30),
                () -> postFrom(attacker, base, signedRequest(base)).startsWith("HTTP/1.1 200")),
                "the address has its places back once its requests ended");
    }

    private String signedRequest(URI base) {
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage("89" + System.nanoTime() % 1_000_000_000L, "x"));
        byte[] body = wire.body().getBytes(StandardCharsets.UTF_8);
        return "POST /wecom/callback/customer?" + wire.query() + " HTTP/1.1\r\nHost: " + base.getHost()
                + "\r\nContent-Type: text/xml\r\nConnection: close\r\nContent-Length: " + body.length + "\r\n\r\n"
                + wire.body();
    }

    /** Sends {@code request} from {@code source} and returns the answer as text (status line, headers, body). */
    private static String postFrom(InetAddress source, URI base, String request) {
        try (Socket socket = new Socket(base.getHost(), base.getPort(), source, 0)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            byte[] answer = new byte[4096];
            int n = socket.getInputStream().read(answer);
            return n < 0 ? "(closed without an answer)" : new String(answer, 0, n, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "(" + e + ")";
        }
    }

    /** One genuine callback as WeCom sends it; resolves to the status, or to what went wrong. */
    private CompletableFuture<String> deliver(URI base, SignedCallbacks.Wire wire) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/wecom/callback/customer?" + wire.query()))
                .timeout(WECOM_TIMEOUT).header("Content-Type", "text/xml")
                .POST(HttpRequest.BodyPublishers.ofString(wire.body())).build();
        long sent = System.nanoTime();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> {
                    synchronized (answerMillis) {
                        answerMillis.add((System.nanoTime() - sent) / 1_000_000L);
                    }
                    return Integer.toString(response.statusCode());
                })
                .exceptionally(failure -> "no answer (" + rootName(failure) + ")");
    }

    private static String rootName(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }
}
