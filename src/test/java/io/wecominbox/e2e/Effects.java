package io.wecominbox.e2e;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one case produced, counted at the simulator (deliveries, API effects) and in the database and broker,
 * with every duplicate and every missing effect named. Definitions (per distinct event key, i.e. per event as
 * the app identifies it; "accepted" = at least one callback_log row):
 * <ul>
 *   <li>delivery: every attempt the app answered 200 has its callback_log row (fewer rows = missing); no more
 *       rows than attempts (more = duplicate: a row nobody sent). An attempt answered 503 normally leaves no
 *       row, but may (a commit decided while a partner failed in the second phase): counted as
 *       rowsDespite5xx, not an error. An event WeCom gave up on with no row at all = missing (undelivered:
 *       every case's outage is shorter than WeCom's retries);</li>
 *   <li>welcome, per WelcomeCode of an accepted add of the customer app: two successful send_welcome_msg at the
 *       API or two welcome_send_log rows = duplicate; no terminal row, a FAILED row, or a SENT/ALREADY_SENT row
 *       without a successful send = missing; EXPIRED without a send is not an error here but listed as expired
 *       (the code's 20 s passed during an outage), and each case bounds it ({@link #expiredUnexplainedBy});
 *       EXPIRED with one send (effect unknown) counts as sent;</li>
 *   <li>crm, per accepted event of a type it takes: messages on crm.outbound with the event's dedup key, 1
 *       expected (0 missing, 2+ duplicate);</li>
 *   <li>bot, per accepted text message: messages delivered to its (unique) sender at the API, 1 expected,
 *       and one SENT bot_reply_log row;</li>
 *   <li>contact, per relationship (app, member, customer) of the accepted change_external_contact events the
 *       contact handler keeps (adds, edits, deletes, transfer failures): its external_contact row, 1 expected
 *       (0 missing). Every one of those events upserts that row (a delete leaves a tombstone), so whatever
 *       their order one row must be there;</li>
 *   <li>conversation, per accepted message with a MsgId of a type the conversation handler keeps: its
 *       conversation_message row (app, MsgId), 1 expected (0 missing).</li>
 * </ul>
 * For contact and conversation "2+ = duplicate" is checked too, though both tables' primary keys are exactly
 * those keys: a repeat is absorbed by the upsert by construction, so the count guards that construction (a
 * table re-keyed, say by delivery, would show it) rather than the handlers' runs.
 */
public record Effects(String name, int events, int distinctKeys, Deliveries deliveries, long callbackLogRows,
               int welcomesExpected, int welcomesSent, List<ExpiredWelcome> expiredWelcomes,
               List<Instant> welcomeCodesIssuedAt, int crmExpected, long crmMessages, int botExpected,
               long botReplies, int contactExpected, long contactRows, int conversationExpected,
               long conversationRows, long duplicatesAbsorbed, long redeliveries, List<String> duplicates,
               List<String> missing, Map<String, Object> extra) {

    /** How long a WelcomeCode can be used from its add's CreateTime (WeCom's rule). */
    public static final Duration WELCOME_WINDOW = Duration.ofSeconds(20);

    /** The simulator's view of every attempt of the case's events. */
    public record Deliveries(long attempts, long answeredOk, long lostAcks, long slowAcksPretended, long timeouts,
                      long httpErrors, long connectionErrors, long abandonedEvents, Duration ackP50, Duration ackP99) {
    }

    /** A welcome recorded EXPIRED and never sent: its event key and its add's CreateTime (its window's start). */
    public record ExpiredWelcome(String key, Instant createdAt) {
    }

    /**
     * A stretch of a case during which the app could not send welcomes: a node down, the broker or the database
     * away, until the consumers work again.
     */
    public record Outage(String what, Instant from, Instant until) {

        /** Whether a code issued at {@code createdAt} was still valid at some moment of this outage. */
        boolean touchesWindowOf(Instant createdAt) {
            return createdAt.isBefore(until) && createdAt.plus(WELCOME_WINDOW).isAfter(from);
        }
    }

    public Effects {
        expiredWelcomes = List.copyOf(expiredWelcomes);
        welcomeCodesIssuedAt = List.copyOf(welcomeCodesIssuedAt);
        duplicates = List.copyOf(duplicates);
        missing = List.copyOf(missing);
        extra = new LinkedHashMap<>(extra);
    }

    public Effects with(String key, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extra);
        more.put(key, value);
        return new Effects(name, events, distinctKeys, deliveries, callbackLogRows, welcomesExpected, welcomesSent,
            expiredWelcomes, welcomeCodesIssuedAt, crmExpected, crmMessages, botExpected, botReplies, contactExpected,
            contactRows, conversationExpected, conversationRows, duplicatesAbsorbed, redeliveries, duplicates,
            missing, more);
    }

    public int welcomesExpired() {
        return expiredWelcomes.size();
    }

    /**
     * The expired welcomes that none of {@code outages} accounts for: their code's 20 s window touched none of
     * them. The bound a case puts on expired welcomes: a case whose disturbances are all far shorter than the
     * window passes no outage (bound 0: the handler still has most of every window when the app is back); a
     * case with an outage that can outlast a window passes it, and then only the codes that were valid during it
     * may expire ({@link #welcomesAtRisk}), never one issued after.
     */
    public List<String> expiredUnexplainedBy(List<Outage> outages) {
        return expiredWelcomes.stream()
            .filter(w -> outages.stream().noneMatch(o -> o.touchesWindowOf(w.createdAt())))
            .map(w -> w.key() + " (issued " + w.createdAt() + ")")
            .toList();
    }

    /** How many of the case's welcome codes were valid during one of {@code outages}: at most that many may expire. */
    public long welcomesAtRisk(List<Outage> outages) {
        return welcomeCodesIssuedAt.stream()
            .filter(at -> outages.stream().anyMatch(o -> o.touchesWindowOf(at)))
            .count();
    }

    public long effects() {
        return welcomesSent + crmMessages + botReplies + contactRows + conversationRows;
    }

    /** The one line a case prints. */
    public String summaryLine() {
        StringBuilder line = new StringBuilder(String.format(
            "E2E summary [%s]: events=%d keys=%d deliveries=%d answered200=%d lostAcks=%d slowAcksPretended=%d "
                + "timeouts=%d http5xx=%d connectionErrors=%d wecomGaveUp=%d callbackLogRows=%d effects=%d "
                + "(welcome %d/%d crm %d/%d bot %d/%d contact %d/%d conversation %d/%d) expiredWelcomes=%d "
                + "duplicatesAbsorbed=%d redeliveries=%d duplicates=%d missing=%d ackP50=%dms ackP99=%dms",
            name, events, distinctKeys, deliveries.attempts(), deliveries.answeredOk(), deliveries.lostAcks(),
            deliveries.slowAcksPretended(), deliveries.timeouts(), deliveries.httpErrors(),
            deliveries.connectionErrors(), deliveries.abandonedEvents(), callbackLogRows, effects(), welcomesSent,
            welcomesExpected, crmMessages, crmExpected, botReplies, botExpected, contactRows, contactExpected,
            conversationRows, conversationExpected, welcomesExpired(), duplicatesAbsorbed, redeliveries,
            duplicates.size(), missing.size(), deliveries.ackP50().toMillis(), deliveries.ackP99().toMillis()));
        extra.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        return line.toString();
    }
}
