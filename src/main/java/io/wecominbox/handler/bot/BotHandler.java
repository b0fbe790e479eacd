package io.wecominbox.handler.bot;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.dedup.RejectedForRedelivery;
import io.wecominbox.dedup.StoreDownAction;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandledEvent;
import io.wecominbox.handler.HandlerDescriptor;
import io.wecominbox.handler.Urgency;
import io.wecominbox.handler.bot.BotReplyLog.BotReply;
import io.wecominbox.wecom.MessageSendRequest;
import io.wecominbox.wecom.WeComApi;
import io.wecominbox.wecom.WeComCallOutcome;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * Answers a member's text message to the app with the configured reply (message/send), once per message,
 * and once more per deliberate re-run (batch id): the batch id is in the dedup key, in bot_reply_log and in
 * the request ({@value #BATCH_FIELD}), so the outbound call can be traced to the re-run that made it.
 *
 * <p>The crash window (WeCom accepted the reply, then our commit failed, or the answer timed out: "maybe
 * sent") cannot be closed by our transaction, and message/send has no single-use token. A normal delivery
 * therefore asks WeCom for {@code enable_duplicate_check} with a short {@code duplicate_check_interval}
 * (default 5 min: covers redelivery after a rollback, seconds, and after a server crash, the restart plus XA
 * recovery, about a minute): the redelivered copy is dropped by WeCom. The price: WeCom compares content and
 * recipient, so a member who writes twice within the interval gets one reply; for an automatic reply that is
 * acceptable. A re-run turns the check off, since its whole point is to send the same text again; its own
 * crash window stays open (a rare double reply on an operator's re-run).
 *
 * <p>Policy: irreversible (a reply cannot be taken back), so the cold tier decides, and a dead database
 * REJECTs (the message waits for it). A dead Redis PROCEEDs: the cold tier still protects, and there is no
 * deadline that makes waiting costly, but also nothing gained by waiting.
 */
@HandlerDescriptor(name = "bot", eventTypes = "text", urgency = Urgency.PROMPT,
    onHotStoreDown = StoreDownAction.PROCEED, onColdStoreDown = StoreDownAction.REJECT)
@ApplicationScoped
public class BotHandler implements EventHandler {

    /** The request field that carries a re-run's batch id to WeCom (ignored there; recorded by the simulator). */
    public static final String BATCH_FIELD = WeComApi.BATCH_ID_FIELD;

    private static final Logger LOG = Logger.getLogger(BotHandler.class.getName());

    @Inject
    WeComApi api;

    @Inject
    BotConfig config;

    @Inject
    BotReplyLog replies;

    @Inject
    Clock clock;

    /** The replies of a batch are in flight together here (server.xml, bot.sends.in.flight). */
    @Resource(lookup = "concurrent/botSends")
    ManagedExecutorService sends;

    private final Set<String> appsWithoutText = ConcurrentHashMap.newKeySet();

    /**
     * A batch's replies are called together on {@code concurrent/botSends}: one after the other, a session
     * managed ~10 replies/s (WeCom ~100 ms away), far fewer than the members' messages of a busy corp. The rows
     * are recorded here, on the transaction's thread, and reach the database together; a retryable answer rolls
     * the batch back for the broker's redelivery, after every call of the batch has ended (WeCom's duplicate
     * check drops the replies that already went out when the batch comes again).
     */
    @Override
    public void handleAll(List<HandledEvent> events) {
        if (events.size() == 1) {
            handle(events.get(0));
            replies.flush();
            return;
        }
        List<CompletableFuture<Outcome>> calls = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (HandledEvent event : events) {
            if (keys.add(event.dedupKey())) { // one call per key, also if a batch holds a copy of a message
                calls.add(CompletableFuture.supplyAsync(() -> call(event, true), sends));
            }
        }
        RejectedForRedelivery redeliver = null;
        RuntimeException failed = null;
        for (CompletableFuture<Outcome> call : calls) {
            Outcome outcome;
            try {
                outcome = call.join();
            } catch (CompletionException | CancellationException e) {
                // rolled back only once every other call of the batch has ended too
                failed = failed == null ? e : failed;
                continue;
            }
            if (outcome.reply() != null) {
                replies.record(outcome.reply());
            } else if (outcome.redeliver() != null && redeliver == null) {
                redeliver = outcome.redeliver();
            }
        }
        if (failed != null) {
            throw failed;
        }
        if (redeliver != null) {
            throw redeliver;
        }
        replies.flush();
    }

    @Override
    public void handle(HandledEvent event) {
        Outcome outcome = call(event, false);
        if (outcome.redeliver() != null) {
            throw outcome.redeliver();
        }
        if (outcome.reply() != null) {
            replies.record(outcome.reply());
        }
    }

    /** What one event's reply came to: a row to record, a redelivery to ask for, or neither (nothing to send). */
    private record Outcome(BotReply reply, RejectedForRedelivery redeliver) {
        static final Outcome NOTHING = new Outcome(null, null);
    }

    /** Pauses before the second and third call of a retryable answer in a batch. */
    private static final long[] IN_PLACE_RETRY_MILLIS = {500, 1000};

    /**
     * The call to WeCom and its outcome; touches nothing transactional, so it may run on another thread. In a
     * batch, a retryable answer is tried again in place (twice, 0.5 s and 1 s later) before it rolls the whole
     * batch back, unless the reply may have gone out and WeCom's duplicate check is off (a re-run): that one
     * is left to the redelivery, where it runs alone.
     */
    private Outcome call(HandledEvent event, boolean inBatch) {
        WeComEvent e = event.event();
        if (e.msgId() == null || e.fromUserName() == null) {
            return Outcome.NOTHING;
        }
        Optional<String> text = config.replyText(event.app());
        if (text.isEmpty()) {
            if (appsWithoutText.add(event.app())) {
                LOG.info("no bot reply configured for app " + event.app() + " (wecom.bot." + event.app()
                    + ".reply-text): its messages get no reply");
            }
            return Outcome.NOTHING;
        }
        boolean duplicateCheck = event.batchId() == null && !config.duplicateCheckInterval().isZero();
        MessageSendRequest request = MessageSendRequest.text(e.fromUserName(), text.get());
        if (e.agentId() != null) {
            request = request.withAgentId(e.agentId()); // answer from the agent the member wrote to
        }
        if (duplicateCheck) {
            request = request.withField("enable_duplicate_check", JSON.createValue(1))
                .withField("duplicate_check_interval", JSON.createValue(config.duplicateCheckInterval().toSeconds()));
        }
        if (event.batchId() != null) {
            request = request.withField(BATCH_FIELD, JSON.createValue(event.batchId()));
        }
        Instant deadline = clock.instant().plus(config.callBudget());
        WeComCallOutcome outcome = api.sendMessage(event.app(), request, deadline);
        for (int retry = 0; inBatch && retry < IN_PLACE_RETRY_MILLIS.length
                && outcome.kind() == WeComCallOutcome.Kind.RETRY && (duplicateCheck || !outcome.effectUnknown())
                && clock.instant().plusMillis(IN_PLACE_RETRY_MILLIS[retry]).isBefore(deadline); retry++) {
            LOG.info("bot reply for " + event + ": " + outcome + "; retrying in place in "
                + IN_PLACE_RETRY_MILLIS[retry] + " ms");
            if (!pause(IN_PLACE_RETRY_MILLIS[retry])) {
                break;
            }
            outcome = api.sendMessage(event.app(), request, deadline);
        }
        Instant now = clock.instant();
        Integer errcode = outcome.errcode().isPresent() ? outcome.errcode().getAsInt() : null;
        return switch (outcome.kind()) {
            case DONE, ALREADY_DONE -> new Outcome(reply(event, "SENT", errcode, outcome.errmsg(),
                outcome.reply().getString("msgid", null), duplicateCheck, now), null);
            case GIVE_UP -> {
                LOG.warning("bot reply for " + event + " failed for good: " + outcome);
                yield new Outcome(reply(event, "FAILED", errcode, outcome.errmsg(), null, duplicateCheck, null), null);
            }
            case RETRY -> new Outcome(null, new RejectedForRedelivery("bot reply for callback_log "
                + event.callbackLogId() + " attempt " + event.deliveryCount() + ": " + outcome
                + "; the broker redelivers it", event.dedupKey()));
        };
    }

    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static BotReply reply(HandledEvent event, String status, Integer errcode, String errmsg, String msgId,
                                  boolean duplicateCheck, Instant sentAt) {
        WeComEvent e = event.event();
        return new BotReply(event.dedupKey(), event.app(), e.msgId(), e.fromUserName(), event.batchId(),
            event.callbackLogId(), e.createTime() > 0 ? Instant.ofEpochSecond(e.createTime()) : null,
            event.deliveryCount(), status, errcode, errmsg, msgId, duplicateCheck, sentAt);
    }
}
