package io.wecominbox.ops.outage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.Http;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.Readiness;
import io.wecominbox.testsupport.SkipOutsideCi;
import io.wecominbox.testsupport.Sql;
import io.wecominbox.testsupport.StackScripts;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Black box: the broker stops under a running server, then comes back; the pipeline probe (XA) fails cleanly. */
@ExtendWith(ArquillianExtension.class)
class BrokerOutageIT {

    @Deployment(testable = false)
    static WebArchive deployment() {
        return Deployments.application();
    }

    @Test
    void withTheBrokerDownARequestFailsFastWithNothingWrittenAndWorksAgainWithoutARestart() {
        SkipOutsideCi.assumeOrFailInCi(StackScripts.stackOwnsBroker(), "the broker is not one the stack started");
        String label = "outage-" + UUID.randomUUID();
        StackScripts.run("artemis.sh", "stop");
        try {
            long started = System.nanoTime();
            HttpResponse<String> answer = Http.postAsAdmin("/api/ops/probes?label=" + label);
            long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();

            assertNotNull(answer, "the server answers");
            assertEquals(503, answer.statusCode());
            assertTrue(answer.body().contains("unavailable"), answer.body());
            assertFalse(answer.body().contains("Exception"), "no stack trace or class names: " + answer.body());
            // The probe is the ops self-test of the XA path, not a callback (callbacks need no broker): bounded
            // generously, so that a loaded machine's slow purge of dead sessions cannot fail it.
            assertTrue(millis < 15_000, "answered in " + millis + " ms");
            assertEquals(0, Sql.count("SELECT count(*) FROM pipeline_probe WHERE label = ?", label),
                    "nothing half-written");

            HttpResponse<String> ready = Readiness.await(Readiness.statusAndBody(503, Readiness.ACK_PATH_UP));
            assertEquals(503, ready.statusCode(), "not ready while the broker is down");
            assertTrue(ready.body().contains(Readiness.ACK_PATH_UP), "yet the ACK path accepts (a load balancer routes on it): "
                    + ready.body());
            long askedAt = System.nanoTime();
            Http.get("/health/ready");
            long readyMillis = (System.nanoTime() - askedAt) / 1_000_000;
            // answered from the background probes, not after the broker's timeouts (it took ~9 s inline), so a
            // load balancer's health check (2-3 s) gets its answer: bounded generously, it is ~10 ms
            assertTrue(readyMillis < 3_000, "readiness answered in " + readyMillis + " ms while the broker is down");
        } finally {
            StackScripts.run("artemis.sh", "start");
        }

        AtomicLong probeId = new AtomicLong();
        assertTrue(Poll.until(Duration.ofSeconds(60), () -> {
            HttpResponse<String> answer = Http.postAsAdmin("/api/ops/probes?label=" + label + "-back");
            if (answer == null || answer.statusCode() != 201) {
                return false;
            }
            probeId.set(Long.parseLong(answer.body().replaceAll("\\D+", "")));
            return true;
        }), "requests work again after the broker is back");
        assertTrue(Poll.until(Duration.ofSeconds(60),
                () -> Sql.count("SELECT count(*) FROM pipeline_probe_receipt WHERE probe_id = ?", probeId.get()) == 1),
                "the message-driven bean reconnected by itself and consumed the new probe");
        assertEquals(200, Readiness.await(Readiness.status(200)).statusCode(), "ready again");
    }
}
