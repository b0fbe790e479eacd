package io.wecominbox.handler.welcome;

import io.wecominbox.dedup.RejectedForRedelivery;
import io.wecominbox.dedup.StoreDownAction;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandledEvent;
import io.wecominbox.handler.HandlerDescriptor;
import io.wecominbox.handler.Urgency;
import io.wecominbox.handler.welcome.WelcomeConfig.ConfiguredText;
import io.wecominbox.handler.welcome.WelcomeSendLog.WelcomeCase;
import io.wecominbox.handler.welcome.WelcomeSendLog.WelcomeResult;
import io.wecominbox.logging.Redacted;
import io.wecominbox.wecom.WeComApi;
import io.wecominbox.wecom.WeComCallOutcome;
import io.wecominbox.wecom.WelcomeContent;
import io.wecominbox.wecom.WeComErrorCodes;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Sends the configured welcome message for each add_external_contact / add_half_external_contact that
 * carries a WelcomeCode, and records how it ended in welcome_send_log (same XA transaction as the dedup
 * record). A retryable failure rolls back and the broker redelivers after a short delay, but only while the
 * code's 20 s window leaves time for that attempt; otherwise the outcome is recorded as EXPIRED. WeCom is
 * never called after the deadline.
 *
 * <p>The window no transaction closes: WeCom accepted the send, then our commit failed (or the answer was
 * lost). The redelivery sends again with the same code, which is single-use, so WeCom answers 41051 and the
 * run records ALREADY_SENT: still one welcome.
 *
 * <p>Policy: hot and cold tier. Redis down: PROCEED. The cold tier (a unique row in this XA transaction) and
 * the single-use code both still prevent a second welcome, while REJECT would roll back and redeliver until
 * Redis is back, which for an outage longer than ~20 s means every welcome in it expires unsent.
 * Database down: REJECT. Neither the dedup row nor welcome_send_log could be written, so the run would
 * roll back after the send anyway; rejecting at least does not spend the code on an unrecorded send.
 * Four sessions: each one's batch of calls is in flight together (welcome.sends.in.flight in server.xml).
 */
@HandlerDescriptor(name = "welcome", eventTypes = "change_external_contact", deadlineLane = true,
    urgency = Urgency.PROMPT, sessions = 4,
    onHotStoreDown = StoreDownAction.PROCEED, onColdStoreDown = StoreDownAction.REJECT)
@ApplicationScoped
public class WelcomeHandler implements EventHandler {

    private static final Logger LOG = Logger.getLogger(WelcomeHandler.class.getName());
    static final Set<String> ADD_CHANGE_TYPES = Set.of("add_external_contact", "add_half_external_contact");

    @Inject
    WeComApi api;

    @Inject
    WelcomeConfig config;

    @Inject
    WelcomeSendLog sendLog;

    @Inject
    Clock clock;

    @Inject
    MetricRegistry metrics;

    @Inject
    WelcomeCallBudget budget;

    // the calls of a batch run here together; concurrency bound in server.xml (welcome.sends.in.flight)
    @Resource(lookup = "concurrent/welcomeSends")
    ManagedExecutorService sends;

    private final Set<String> appsWithoutText = ConcurrentHashMap.newKeySet();

    @Override
    public void handle(HandledEvent event) {
        handleAll(List.of(event));
    }

    /**
     * The welcomes of a batch: their calls are issued together (each on its own thread of the welcome send
     * executor, within the per-minute call budget), and every outcome is written in one batch when all are
     * back. Alone, a retryable answer rolls back for the broker's redelivery (the session is free meanwhile);
     * in a batch it is retried in place on the same schedule, so one busy answer does not re-send the others.
     */
    @Override
    public void handleAll(List<HandledEvent> events) {
        WelcomeWindow window = config.window();
        boolean alone = events.size() == 1;
        Map<String, String> recorded = sendLog.statusesOf(events.stream().map(e -> e.event().welcomeCode())
            .filter(Objects::nonNull).toList());
        List<Outcome> outcomes = new ArrayList<>();
        List<CompletableFuture<Outcome>> calls = new ArrayList<>();
        Set<String> inThisBatch = new HashSet<>();
        for (HandledEvent event : events) {
            WeComEvent e = event.event();
            if (!ADD_CHANGE_TYPES.contains(e.changeType()) || e.welcomeCode() == null) {
                continue; // edits, deletes, adds without a code (welcome set in the admin console, ...): nothing to send
            }
            if (recorded.containsKey(e.welcomeCode())) {
                // only a deliberate re-run (batch id) gets here: the code is spent either way
                LOG.info("welcome for " + event + " already recorded as " + recorded.get(e.welcomeCode())
                    + ": no call");
                continue;
            }
            if (!inThisBatch.add(e.welcomeCode())) {
                // the same code twice in one batch (an event and its re-run): one call, one row
                LOG.info("welcome for " + event + " is already being sent in this batch: no call");
                continue;
            }
            Optional<ConfiguredText> text = config.text(event.app(), e.state());
            if (text.isEmpty()) {
                if (appsWithoutText.add(event.app())) {
                    LOG.warning("no welcome text configured for app " + event.app() + " (wecom.welcome." + event.app()
                        + ".text): its new contacts get no welcome message");
                }
                continue;
            }
            Instant createdAt = Instant.ofEpochSecond(e.createTime());
            WelcomeCase welcome = new WelcomeCase(e.welcomeCode(), event.app(), e.userId(), e.externalUserId(),
                e.state(), e.changeType(), event.callbackLogId(), event.eventKey(), createdAt,
                window.deadline(createdAt), event.deliveryCount());
            Outcome planned = plan(welcome, window, text.get());
            if (planned != null) {
                outcomes.add(planned);
            } else {
                calls.add(CompletableFuture.supplyAsync(
                    () -> sendUntilDone(event, welcome, window, text.get(), alone), sends));
            }
        }
        // every call ends by its code's deadline (no call starts or is waited for past it)
        calls.forEach(call -> outcomes.add(call.join()));
        List<Outcome> done = outcomes.stream().filter(o -> o.result() != null).toList();
        record(done);
        outcomes.stream().filter(o -> o.redeliver() != null).findFirst().ifPresent(o -> {
            throw o.redeliver();
        });
    }

    /** The outcome that needs no call (window closed, text refused), or null when the call goes ahead. */
    private Outcome plan(WelcomeCase welcome, WelcomeWindow window, ConfiguredText text) {
        if (!window.canStart(clock.instant(), welcome.deadline())) {
            // a redelivery that came too late (or a replay): earlier attempts rolled back, so whether one of them
            // reached WeCom is unknown here
            return new Outcome(welcome, new WelcomeResult(WelcomeStatus.EXPIRED, null, "window closed before attempt "
                + welcome.attempt() + " could start a call", welcome.attempt() > 1, text.key(), null), null);
        }
        try {
            WelcomeContent.text(text.text());
            return null;
        } catch (IllegalArgumentException invalid) {
            // a retry cannot fix the configuration, and the code is worthless in 20 s
            return new Outcome(welcome, new WelcomeResult(WelcomeStatus.FAILED, null, "configured text refused: "
                + invalid.getMessage(), false, text.key(), null), null);
        }
    }

    private Outcome sendUntilDone(HandledEvent event, WelcomeCase first, WelcomeWindow window, ConfiguredText text,
                                  boolean alone) {
        WelcomeContent content = WelcomeContent.text(text.text());
        WelcomeCase welcome = first;
        boolean maybeSentBefore = first.attempt() > 1;
        while (true) {
            if (!budget.acquire(welcome.app(), welcome.deadline().minus(window.minCallTime()))) {
                metrics.counter("wecom.welcome.budget.exhausted").inc();
                return new Outcome(welcome, new WelcomeResult(WelcomeStatus.EXPIRED, null, "no call slot before the"
                    + " deadline: the send_welcome_msg budget (" + budget.describe() + ") is used up",
                    maybeSentBefore, text.key(), null), null);
            }
            // a re-run's batch id goes along (traceable at WeCom's side); in practice a re-run rarely gets here:
            // the code is single-use and valid for 20 s, and a recorded code is answered above without a call
            WeComCallOutcome outcome = api.sendWelcomeMessage(welcome.app(), welcome.welcomeCode(), content,
                welcome.deadline(), event.batchId());
            Instant now = clock.instant();
            Integer errcode = outcome.errcode().isPresent() ? outcome.errcode().getAsInt() : null;
            switch (outcome.kind()) {
                case DONE:
                    return new Outcome(welcome, new WelcomeResult(WelcomeStatus.SENT, errcode, outcome.errmsg(), false,
                        text.key(), now), null);
                case ALREADY_DONE:
                    return new Outcome(welcome, new WelcomeResult(WelcomeStatus.ALREADY_SENT, errcode,
                        outcome.errmsg(), false, text.key(), null), null);
                case GIVE_UP:
                    return new Outcome(welcome, new WelcomeResult(WelcomeStatus.FAILED, errcode, outcome.errmsg(),
                        false, text.key(), null), null);
                default:
                    break;
            }
            if (errcode != null && errcode == WeComErrorCodes.API_FREQUENCY_LIMIT) {
                metrics.counter("wecom.welcome.frequency-limited").inc();
            }
            maybeSentBefore |= outcome.effectUnknown();
            if (!window.nextAttemptCanStart(now, welcome.deadline(), welcome.attempt())) {
                return new Outcome(welcome, new WelcomeResult(WelcomeStatus.EXPIRED, errcode, "no time for another"
                    + " attempt after: " + outcome.errmsg(), outcome.effectUnknown(), text.key(), null), null);
            }
            Duration delay = window.redeliveryDelayAfter(welcome.attempt());
            if (alone) {
                return new Outcome(welcome, null, new RejectedForRedelivery("welcome for callback_log "
                    + event.callbackLogId() + " attempt " + welcome.attempt() + ": " + outcome + "; retrying in ~"
                    + delay.toMillis() + " ms, " + Duration.between(now, welcome.deadline()).toMillis()
                    + " ms before the deadline", event.dedupKey()));
            }
            LOG.info("welcome for " + event + " attempt " + welcome.attempt() + ": " + outcome
                + "; retrying in place in ~" + delay.toMillis() + " ms");
            if (!pause(delay)) {
                return new Outcome(welcome, new WelcomeResult(WelcomeStatus.EXPIRED, errcode, "interrupted before"
                    + " another attempt after: " + outcome.errmsg(), maybeSentBefore, text.key(), null), null);
            }
            welcome = welcome.nextAttempt();
        }
    }

    private static boolean pause(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void record(List<Outcome> outcomes) {
        if (outcomes.isEmpty()) {
            return;
        }
        sendLog.recordAll(outcomes.stream().map(o -> new WelcomeSendLog.Row(o.welcome(), o.result())).toList());
        outcomes.forEach(o -> count(o.welcome(), o.result()));
    }

    /** How one welcome ended (result), or the rollback that gives it another delivery (redeliver). */
    private record Outcome(WelcomeCase welcome, WelcomeResult result, RejectedForRedelivery redeliver) {
    }

    private void count(WelcomeCase welcome, WelcomeResult result) {
        metrics.counter("wecom.welcome.outcome", new Tag("status", result.status().name())).inc();
        if (result.sentAt() != null) {
            // the customer-facing figure: from the event's CreateTime to WeCom accepting the send (deadline 20 s)
            metrics.timer("wecom.welcome.latency").update(Duration.between(welcome.createdAt(), result.sentAt()));
        }
        if (result.status() != WelcomeStatus.SENT) {
            LOG.info("welcome for callback_log " + welcome.callbackLogId() + " (key " + Redacted.id(welcome.eventKey())
                + ") " + result.status() + " after " + welcome.attempt() + " attempt(s): " + result.errcode() + " "
                + result.errmsg());
        }
    }
}
