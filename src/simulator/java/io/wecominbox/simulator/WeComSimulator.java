package io.wecominbox.simulator;

import io.wecominbox.simulator.api.ApiCallLog;
import io.wecominbox.simulator.api.ApiFault;
import io.wecominbox.simulator.api.ApiFaults;
import io.wecominbox.simulator.api.ApiTiming;
import io.wecominbox.simulator.api.SimControlHandler;
import io.wecominbox.simulator.api.WeComApiServer;
import io.wecominbox.simulator.api.WelcomeCodes;
import io.wecominbox.simulator.config.SimulatorConfig;
import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.directory.CustomerDirectory;
import io.wecominbox.simulator.platform.CallbackDeliverer;
import io.wecominbox.simulator.platform.DeliveryLog;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.EventFactory;
import io.wecominbox.simulator.platform.EventType;
import io.wecominbox.simulator.platform.PlatformFaults;
import io.wecominbox.simulator.platform.RetrySchedule;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.simulator.platform.WeComCryptoSealer;
import io.wecominbox.simulator.scenario.Scenario;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A local fake of the WeCom platform for demos and end-to-end tests: the platform side delivers encrypted,
 * signed callbacks to {@code {callbackBase}/{app}} with WeCom's retries; the API side serves gettoken,
 * send_welcome_msg, message/send and, from its customer directory, get_follow_user_list and
 * batch/get_by_user. Both sides inject faults and count everything.
 *
 * <pre>{@code
 * try (WeComSimulator sim = WeComSimulator.builder().config(config)
 *         .callbackBase(URI.create("http://127.0.0.1:9080/wecom/callback")).timeScale(0.1).build().start()) {
 *     // point the app's wecom.api.base-url at sim.apiBaseUrl()
 *     DeliveryOutcome outcome = sim.send("customer", EventType.ADD_EXTERNAL_CONTACT);
 *     assertEquals(1, sim.successfulWelcomeSends(outcome.event().welcomeCode()));
 * }
 * }</pre>
 */
public final class WeComSimulator implements AutoCloseable {

    private final Map<String, WeComApp> apps;
    private final Optional<URI> callbackBase;
    private final Duration ackTimeout;
    private final RetrySchedule schedule;
    private final Random random;
    private final EventFactory events;
    private final PlatformFaults platformFaults;
    private final DeliveryLog deliveries = new DeliveryLog();
    private final WeComApiServer api;
    private final CallbackDeliverer deliverer;
    private final CustomerDirectory directory = new CustomerDirectory();

    private WeComSimulator(Builder b) throws IOException {
        this.apps = Map.copyOf(b.apps);
        this.callbackBase = Optional.ofNullable(b.callbackBase);
        this.ackTimeout = b.ackTimeout;
        this.random = b.seed == null ? new Random() : new Random(b.seed);
        this.schedule = new RetrySchedule(b.timeScale, new Random(random.nextLong()));
        this.platformFaults = new PlatformFaults(new Random(random.nextLong()));
        this.api = new WeComApiServer(b.apiPort, apps::values, b.clock, new Random(random.nextLong()),
                b.apiSlowDelay, new PlatformControl(), directory);
        WelcomeCodes codes = api.welcomeCodes();
        this.events = new EventFactory(b.clock, new Random(random.nextLong()), codes::register, directory);
        this.deliverer = callbackBase.map(base -> new CallbackDeliverer(base, ackTimeout, this::app,
                new WeComCryptoSealer(b.clock, new Random(random.nextLong())), schedule, platformFaults,
                deliveries, b.clock)).orElse(null);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts the API server; the platform side needs no start. Returns this for chaining. */
    public WeComSimulator start() {
        api.start();
        return this;
    }

    /** Stops the API server and abandons deliveries still waiting for a retry. */
    @Override
    public void close() {
        if (deliverer != null) deliverer.close();
        api.close();
    }

    // ---- addresses -------------------------------------------------------------------------------

    /** What the app must use as {@code wecom.api.base-url}. */
    public URI apiBaseUrl() {
        return api.baseUrl();
    }

    /** Where callbacks for this app are POSTed: {@code {callbackBase}/{app}}. */
    public URI callbackUrl(String app) {
        return platform().callbackUrl(app(app).name());
    }

    public Map<String, WeComApp> apps() {
        return apps;
    }

    // ---- platform side: generate and deliver callbacks ----------------------------------------------

    /** A new event of this type for the app (an ADD_EXTERNAL_CONTACT registers its WelcomeCode now). */
    public SimEvent newEvent(String app, EventType type) {
        return events.create(app(app), type);
    }

    /** A text message from this member (e.g. one member per message, to count replies per message). */
    public SimEvent newTextMessageFrom(String app, String member) {
        return events.textMessageFrom(app(app), member);
    }

    /** This member adds a new customer (with a WelcomeCode when asked); the directory records it at once. */
    public SimEvent newContactAddedBy(String app, String member, boolean withWelcomeCode) {
        return events.contactAddedBy(app(app), member, withWelcomeCode);
    }

    /** The member adds this customer again (after a delete). */
    public SimEvent newContactReAdded(String app, String member, String externalUserId) {
        return events.contactReAdded(app(app), member, externalUserId, true);
    }

    /** The customer deletes the member (del_follow_user) or the member the customer (del_external_contact). */
    public SimEvent newContactDeleted(String app, String member, String externalUserId, boolean byCustomer) {
        return events.contactDeleted(app(app), member, externalUserId, byCustomer);
    }

    /** WeCom's record of who follows whom, which the API side lists (kept in step with the callbacks). */
    public CustomerDirectory directory() {
        return directory;
    }

    /**
     * The outage scenario: the app is unreachable for longer than WeCom's retry horizon while these events
     * happen, so each is tried four times and then given up for good (WeCom still knows the relationships).
     * Returns their outcomes (none acknowledged); the app is reachable again afterwards.
     */
    public List<DeliveryOutcome> deliverDuringOutage(List<SimEvent> events) {
        platformFaults.unreachable(true);
        try {
            List<CompletableFuture<DeliveryOutcome>> pending = events.stream().map(this::deliverAsync).toList();
            return pending.stream().map(this::await).toList();
        } finally {
            platformFaults.unreachable(false);
        }
    }

    /** While on, every callback attempt fails to connect (see {@link #deliverDuringOutage}). */
    public void appUnreachable(boolean on) {
        platformFaults.unreachable(on);
    }

    /** WeCom's frequency limit per app and API (default 10,000 a minute); 45009 beyond it. */
    public void apiFrequencyLimit(int perMinute) {
        api.frequencyLimit().perMinute(perMinute);
    }

    /** create_user and update_user for one new member, in the same second, as WeCom fires them. */
    public List<SimEvent> newMemberCreated(String app) {
        return events.memberCreated(app(app));
    }

    /** Starts delivering; completes when acknowledged or after the last retry. */
    public CompletableFuture<DeliveryOutcome> deliverAsync(SimEvent event) {
        return platform().deliver(event);
    }

    /** Delivers and waits for the outcome (at most {@link #longestDelivery()}). */
    public DeliveryOutcome deliver(SimEvent event) {
        return await(deliverAsync(event));
    }

    /** Generates one event and waits for its delivery outcome. */
    public DeliveryOutcome send(String app, EventType type) {
        return deliver(newEvent(app, type));
    }

    /** Generates {@code n} events, delivers them concurrently and waits for all outcomes (in order). */
    public List<DeliveryOutcome> send(String app, EventType type, int n) {
        List<CompletableFuture<DeliveryOutcome>> pending = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            pending.add(deliverAsync(newEvent(app, type)));
        }
        List<DeliveryOutcome> outcomes = new ArrayList<>(n);
        for (CompletableFuture<DeliveryOutcome> p : pending) {
            outcomes.add(await(p));
        }
        return outcomes;
    }

    /** Plays a scenario over the given apps (round robin), all apps if none given; blocks until done. */
    public ScenarioResult runScenario(Scenario scenario, String... apps) throws InterruptedException {
        List<String> names = apps.length > 0 ? List.of(apps) : List.copyOf(this.apps.keySet());
        names.forEach(this::app);
        return new ScenarioRunner(this, new Random(random.nextLong())).run(scenario, names);
    }

    /** The longest a delivery can take: the late retry plus an ACK timeout per attempt, with slack. */
    public Duration longestDelivery() {
        Duration late = Duration.ofNanos(Math.round(RetrySchedule.LATE_RETRY_MAX.toNanos() * schedule.timeScale()));
        return late.plus(ackTimeout.multipliedBy(1 + RetrySchedule.MAX_RETRIES)).plusSeconds(5);
    }

    // ---- faults -----------------------------------------------------------------------------------

    /** The next {@code calls} calls of {@code path} (a {@code WeComApiPaths} constant, or "*") get the fault. */
    public void injectApiFault(String path, ApiFault fault, int calls) {
        api.faults().add(ApiFaults.Rule.nextCalls(path, fault, calls));
    }

    /** Each call of {@code path} gets the fault with this probability, until {@link #reset()}. */
    public void injectApiFaultRate(String path, ApiFault fault, double rate) {
        api.faults().add(ApiFaults.Rule.rate(path, fault, rate));
    }

    /** Every API answer's latency, jitter and slow tail (default: answers at once). */
    public void apiTiming(ApiTiming timing) {
        api.timing(timing);
    }

    /** The most calls of an API path answered at the same time since the last reset (parallelism of a client). */
    public int maxConcurrentApiCalls(String path) {
        return api.maxConcurrentCalls(path);
    }

    /** How long a SLOW fault holds the answer back (default 6 s): set it past your client's timeout. */
    public void apiSlowDelay(Duration delay) {
        api.slowDelay(delay);
    }

    /** Expires every access token of the app: its next call answers 42001. Returns how many. */
    public int expireAccessTokens(String app) {
        return api.tokens().expireAllOf(app(app).name());
    }

    /** The next {@code n} in-time 200 answers from the app are ignored, so WeCom re-sends. */
    public void loseNextAcks(int n) {
        platformFaults.loseNextAcks(n);
    }

    public void lostAckRate(double rate) {
        platformFaults.lostAckRate(rate);
    }

    /** Share of in-time 200 answers the platform treats as too slow (and re-sends). */
    public void slowAckPretendRate(double rate) {
        platformFaults.slowAckPretendRate(rate);
    }

    /** Clears faults (both sides), recorded API calls and delivery records; tokens and codes stay valid. */
    public void reset() {
        api.reset();
        platformFaults.clear();
        deliveries.clear();
    }

    // ---- inspection -------------------------------------------------------------------------------

    /** Every callback delivery attempt and outcome. */
    public DeliveryLog deliveries() {
        return deliveries;
    }

    /** Every API call received. */
    public ApiCallLog apiCalls() {
        return api.calls();
    }

    public WelcomeCodes welcomeCodes() {
        return api.welcomeCodes();
    }

    /** Welcome messages actually sent with this code; exactly-once means this is 1. */
    public long successfulWelcomeSends(String welcomeCode) {
        return api.calls().successfulWelcomeSends(Objects.requireNonNull(welcomeCode, "welcomeCode"));
    }

    /** API calls received on {@code path}, whatever their outcome. */
    public long calls(String path) {
        return api.calls().count(path);
    }

    public Duration ackLatencyP50() {
        return deliveries.ackLatencyPercentile(50);
    }

    public Duration ackLatencyP99() {
        return deliveries.ackLatencyPercentile(99);
    }

    /** One compact status line: events, deliveries, retries, acks, welcome sends, API calls, ACK latency. */
    public String statusLine() {
        return String.format("events=%d deliveries=%d retries=%d acked=%d gaveUp=%d welcomeSends=%d apiCalls=%d "
                        + "ackP50=%dms ackP99=%dms",
                deliveries.events(), deliveries.attemptCount(), deliveries.retries(), deliveries.acknowledgedEvents(),
                deliveries.abandonedEvents(), api.calls().successfulWelcomeSends(), api.calls().calls().size(),
                ackLatencyP50().toMillis(), ackLatencyP99().toMillis());
    }

    WeComApiServer api() {
        return api;
    }

    private WeComApp app(String name) {
        WeComApp app = apps.get(name);
        if (app == null) {
            throw new IllegalArgumentException("unknown app: " + name + " (known: " + apps.keySet() + ")");
        }
        return app;
    }

    private CallbackDeliverer platform() {
        if (deliverer == null) {
            throw new IllegalStateException("no callbackBase configured: this simulator only serves the API");
        }
        return deliverer;
    }

    private DeliveryOutcome await(CompletableFuture<DeliveryOutcome> delivery) {
        try {
            return delivery.get(longestDelivery().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a delivery", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("delivery did not finish", e);
        }
    }

    /** Lets /sim/deliveries, /sim/reset and platform fault rules over HTTP reach this side. */
    private final class PlatformControl implements SimControlHandler.Extras {
        @Override
        public Optional<JsonObject> deliveries() {
            JsonObjectBuilder byStatus = Json.createObjectBuilder();
            WeComSimulator.this.deliveries.countsByStatus().forEach((s, n) -> byStatus.add(s.name(), n));
            return Optional.of(Json.createObjectBuilder()
                    .add("events", WeComSimulator.this.deliveries.events())
                    .add("attempts", WeComSimulator.this.deliveries.attemptCount())
                    .add("retries", WeComSimulator.this.deliveries.retries())
                    .add("acknowledgedEvents", WeComSimulator.this.deliveries.acknowledgedEvents())
                    .add("abandonedEvents", WeComSimulator.this.deliveries.abandonedEvents())
                    .add("byStatus", byStatus)
                    .add("ackLatencyP50Millis", ackLatencyP50().toMillis())
                    .add("ackLatencyP99Millis", ackLatencyP99().toMillis()).build());
        }

        @Override
        public void platformFault(JsonObject rule) {
            if (rule.containsKey("lostAckRate")) lostAckRate(rule.getJsonNumber("lostAckRate").doubleValue());
            if (rule.containsKey("slowAckRate")) slowAckPretendRate(rule.getJsonNumber("slowAckRate").doubleValue());
            if (rule.containsKey("loseNextAcks")) loseNextAcks(rule.getInt("loseNextAcks"));
            if (rule.containsKey("unreachable")) appUnreachable(rule.getBoolean("unreachable"));
        }

        @Override
        public void reset() {
            platformFaults.clear();
            WeComSimulator.this.deliveries.clear();
        }
    }

    /** Configures a simulator; only the apps are required (no callbackBase = API side only). */
    public static final class Builder {
        private final Map<String, WeComApp> apps = new LinkedHashMap<>();
        private URI callbackBase;
        private int apiPort;
        private double timeScale = 1.0;
        private Duration ackTimeout = Duration.ofSeconds(5);
        private Duration apiSlowDelay = Duration.ofSeconds(6);
        private Clock clock = Clock.systemUTC();
        private Long seed;

        private Builder() {
        }

        /** Every app of a config shared with the app under test. */
        public Builder config(SimulatorConfig config) {
            config.apps().values().forEach(this::app);
            return this;
        }

        public Builder app(WeComApp app) {
            apps.put(app.name(), app);
            return this;
        }

        /** Callbacks go to {@code {callbackBase}/{app}}; leave unset to run the API side only. */
        public Builder callbackBase(URI callbackBase) {
            this.callbackBase = callbackBase;
            return this;
        }

        /** API port; 0 (default) picks a free one, see {@link WeComSimulator#apiBaseUrl()}. */
        public Builder apiPort(int apiPort) {
            this.apiPort = apiPort;
            return this;
        }

        /** Multiplies the retry delays (+5 s, +10 s, +84..90 s); e.g. 0.1 for demos and tests. */
        public Builder timeScale(double timeScale) {
            this.timeScale = timeScale;
            return this;
        }

        /** How long the platform waits for the app's 200 (WeCom: 5 s; not scaled by timeScale). */
        public Builder ackTimeout(Duration ackTimeout) {
            this.ackTimeout = ackTimeout;
            return this;
        }

        /** How long a SLOW API fault holds the answer back (default 6 s). */
        public Builder apiSlowDelay(Duration delay) {
            this.apiSlowDelay = delay;
            return this;
        }

        /** Clock for CreateTime, welcome-code validity and token expiry (a test can step it). */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /** Seed for reproducible event content, jitter and fault rolls. */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public WeComSimulator build() {
            if (apps.isEmpty()) {
                throw new IllegalStateException("a simulator needs at least one app");
            }
            try {
                return new WeComSimulator(this);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the API port " + apiPort, e);
            }
        }
    }
}
