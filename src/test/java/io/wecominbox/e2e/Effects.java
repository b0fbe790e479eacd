package io.wecominbox.e2e;

import java.time.Duration;
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
 *       without a successful send = missing; EXPIRED without a send is not an error but counted as expired
 *       (the code's 20 s passed during an outage); EXPIRED with one send (effect unknown) counts as sent;</li>
 *   <li>crm, per accepted event of a type it takes: messages on crm.outbound with the event's dedup key, 1
 *       expected (0 missing, 2+ duplicate);</li>
 *   <li>bot, per accepted text message: messages delivered to its (unique) sender at the API, 1 expected,
 *       and one SENT bot_reply_log row.</li>
 * </ul>
 */
public record Effects(String name, int events, int distinctKeys, Deliveries deliveries, long callbackLogRows,
               int welcomesExpected, int welcomesSent, int welcomesExpired, int crmExpected, long crmMessages,
               int botExpected, long botReplies, long duplicatesAbsorbed, long redeliveries,
               List<String> duplicates, List<String> missing, Map<String, Object> extra) {

    /** The simulator's view of every attempt of the case's events. */
    public record Deliveries(long attempts, long answeredOk, long lostAcks, long slowAcksPretended, long timeouts,
                      long httpErrors, long connectionErrors, long abandonedEvents, Duration ackP50, Duration ackP99) {
    }

    public Effects {
        duplicates = List.copyOf(duplicates);
        missing = List.copyOf(missing);
        extra = new LinkedHashMap<>(extra);
    }

    public Effects with(String key, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extra);
        more.put(key, value);
        return new Effects(name, events, distinctKeys, deliveries, callbackLogRows, welcomesExpected, welcomesSent,
            welcomesExpired, crmExpected, crmMessages, botExpected, botReplies, duplicatesAbsorbed, redeliveries,
            duplicates, missing, more);
    }

    public long effects() {
        return welcomesSent + crmMessages + botReplies;
    }

    /** The one line a case prints. */
    public String summaryLine() {
        StringBuilder line = new StringBuilder(String.format(
            "E2E summary [%s]: events=%d keys=%d deliveries=%d answered200=%d lostAcks=%d slowAcksPretended=%d "
                + "timeouts=%d http5xx=%d connectionErrors=%d wecomGaveUp=%d callbackLogRows=%d effects=%d "
                + "(welcome %d/%d crm %d/%d bot %d/%d) expiredWelcomes=%d duplicatesAbsorbed=%d redeliveries=%d "
                + "duplicates=%d missing=%d ackP50=%dms ackP99=%dms",
            name, events, distinctKeys, deliveries.attempts(), deliveries.answeredOk(), deliveries.lostAcks(),
            deliveries.slowAcksPretended(), deliveries.timeouts(), deliveries.httpErrors(),
            deliveries.connectionErrors(), deliveries.abandonedEvents(), callbackLogRows, effects(), welcomesSent,
            welcomesExpected, crmMessages, crmExpected, botReplies, botExpected, welcomesExpired, duplicatesAbsorbed,
            redeliveries, duplicates.size(), missing.size(), deliveries.ackP50().toMillis(),
            deliveries.ackP99().toMillis()));
        extra.forEach((k, v) -> line.append(' ').append(k).append('=').append(v));
        return line.toString();
    }
}
