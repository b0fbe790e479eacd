package io.wecominbox.simulator.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.directory.CustomerDirectory;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The WeCom API side: gettoken, send_welcome_msg, message/send, get_follow_user_list and batch/get_by_user
 * under {@code /cgi-bin} (the last two from the {@link CustomerDirectory}, within a frequency limit), with faults
 * injected per call, every call recorded, and the control/inspection endpoints under {@code /sim}.
 */
public final class WeComApiServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WeComApiServer.class.getName());

    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, ApiEndpoint> endpoints;
    private final ApiFaults faults;
    private final ApiCallLog calls;
    private final AccessTokens tokens;
    private final WelcomeCodes welcomeCodes;
    private final Clock clock;
    private volatile Duration slowDelay;
    private volatile ApiTiming timing = ApiTiming.NONE;
    private final Random random;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();

    private final FrequencyLimit frequencyLimit;

    public WeComApiServer(int port, Supplier<Collection<WeComApp>> apps, Clock clock, Random random,
                          Duration slowDelay, SimControlHandler.Extras extras, CustomerDirectory directory)
            throws IOException {
        this.clock = clock;
        this.slowDelay = slowDelay;
        this.faults = new ApiFaults(random);
        this.random = random;
        this.calls = new ApiCallLog();
        this.tokens = new AccessTokens(clock);
        this.welcomeCodes = new WelcomeCodes(clock);
        this.frequencyLimit = new FrequencyLimit(clock);
        this.endpoints = Map.of(
                WeComApiPaths.GET_TOKEN, new GetTokenEndpoint(apps, tokens),
                WeComApiPaths.SEND_WELCOME_MSG, new SendWelcomeMsgEndpoint(tokens, welcomeCodes),
                WeComApiPaths.MESSAGE_SEND, new MessageSendEndpoint(tokens, clock),
                WeComApiPaths.GET_FOLLOW_USER_LIST, new FollowUserListEndpoint(tokens, directory, frequencyLimit),
                WeComApiPaths.BATCH_GET_BY_USER, new BatchGetByUserEndpoint(tokens, directory, frequencyLimit));
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        // Many threads: a SLOW fault sleeps in its handler and must not hold up other callers.
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "wecom-sim-api");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/cgi-bin/", this::handleApi);
        server.createContext("/sim/", new SimControlHandler(this, extras));
    }

    public void start() {
        server.start();
        LOG.info(() -> "WeCom API simulator listening on " + baseUrl());
    }

    /** Base URL to configure as {@code wecom.api.base-url}. */
    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public ApiFaults faults() {
        return faults;
    }

    public ApiCallLog calls() {
        return calls;
    }

    public AccessTokens tokens() {
        return tokens;
    }

    public WelcomeCodes welcomeCodes() {
        return welcomeCodes;
    }

    public FrequencyLimit frequencyLimit() {
        return frequencyLimit;
    }

    public void slowDelay(Duration delay) {
        this.slowDelay = delay;
    }

    /** Latency, jitter and slow tail of every API answer (default: none). */
    public void timing(ApiTiming timing) {
        this.timing = timing;
    }

    public ApiTiming timing() {
        return timing;
    }

    /**
     * Forgets recorded calls, fault rules, timing and frequency counts; tokens, welcome codes and the customer
     * directory stay (in-flight work may use them).
     */
    public void reset() {
        calls.clear();
        faults.clear();
        timing = ApiTiming.NONE;
        frequencyLimit.clear();
        inFlight.values().forEach(f -> f.max.set(f.now.get()));
    }

    /** The most calls of {@code path} that were being answered at the same time since the last reset. */
    public int maxConcurrentCalls(String path) {
        InFlight f = inFlight.get(path);
        return f == null ? 0 : f.max.get();
    }

    /** Calls of one path being answered now, and the most there were at once. */
    private static final class InFlight {
        final AtomicInteger now = new AtomicInteger();
        final AtomicInteger max = new AtomicInteger();

        void enter() {
            max.accumulateAndGet(now.incrementAndGet(), Math::max);
        }

        void leave() {
            now.decrementAndGet();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handleApi(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        InFlight answering = inFlight.computeIfAbsent(path, p -> new InFlight());
        answering.enter();
        try {
            answer(exchange, path);
        } finally {
            answering.leave();
        }
    }

    private void answer(HttpExchange exchange, String path) throws IOException {
        try (exchange) {
            ApiEndpoint endpoint = endpoints.get(path);
            if (endpoint == null) {
                send(exchange, 404, "{\"errcode\":404,\"errmsg\":\"no such api in the simulator\"}");
                return;
            }
            Map<String, String> query = QueryString.parse(exchange.getRequestURI().getRawQuery());
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Optional<ApiFault> fault = faults.next(path);
            CallFacts facts = new CallFacts();
            JsonObject answer = null;
            int httpStatus = 200;
            endpoint.describe(query, body, facts);
            Duration delay;
            synchronized (random) {
                delay = timing.nextDelay(random);
            }
            // the message endpoints here; the directory endpoints count their own calls (FrequencyLimit)
            if ((WeComApiPaths.SEND_WELCOME_MSG.equals(path) || WeComApiPaths.MESSAGE_SEND.equals(path))
                    && !frequencyLimit.allow(String.valueOf(facts.app), path)) {
                answer = JsonAnswers.error(WeComErrors.API_FREQUENCY_LIMIT);
                record(path, body, facts, httpStatus, answer, Optional.empty());
                sleep(delay);
                send(exchange, httpStatus, answer.toString());
                return;
            }
            if (fault.isPresent() && fault.get() == ApiFault.INVALIDATE_TOKEN) {
                tokens.expire(query.get("access_token"));
            }
            if (fault.isEmpty() || fault.get().effectPerformed() || fault.get() == ApiFault.INVALIDATE_TOKEN) {
                answer = endpoint.handle(query, body, facts);
            } else {
                switch (fault.get()) {
                    case SYSTEM_BUSY -> answer = JsonAnswers.error(WeComErrors.SYSTEM_BUSY);
                    case OTHER_APP_SENDING -> answer = JsonAnswers.error(WeComErrors.OTHER_APP_SENDING);
                    case FREQUENCY_LIMIT -> answer = JsonAnswers.error(WeComErrors.API_FREQUENCY_LIMIT);
                    case HTTP_500 -> httpStatus = 500;
                    case HTTP_502 -> httpStatus = 502;
                    case DROP_BEFORE_EFFECT -> httpStatus = 0;
                    default -> throw new IllegalStateException("unhandled fault " + fault.get());
                }
            }
            if (fault.isPresent() && fault.get() == ApiFault.DROP_AFTER_EFFECT) {
                httpStatus = 0;
            }
            record(path, body, facts, httpStatus, answer, fault);
            sleep(delay);
            if (fault.isPresent() && fault.get() == ApiFault.SLOW) {
                sleep(slowDelay);
            }
            if (httpStatus == 0) {
                return; // closing without response headers drops the connection: the caller gets no answer
            }
            send(exchange, httpStatus, answer != null ? answer.toString()
                    : (httpStatus == 502 ? "<html>502 Bad Gateway</html>" : "<html>500 Internal Server Error</html>"));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "API simulator failed on " + exchange.getRequestURI().getPath(), e);
            throw e;
        }
    }

    private void record(String path, String body, CallFacts facts, int httpStatus,
                        JsonObject answer, Optional<ApiFault> fault) {
        Optional<Integer> errcode = answer == null ? Optional.empty() : Optional.of(answer.getInt("errcode"));
        // The query is not kept: it carries the access token or the corp secret.
        calls.record(new ApiCall(path, Optional.ofNullable(facts.app), Optional.ofNullable(facts.corpId),
                body, httpStatus, errcode, clock.instant(),
                Optional.ofNullable(facts.welcomeCode), Optional.ofNullable(facts.touser),
                Optional.ofNullable(facts.content), Map.copyOf(facts.extraFields), fault, facts.duplicateSuppressed));
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type",
                body.startsWith("{") ? "application/json; charset=UTF-8" : "text/html");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void sleep(Duration delay) {
        if (delay.isZero()) {
            return;
        }
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
