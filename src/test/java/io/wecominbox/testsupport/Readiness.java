package io.wecominbox.testsupport;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * /health/ready as a test sees it. The node probes its dependencies in the background once a second, so a
 * change (a broker stopped) shows within a second or two: a test waits for it instead of asking once.
 * /health/ready shows each check's status (and a reason code when DOWN); the details an operator reads (what
 * the ACK path stores into, each handler's route) are in the admin report, {@link #details()}.
 */
public final class Readiness {

    /** The check a load balancer routes on, as it appears in the readiness JSON. */
    public static final String ACK_PATH_UP = "\"name\":\"ack-path\",\"status\":\"UP\"";
    public static final String ACK_PATH_DOWN = "\"name\":\"ack-path\",\"status\":\"DOWN\"";
    public static final String OPS_HEALTH = "/api/ops/health";

    private Readiness() {
    }

    /** The first answer within 15 s that satisfies {@code expected}, else the last one seen (for the message). */
    public static HttpResponse<String> await(Predicate<HttpResponse<String>> expected) {
        AtomicReference<HttpResponse<String>> last = new AtomicReference<>();
        Poll.until(Duration.ofSeconds(15), () -> {
            HttpResponse<String> answer = Http.get("/health/ready");
            last.set(answer);
            return answer != null && expected.test(answer);
        });
        return last.get();
    }

    /** The admin report of every check with its details (GET /api/ops/health as the administrator). */
    public static String details() {
        HttpResponse<String> answer = Http.getAsAdmin(OPS_HEALTH);
        return answer == null ? "" : answer.body();
    }

    /** The first admin report within 15 s that satisfies {@code expected}, else the last one seen. */
    public static String awaitDetails(Predicate<String> expected) {
        AtomicReference<String> last = new AtomicReference<>("");
        Poll.until(Duration.ofSeconds(15), () -> {
            String report = details();
            last.set(report);
            return expected.test(report);
        });
        return last.get();
    }

    public static Predicate<HttpResponse<String>> status(int code) {
        return answer -> answer.statusCode() == code;
    }

    public static Predicate<HttpResponse<String>> statusAndBody(int code, String contained) {
        return answer -> answer.statusCode() == code && answer.body().contains(contained);
    }
}
