package io.wecominbox.ingest;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * WeCom's callback URL, {@code /wecom/callback/{app}} (WEB-INF/web.xml), one per app. It admits a request by its
 * source address ({@link CallbackAdmission}) before a byte of the body, then reads a POST's body without holding
 * a thread while it arrives (servlet non-blocking I/O) and hands the whole of it to {@link CallbackIntake}.
 *
 * <p>Why not JAX-RS: a blocking read holds a request thread for as long as the client takes, and 1,500 clients
 * that declare 64 KiB and send a byte every few seconds then hold 1,500 threads while WeCom's genuine callbacks
 * queue behind them past its 5 s. Read this way a slow client holds a socket and a 4 KiB buffer, and is cut when
 * its body is not complete {@code wecom.ingest.body-timeout-millis} after it arrived (408 body_too_slow). An
 * async dispatch back into JAX-RS was tried: under load it answered requests with each other's outcomes.
 * Everything the request is needed for (app, query, address) is read on the container's thread before going
 * async, and nothing touches the request once the container reports it complete.
 */
public class CallbackServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(CallbackServlet.class.getName());

    /**
     * No container timer for the async request (0: none). Liberty schedules one per request, and a cancelled timer
     * stays queued until it would have fired, holding its request, response, listeners and buffers: at 500
     * callbacks/s an 8.5 s timer kept about 3,900 answered requests and 32 MB alive, which every young collection
     * copied and then promoted (docs/benchmarks.md). Every request ends without it: the body deadline below, the
     * endpoint's read timeout for a client that stops sending, the commit wait once the body is in.
     */
    private static final long NO_CONTAINER_TIMEOUT = 0;

    /**
     * How often the body deadlines are checked. A sweep cuts what falls due before the next one, so a slow body
     * is cut up to this much early, never late: a silent client must get its 408 before the endpoint's own
     * read timeout (the same 5 s, counted from its last byte) cuts the connection as a broken-off body.
     */
    private static final long DEADLINE_SWEEP_MILLIS = 50;

    @Inject
    private transient CallbackIntake intake;

    @Inject
    private transient CallbackAdmission admission;

    @Inject
    private transient IngestSettings settings;

    /** Sweeps the body deadlines and answers the expired (the container's own async timeout answers 500, not 408). */
    @Resource
    private transient ManagedScheduledExecutorService scheduler;

    private transient BodyDeadlines deadlines;
    private transient Future<?> sweep;
    /** Read once: every callback uses it. */
    private long bodyTimeoutNanos;

    @Override
    public void init() throws ServletException {
        bodyTimeoutNanos = settings.bodyTimeout().toNanos();
        deadlines = new BodyDeadlines(scheduler);
        long sweepNanos = TimeUnit.MILLISECONDS.toNanos(DEADLINE_SWEEP_MILLIS);
        sweep = scheduler.scheduleWithFixedDelay(() -> deadlines.expireDue(System.nanoTime() + sweepNanos),
                DEADLINE_SWEEP_MILLIS, DEADLINE_SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void destroy() {
        if (sweep != null) {
            sweep.cancel(false);
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long arrived = System.nanoTime();
        String app = appOf(request);
        String source = request.getRemoteAddr();
        RequestLimiter.Permit permit = admission.admitSource(source);
        try {
            CallbackAnswer answer = permit.admitted()
                    ? intake.verifyUrl(app, request.getQueryString(), source)
                    : intake.refuse(app, overLimit(permit), source, false, arrived);
            answer.writeTo(response);
        } finally {
            admission.releaseSource(permit);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        long arrived = System.nanoTime();
        Delivery delivery = new Delivery(appOf(request), request.getQueryString(), request.getRemoteAddr(), arrived);
        RequestLimiter.Permit permit = admission.admitSource(delivery.source);
        if (!permit.admitted()) {
            intake.refuse(delivery.app, overLimit(permit), delivery.source, true, arrived).writeTo(response);
            return;
        }
        boolean async = false;
        try {
            CappedBody body;
            try {
                body = new CappedBody(request.getContentLengthLong(), settings.maxBodyBytes());
            } catch (CallbackRejected tooLarge) {
                intake.deliver(delivery.app, delivery.query, ArrivedBody.refused(tooLarge, arrived), delivery.source)
                        .writeTo(response); // refused before a byte is read: no need to go async
                return;
            }
            AsyncContext context = request.startAsync();
            context.setTimeout(NO_CONTAINER_TIMEOUT);
            ServletInputStream in = request.getInputStream();
            BodyReader reader = new BodyReader(context, in, body, delivery, () -> admission.releaseSource(permit));
            context.addListener(reader);
            async = true;
            reader.deadline = deadlines.register(arrived + bodyTimeoutNanos, reader::tooSlow);
            in.setReadListener(reader);
        } finally {
            if (!async) {
                admission.releaseSource(permit);
            }
        }
    }

    /** The {app} of /wecom/callback/{app}; a deeper path is no app's (answered 404 unknown_app). */
    private static String appOf(HttpServletRequest request) {
        String path = request.getPathInfo();
        String app = path == null || path.length() < 2 ? "" : path.substring(1);
        return app.indexOf('/') >= 0 ? "" : app;
    }

    private static CallbackRejected overLimit(RequestLimiter.Permit permit) {
        return new CallbackRejected(Rejection.SOURCE_OVER_LIMIT, permit.verdict().name().toLowerCase(Locale.ROOT));
    }

    /** What the request is needed for, taken on the container's thread before going async. */
    private record Delivery(String app, String query, String source, long arrivedNanos) {
    }

    /**
     * Collects the chunks as the container reports them, then answers once: the body complete, too large, too
     * slow or broken off. Answering runs on the thread that ends the read (a container thread, or the deadline's).
     */
    private final class BodyReader implements ReadListener, AsyncListener {

        private final AsyncContext context;
        private final ServletInputStream in;
        private final CappedBody body;
        private final Delivery delivery;
        private final Runnable answered;
        private final byte[] chunk = new byte[CappedBody.FIRST_CHUNK_BYTES];
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile BodyDeadlines.Pending deadline;

        BodyReader(AsyncContext context, ServletInputStream in, CappedBody body, Delivery delivery, Runnable answered) {
            this.context = context;
            this.in = in;
            this.body = body;
            this.delivery = delivery;
            this.answered = answered;
        }

        @Override
        public void onDataAvailable() throws IOException {
            while (!ended.get() && in.isReady()) {
                int n = in.read(chunk);
                if (n < 0) {
                    return; // onAllDataRead follows
                }
                try {
                    body.append(chunk, n);
                } catch (CallbackRejected tooLarge) {
                    answer(ArrivedBody.refused(tooLarge, delivery.arrivedNanos)); // the rest stays unread
                    return;
                }
            }
        }

        @Override
        public void onAllDataRead() {
            answer(ArrivedBody.complete(body.bytes(), delivery.arrivedNanos));
        }

        @Override
        public void onError(Throwable broken) {
            // the client broke off, or the endpoint's readTimeout cut it: a client problem, answered 4xx
            answer(ArrivedBody.refused(new CallbackRejected(Rejection.BODY_INCOMPLETE, "body broken off after "
                    + body.size() + " bytes (" + broken.getClass().getSimpleName() + ")"), delivery.arrivedNanos));
        }

        /** The body deadline passed with the body incomplete: 408 body_too_slow. */
        void tooSlow() {
            long millis = (System.nanoTime() - delivery.arrivedNanos) / 1_000_000L;
            answer(ArrivedBody.refused(new CallbackRejected(Rejection.BODY_TOO_SLOW, body.size() + " bytes after "
                    + millis + " ms, body not complete"), delivery.arrivedNanos));
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            tooSlow(); // never with NO_CONTAINER_TIMEOUT; kept should a container impose its own
        }

        @Override
        public void onError(AsyncEvent event) {
            onError(event.getThrowable() == null ? new IOException("async error") : event.getThrowable());
        }

        @Override
        public void onComplete(AsyncEvent event) {
            // ended, by us or by the container: the request may be reused for another one from now on, so a late
            // deadline or error must never touch it
            ended.set(true);
            answered.run(); // the source's place is free once the answer is out
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // never restarted
        }

        private void answer(ArrivedBody arrived) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            BodyDeadlines.Pending pending = deadline;
            if (pending != null) {
                pending.cancel();
            }
            try {
                intake.deliver(delivery.app, delivery.query, arrived, delivery.source)
                        .writeTo((HttpServletResponse) context.getResponse());
            } catch (IOException | RuntimeException clientGone) {
                // the answer could not be written (the client left): what was stored stays stored
                LOG.log(Level.FINE, "callback answer not written", clientGone);
            } finally {
                try {
                    context.complete();
                } catch (IllegalStateException alreadyEnded) {
                    LOG.log(Level.FINE, "callback request ended before its answer", alreadyEnded);
                }
            }
        }
    }
}
