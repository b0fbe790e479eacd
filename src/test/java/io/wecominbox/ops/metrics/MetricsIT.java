package io.wecominbox.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.ingest.CallbackClient;
import io.wecominbox.ingest.SignedCallbacks;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Black box: real callbacks show up in Prometheus text at /metrics, with names as labels and nothing secret. */
@ExtendWith(ArquillianExtension.class)
class MetricsIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();

    @Test
    void deliveriesRejectionsAckTimesRetryRateAndQueueDepthsAreExportedWithoutSecrets() {
        String msgId = Long.toString(7_000_000_000_000_000_000L + System.nanoTime() % 1_000_000_000_000L);
        assertEquals(200, client.post("customer", wecom.post(SampleEvents.textMessage(msgId, "metrics"))).statusCode());
        SignedCallbacks.Wire good = wecom.post(SampleEvents.textMessage(msgId + "1", "x"));
        assertEquals(401, client.post("customer", good.query().replaceFirst("msg_signature=[^&]+", "msg_signature=00"),
                good.body()).statusCode());

        AtomicReference<String> text = new AtomicReference<>("");
        boolean complete = Poll.until(Duration.ofSeconds(20), () -> {
            text.set(scrape());
            return text.get().contains("wecom_broker_queue_depth{") && text.get().contains("wecom_retry_rate{");
        });
        String metrics = text.get();
        assertTrue(complete, "queue depth and retry rate gauges appear:\n" + metrics);

        assertTrue(line(metrics, "wecom_deliveries_total{", "app=\"customer\"", "event_type=\"text\"", "outcome=\"accepted\""),
                "accepted deliveries by app and type");
        assertTrue(line(metrics, "wecom_deliveries_total{", "app=\"customer\"", "outcome=\"rejected\"", "reason=\"bad_signature\""),
                "rejections by reason");
        assertTrue(line(metrics, "wecom_callback_ack_seconds_bucket{", "app=\"customer\"", "outcome=\"accepted\"", "le=\"0.1\""),
                "ACK latency histogram buckets");
        assertTrue(line(metrics, "wecom_retry_rate{", "app=\"customer\""), "retry rate per app");
        assertTrue(line(metrics, "wecom_deliveries_total{", "node=\"" + StackEnv.libertyServer() + "\""),
                "every figure names its node (two nodes behind a load balancer are told apart)");
        assertTrue(line(metrics, "wecom_broker_queue_depth{", "queue=\"wecom.probe\""), "queue depth per queue");
        assertTrue(line(metrics, "wecom_broker_queue_depth{", "queue=\"DLQ\""), "dead letters");

        for (String secret : List.of(msgId, "customer:msg:", StackEnv.wecomApp("customer", "token"),
                StackEnv.wecomApp("customer", "encoding-aes-key"), StackEnv.wecomApp("customer", "secret"),
                Http.adminPassword(), StackEnv.get("DB_PASSWORD", "-"), StackEnv.get("BROKER_PASSWORD", "-"),
                StackEnv.get("ARTEMIS_ADMIN_PASSWORD", "-"), StackEnv.get("ARTEMIS_MONITOR_PASSWORD", "-"))) {
            assertFalse(metrics.contains(secret), "no event key, token, key or password in /metrics");
        }
    }

    @Test
    void metricsNeedTheAdminLoginAndTls() {
        HttpResponse<String> anonymous = Http.sendTls(HttpRequest.newBuilder(Http.tlsUri("/metrics")).GET());
        assertNotNull(anonymous);
        assertEquals(401, anonymous.statusCode());
        HttpResponse<String> wrong = Http.sendTls(HttpRequest.newBuilder(Http.tlsUri("/metrics"))
                .header("Authorization", Http.basic(Http.adminUser(), "wrong")).GET());
        assertEquals(401, wrong.statusCode());
        HttpResponse<String> clearText = Http.getAsAdmin("/metrics"); // Liberty redirects to its HTTPS port
        assertTrue(clearText.statusCode() != 200 && !clearText.body().contains("wecom_"),
                "no metrics over plain HTTP: " + clearText.statusCode());
    }

    private static String scrape() {
        HttpResponse<String> response = Http.applicationMetrics();
        assertNotNull(response, "the server answers over TLS");
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private static boolean line(String metrics, String prefix, String... labels) {
        return metrics.lines().anyMatch(l -> l.startsWith(prefix) && List.of(labels).stream().allMatch(l::contains));
    }
}
