package io.wecominbox.handler.welcome;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Table welcome_send_log ({@link WelcomeSendEntry}), written through the EntityManager in the consumer's XA
 * transaction (with the dedup record). A plain JPA insert, batch-written: the dedup claim makes this one run per
 * event, and the handler leaves out a code that is recorded already or twice in its batch; the one conflict
 * left (a deliberate re-run racing its own original) now rolls the batch back, and its redelivery finds the
 * row and makes no call.
 */
@ApplicationScoped
public class WelcomeSendLog {

    @PersistenceContext(unitName = "wecom")
    private EntityManager em;

    /** The recorded outcome of each of these codes that has one. */
    public Map<String, String> statusesOf(List<String> welcomeCodes) {
        if (welcomeCodes.isEmpty()) {
            return Map.of();
        }
        Map<String, String> statuses = new HashMap<>();
        em.createQuery("SELECT w FROM WelcomeSendEntry w WHERE w.welcomeCode IN :codes", WelcomeSendEntry.class)
            .setParameter("codes", welcomeCodes).getResultList()
            .forEach(w -> statuses.put(w.welcomeCode(), w.status()));
        return statuses;
    }

    /** Writes the outcomes of a batch: one JDBC batch at the flush (eclipselink.jdbc.batch-writing). */
    public void recordAll(List<Row> rows) {
        rows.forEach(row -> em.persist(new WelcomeSendEntry(row.welcome(), row.result())));
        // now, not at the commit: a failure is the handler's (logged with the batch), and the rows precede the commit
        em.flush();
    }

    static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /**
     * What the event says about the welcome: which code, whose, from which delivery, and its window.
     *
     * @param attempt JMSXDeliveryCount of this delivery plus the attempts made in place before it (the row keeps
     *                the one that commits)
     */
    public record WelcomeCase(String welcomeCode, String app, String userId, String externalUserId, String state,
                              String changeType, long callbackLogId, String eventKey, Instant createdAt,
                              Instant deadline, int attempt) {

        /** The same welcome, tried once more inside the same delivery. */
        public WelcomeCase nextAttempt() {
            return new WelcomeCase(welcomeCode, app, userId, externalUserId, state, changeType, callbackLogId, eventKey,
                createdAt, deadline, attempt + 1);
        }
    }

    /** One welcome_send_log row: the welcome and how it ended. */
    public record Row(WelcomeCase welcome, WelcomeResult result) {
    }

    /**
     * How it ended.
     *
     * @param errcode       WeCom's errcode of the last call; null when no answer was read
     * @param effectUnknown the last call may have been performed although we did not learn so
     * @param textKey       the config key of the text sent (or tried)
     * @param sentAt        when WeCom answered errcode 0; null unless SENT
     */
    public record WelcomeResult(WelcomeStatus status, Integer errcode, String errmsg, boolean effectUnknown,
                                String textKey, Instant sentAt) {
    }
}
