package io.wecominbox.simulator.platform;

import io.wecominbox.simulator.config.WeComApp;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Plays WeCom's delivery of callbacks to {@code {callbackBase}/{app}}: POST, wait for the ACK, re-send the
 * same bytes on the {@link RetrySchedule} until an in-time 200 arrives or three retries are spent.
 * An attempt never starts before the previous one has ended, so with a small timeScale the next
 * attempt follows right after an ACK timeout.
 */
public final class CallbackDeliverer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CallbackDeliverer.class.getName());

    private final URI callbackBase;
    private final Duration ackTimeout;
    private final Function<String, WeComApp> apps;
    private final CallbackSealer sealer;
    private final RetrySchedule schedule;
    private final PlatformFaults faults;
    private final DeliveryLog log;
    private final Clock clock;
    private final HttpClient http;
    private final ScheduledExecutorService timer;

    public CallbackDeliverer(URI callbackBase, Duration ackTimeout, Function<String, WeComApp> apps,
                             CallbackSealer sealer, RetrySchedule schedule, PlatformFaults faults,
                             DeliveryLog log, Clock clock) {
        this.callbackBase = URI.create(callbackBase.toString().replaceAll("/+$", ""));
        this.ackTimeout = ackTimeout;
        this.apps = apps;
        this.sealer = sealer;
        this.schedule = schedule;
        this.faults = faults;
        this.log = log;
        this.clock = clock;
        // HTTP/1.1 like WeCom; a timed-out exchange closes its connection, as WeCom drops it.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(ackTimeout).build();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "wecom-sim-delivery-timer");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts delivering now; the future completes when the platform stops trying. */
    public CompletableFuture<DeliveryOutcome> deliver(SimEvent event) {
        WeComApp app = apps.apply(event.app());
        SealedCallback sealed = sealer.seal(app, event);
        URI target = URI.create(callbackBase + "/" + app.name() + "?" + sealed.query());
        List<Duration> offsets = schedule.offsetsForOneEvent();
        log.eventStarted();
        Delivery delivery = new Delivery(event, sealed.body(), target, offsets, System.nanoTime());
        delivery.attempt(1);
        return delivery.outcome;
    }

    public URI callbackUrl(String app) {
        return URI.create(callbackBase + "/" + app);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** The state of one event's delivery across its attempts. */
    private final class Delivery {
        final SimEvent event;
        final String body;
        final URI target;
        final List<Duration> offsets;
        final long firstSendNanos;
        final List<DeliveryAttempt> attempts = new ArrayList<>();
        final CompletableFuture<DeliveryOutcome> outcome = new CompletableFuture<>();

        Delivery(SimEvent event, String body, URI target, List<Duration> offsets, long firstSendNanos) {
            this.event = event;
            this.body = body;
            this.target = target;
            this.offsets = offsets;
            this.firstSendNanos = firstSendNanos;
        }

        void attempt(int number) {
            if (faults.unreachable()) {
                afterAttempt(new DeliveryAttempt(event.id(), event.app(), event.type(), number,
                        DeliveryStatus.CONNECTION_ERROR, 0, Duration.ZERO, clock.instant()));
                return;
            }
            HttpRequest request = HttpRequest.newBuilder(target).timeout(ackTimeout)
                    .header("Content-Type", "text/xml; charset=utf-8")
                    .header("User-Agent", "Mozilla/4.0 (WeCom simulator)")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            java.time.Instant sentAt = clock.instant();
            long started = System.nanoTime();
            http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                    .handle((response, error) -> {
                        Duration latency = Duration.ofNanos(System.nanoTime() - started);
                        DeliveryStatus status = classify(response, error);
                        int httpStatus = response == null ? 0 : response.statusCode();
                        DeliveryAttempt attempt = new DeliveryAttempt(event.id(), event.app(), event.type(),
                                number, status, httpStatus, latency, sentAt);
                        afterAttempt(attempt);
                        return null;
                    });
        }

        private DeliveryStatus classify(HttpResponse<String> response, Throwable error) {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                return cause instanceof HttpTimeoutException ? DeliveryStatus.TIMEOUT
                        : DeliveryStatus.CONNECTION_ERROR;
            }
            return response.statusCode() == 200 ? faults.judgeOkAnswer() : DeliveryStatus.HTTP_ERROR;
        }

        private synchronized void afterAttempt(DeliveryAttempt attempt) {
            attempts.add(attempt);
            log.record(attempt);
            if (attempt.status() == DeliveryStatus.ACKED) {
                finish(true);
                return;
            }
            int next = attempt.attempt() + 1;
            if (next > 1 + RetrySchedule.MAX_RETRIES) {
                LOG.log(Level.FINE, () -> "giving up on " + event.id() + " after " + attempt.attempt() + " attempts");
                finish(false);
                return;
            }
            long dueNanos = firstSendNanos + offsets.get(next - 1).toNanos();
            long delay = Math.max(0, dueNanos - System.nanoTime());
            try {
                timer.schedule(() -> attempt(next), delay, TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException stopped) {
                finish(false); // simulator is shutting down
            }
        }

        private void finish(boolean acknowledged) {
            DeliveryOutcome result = new DeliveryOutcome(event, acknowledged, attempts);
            log.finished(result);
            outcome.complete(result);
        }
    }

}
