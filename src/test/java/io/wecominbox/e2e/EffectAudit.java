package io.wecominbox.e2e;

import io.wecominbox.event.EventKeys;
import io.wecominbox.event.MalformedXmlException;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.HandlerRoute;
import io.wecominbox.handler.bot.BotHandler;
import io.wecominbox.simulator.WeComSimulator;
import io.wecominbox.simulator.api.WeComApiPaths;
import io.wecominbox.simulator.platform.DeliveryAttempt;
import io.wecominbox.simulator.platform.DeliveryOutcome;
import io.wecominbox.simulator.platform.DeliveryStatus;
import io.wecominbox.simulator.platform.SimEvent;
import io.wecominbox.testsupport.BrokerConsole;
import io.wecominbox.testsupport.HandlersInCode;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.json.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Counts a case's effects where they happen: attempts and API calls at the simulator, callback_log,
 * welcome_send_log, bot_reply_log, external_contact, conversation_message and handler_disposition in
 * PostgreSQL, crm.outbound at the broker. The rules for "duplicate" and "missing" are documented on
 * {@link Effects}.
 */
public final class EffectAudit {

    static final String CRM_QUEUE = "crm.outbound";
    /** What the crm handler takes (the eventTypes of CrmHandler's @HandlerDescriptor). */
    private static final Set<String> CRM_TYPES =
        Set.of("change_external_contact", "change_external_chat", "change_external_tag", "text");
    private static final Set<String> WELCOME_CHANGE_TYPES = Set.of("add_external_contact", "add_half_external_contact");
    /** What the contact handler keeps (its declared event types and the ChangeTypes its handle() writes). */
    private static final String CONTACT_TYPE = "change_external_contact";
    private static final Set<String> CONTACT_CHANGE_TYPES = Set.of("add_external_contact", "add_half_external_contact",
        "edit_external_contact", "del_external_contact", "del_follow_user", "transfer_fail");
    /** What the conversation handler keeps (its declared event types), when the message has a MsgId. */
    private static final Set<String> CONVERSATION_TYPES =
        Set.of("text", "image", "voice", "video", "location", "link", "file");

    /** One distinct event (its key) with the simulator events that carry it. */
    private record KeyedEvent(String key, WeComEvent event, String app, List<SimEvent> copies) {

        /**
         * The key crm claims: a customer's add is keyed by relationship generation (callback and reconcile pull
         * meet there); the mix adds every customer once, so it is generation 1. Other events keep their key.
         */
        String crmKey() {
            return "add_external_contact".equals(event.changeType()) && event.userId() != null
                && event.externalUserId() != null
                ? app + ":" + EventKeys.relationshipGeneration(event.userId(), event.externalUserId(), 1) : key;
        }
    }

    private EffectAudit() {
    }

    /** Audits until nothing is missing (or 120 s), then once more a little later, so late duplicates show. */
    public static Effects settled(String name, WeComSimulator sim, List<EventFeed.Sent> sent) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!audit(name, sim, sent).missing().isEmpty() && System.nanoTime() < deadline) {
            Poll.sleep(2000);
        }
        Poll.sleep(3000);
        Effects settled = audit(name, sim, sent);
        if (!settled.missing().isEmpty()) {
            System.out.println("  where the missing may be [" + name + "]: " + handlerQueues());
        }
        return settled;
    }

    /**
     * Per handler queue, what still waits there (in delivery too: received in a transaction not yet ended)
     * and what the broker dead-lettered from it: a missing effect is then late, held by an open transaction,
     * parked in a DLQ, or gone (none of these), which are different defects.
     */
    private static String handlerQueues() throws Exception {
        StringBuilder where = new StringBuilder();
        for (HandlerRoute route : HandlersInCode.routes()) {
            String handler = route.handler();
            String queue = route.queue();
            long dead = Math.max(BrokerConsole.queueAttribute("DLA", "multicast", "DLQ." + queue, "MessageCount"),
                BrokerConsole.queueAttribute("DLA", "anycast", "DLQ." + queue, "MessageCount"));
            where.append(handler).append(": messages=")
                .append(BrokerConsole.queueAttribute(queue, "anycast", queue, "MessageCount"))
                .append(" inDelivery=").append(BrokerConsole.queueAttribute(queue, "anycast", queue, "DeliveringCount"))
                .append(" deadLettered=").append(Math.max(0, dead)).append("; ");
        }
        return where.toString();
    }

    public static Effects audit(String name, WeComSimulator sim, List<EventFeed.Sent> sent) throws SQLException {
        Map<String, KeyedEvent> byKey = new LinkedHashMap<>();
        for (EventFeed.Sent s : sent) {
            SimEvent e = s.event();
            WeComEvent parsed = parse(e.xml());
            String key = e.app() + ":" + EventKeys.keyOf(parsed);
            byKey.computeIfAbsent(key, k -> new KeyedEvent(k, parsed, e.app(), new ArrayList<>())).copies().add(e);
        }
        List<String> duplicates = new ArrayList<>();
        List<String> missing = new ArrayList<>();

        // deliveries: attempts per plaintext (two events with the same bytes are one delivery stream to the app)
        Map<String, long[]> attemptsByPlaintext = new HashMap<>(); // {attempts, answeredOk, httpErrors}
        long attempts = 0, ok = 0, lost = 0, pretended = 0, timeouts = 0, http = 0, refused = 0, gaveUp = 0;
        for (EventFeed.Sent s : sent) {
            long[] counts = attemptsByPlaintext.computeIfAbsent(s.event().xml(), x -> new long[3]);
            for (DeliveryAttempt a : sim.deliveries().attempts(s.event().id())) {
                attempts++;
                counts[0]++;
                if (a.status().appAnsweredOk()) {
                    ok++;
                    counts[1]++;
                }
                switch (a.status()) {
                    case LOST_ACK -> lost++;
                    case SLOW_ACK_PRETENDED -> pretended++;
                    case TIMEOUT -> timeouts++;
                    case HTTP_ERROR -> {
                        http++;
                        counts[2]++;
                    }
                    case CONNECTION_ERROR -> refused++;
                    default -> { }
                }
            }
            DeliveryOutcome outcome = s.outcome().getNow(null);
            if (outcome != null && !outcome.acknowledged()) {
                gaveUp++;
            }
        }

        try (Connection db = StackEnv.openDatabase()) {
            Map<String, Long> rows = countBy(db, "SELECT plaintext, count(*) FROM callback_log "
                + "WHERE plaintext = ANY(?) GROUP BY plaintext", attemptsByPlaintext.keySet());
            long callbackRows = rows.values().stream().mapToLong(Long::longValue).sum();
            long[] committedDespiteError = {0};
            attemptsByPlaintext.forEach((plaintext, c) -> {
                long r = rows.getOrDefault(plaintext, 0L);
                if (r < c[1]) {
                    missing.add("callback_log: " + r + " rows for " + c[1] + " deliveries answered 200: " + abbreviate(plaintext));
                }
                if (r > c[0]) {
                    duplicates.add("callback_log: " + r + " rows for " + c[0] + " deliveries: " + abbreviate(plaintext));
                }
                // a 503 can come with a commit: the commit was decided but a partner failed in its second
                // phase (Liberty finishes it later and reports HeuristicMixedException); WeCom re-sends, dedup copes
                committedDespiteError[0] += Math.max(0, Math.min(r, c[0]) - (c[0] - c[2]));
            });
            List<KeyedEvent> accepted = new ArrayList<>();
            for (KeyedEvent k : byKey.values()) {
                if (k.copies().stream().anyMatch(e -> rows.getOrDefault(e.xml(), 0L) > 0)) {
                    accepted.add(k);
                } else {
                    missing.add("undelivered (WeCom gave up, no callback_log row): " + k.key());
                }
            }

            // welcome
            List<KeyedEvent> welcomes = accepted.stream().filter(k -> EventMix.CUSTOMER.equals(k.app())
                && k.event().welcomeCode() != null && WELCOME_CHANGE_TYPES.contains(k.event().changeType())).toList();
            Map<String, List<String>> welcomeRows = listBy(db,
                "SELECT welcome_code, status FROM welcome_send_log WHERE welcome_code = ANY(?)",
                welcomes.stream().map(k -> k.event().welcomeCode()).toList());
            int welcomesSent = 0;
            List<Effects.ExpiredWelcome> welcomesExpired = new ArrayList<>();
            for (KeyedEvent k : welcomes) {
                String code = k.event().welcomeCode();
                long sends = sim.successfulWelcomeSends(code);
                List<String> statuses = welcomeRows.getOrDefault(code, List.of());
                String what = "welcome " + k.key() + " sends=" + sends + " rows=" + statuses;
                if (sends > 1 || statuses.size() > 1) {
                    duplicates.add(what);
                } else if (statuses.isEmpty() || statuses.get(0).equals("FAILED")) {
                    missing.add(what);
                } else if (statuses.get(0).equals("EXPIRED")) {
                    if (sends == 1) {
                        welcomesSent++;
                    } else {
                        welcomesExpired.add(new Effects.ExpiredWelcome(k.key(), createdAt(k)));
                    }
                } else if (sends == 0) {
                    missing.add(what + " (the row says sent, WeCom saw no send)");
                } else {
                    welcomesSent++;
                }
            }

            // crm
            List<KeyedEvent> crm = accepted.stream().filter(k -> CRM_TYPES.contains(k.event().typeName())).toList();
            Map<String, Long> crmCounts = BrokerConsole.countMessagesBy(CRM_QUEUE, "", "dedupKey");
            long crmMessages = 0;
            for (KeyedEvent k : crm) {
                long n = crmCounts.getOrDefault("wecom:crm:" + k.crmKey(), 0L);
                crmMessages += Math.min(n, 1);
                if (n == 0) {
                    missing.add("crm " + k.key());
                } else if (n > 1) {
                    duplicates.add("crm " + k.key() + " messages=" + n);
                }
            }

            // bot
            List<KeyedEvent> texts = accepted.stream().filter(k -> EventMix.CUSTOMER.equals(k.app())
                && "text".equals(k.event().typeName())).toList();
            Map<String, Long> replyRows = countBy(db, "SELECT to_user, count(*) FROM bot_reply_log "
                + "WHERE batch_id IS NULL AND status = 'SENT' AND to_user = ANY(?) GROUP BY to_user",
                texts.stream().map(k -> k.event().fromUserName()).toList());
            long botReplies = 0;
            for (KeyedEvent k : texts) {
                String member = k.event().fromUserName();
                long delivered = deliveredReplies(sim, member, null);
                long row = replyRows.getOrDefault(member, 0L);
                botReplies += Math.min(delivered, 1);
                if (delivered > 1) {
                    duplicates.add("bot " + k.key() + " replies delivered=" + delivered);
                } else if (delivered == 0 || row == 0) {
                    missing.add("bot " + k.key() + " replies delivered=" + delivered + " rows=" + row);
                }
            }

            // contact: the row of each relationship its kept events name (one upsert key: app, member, customer)
            Map<String, List<String>> contactEvents = new LinkedHashMap<>();
            accepted.stream().filter(EffectAudit::keptByContact).forEach(k -> contactEvents
                .computeIfAbsent(relationship(k), r -> new ArrayList<>()).add(k.key()));
            Map<String, Long> contactRowCounts = countBy(db, "SELECT app || ':' || user_id || ':' || external_user_id,"
                + " count(*) FROM external_contact WHERE external_user_id = ANY(?) GROUP BY app, user_id,"
                + " external_user_id", accepted.stream().filter(EffectAudit::keptByContact)
                .map(k -> k.event().externalUserId()).distinct().toList());
            long contactRows = 0;
            for (Map.Entry<String, List<String>> r : contactEvents.entrySet()) {
                long n = contactRowCounts.getOrDefault(r.getKey(), 0L);
                contactRows += Math.min(n, 1);
                if (n == 0) {
                    missing.add("contact " + r.getKey() + ": no external_contact row for " + r.getValue());
                } else if (n > 1) {
                    duplicates.add("contact " + r.getKey() + " rows=" + n);
                }
            }

            // conversation: one conversation_message row per message (app, MsgId)
            List<KeyedEvent> messages = accepted.stream().filter(k -> CONVERSATION_TYPES.contains(k.event().typeName())
                && k.event().msgId() != null).toList();
            Map<String, Long> conversationRowCounts = countBy(db, "SELECT app || ':' || msg_id, count(*) FROM"
                + " conversation_message WHERE msg_id = ANY(?) GROUP BY app, msg_id",
                messages.stream().map(k -> k.event().msgId()).distinct().toList());
            long conversationRows = 0;
            for (KeyedEvent k : messages) {
                long n = conversationRowCounts.getOrDefault(k.app() + ":" + k.event().msgId(), 0L);
                conversationRows += Math.min(n, 1);
                if (n == 0) {
                    missing.add("conversation " + k.key() + ": no conversation_message row");
                } else if (n > 1) {
                    duplicates.add("conversation " + k.key() + " rows=" + n);
                }
            }

            // what the dedup gate absorbed, and how many deliveries were JMS redeliveries
            List<String> keys = accepted.stream().flatMap(k -> java.util.stream.Stream.of(k.key(), k.crmKey()))
                .distinct().toList();
            long absorbed = single(db, "SELECT count(*) FROM handler_disposition WHERE event_key = ANY(?) "
                + "AND disposition IN ('DUPLICATE_HOT', 'DUPLICATE_COLD')", keys);
            long redeliveries = single(db, "SELECT count(*) FROM handler_disposition WHERE event_key = ANY(?) "
                + "AND delivery_count > 1", keys);

            Effects.Deliveries deliveries = new Effects.Deliveries(attempts, ok, lost, pretended, timeouts, http,
                refused, gaveUp, sim.ackLatencyP50(), sim.ackLatencyP99());
            return new Effects(name, sent.size(), byKey.size(), deliveries, callbackRows, welcomes.size(),
                welcomesSent, welcomesExpired, welcomes.stream().map(EffectAudit::createdAt).toList(), crm.size(),
                crmMessages, texts.size(), botReplies, contactEvents.size(), contactRows, messages.size(),
                conversationRows, absorbed, redeliveries, duplicates, missing,
                Map.of("rowsDespite5xx", committedDespiteError[0]));
        }
    }

    /** The contact and conversation handlers' rows for a case's accepted events (see {@link #rowEffects}). */
    public record RowEffects(int contactsExpected, long contacts, int conversationsExpected, long conversations,
                             List<String> missing) {
    }

    /**
     * The two naturally idempotent handlers, whose effect is a row and not a call: per accepted (callback_log
     * row) change_external_contact event an external_contact row for its (app, member, customer); per accepted
     * message with a MsgId one conversation_message row for (app, MsgId) (its primary key: never two). Kept
     * apart from {@link #audit} so the suites that call that keep their meaning.
     */
    public static RowEffects rowEffects(List<EventFeed.Sent> sent) throws SQLException {
        Map<String, WeComEvent> accepted = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        try (Connection db = StackEnv.openDatabase()) {
            Map<String, Long> rows = countBy(db, "SELECT plaintext, count(*) FROM callback_log "
                + "WHERE plaintext = ANY(?) GROUP BY plaintext", sent.stream().map(s -> s.event().xml()).toList());
            for (EventFeed.Sent s : sent) {
                if (rows.getOrDefault(s.event().xml(), 0L) > 0) {
                    WeComEvent e = parse(s.event().xml());
                    accepted.putIfAbsent(s.event().app() + ":" + EventKeys.keyOf(e), e);
                }
            }
            Map<String, String> appByKey = new HashMap<>();
            for (EventFeed.Sent s : sent) {
                appByKey.putIfAbsent(s.event().app() + ":" + EventKeys.keyOf(parse(s.event().xml())), s.event().app());
            }
            int contactsExpected = 0, conversationsExpected = 0;
            long contacts = 0, conversations = 0;
            try (PreparedStatement contact = db.prepareStatement("SELECT count(*) FROM external_contact "
                     + "WHERE app = ? AND user_id = ? AND external_user_id = ?");
                 PreparedStatement message = db.prepareStatement(
                     "SELECT count(*) FROM conversation_message WHERE app = ? AND msg_id = ?")) {
                for (Map.Entry<String, WeComEvent> k : accepted.entrySet()) {
                    WeComEvent e = k.getValue();
                    String app = appByKey.get(k.getKey());
                    if ("change_external_contact".equals(e.typeName()) && e.userId() != null
                        && e.externalUserId() != null) {
                        contactsExpected++;
                        long n = one(contact, app, e.userId(), e.externalUserId());
                        contacts += Math.min(n, 1);
                        if (n == 0) {
                            missing.add("contact " + k.getKey() + " (no external_contact row)");
                        }
                    } else if (CONVERSATION_TYPES.contains(e.typeName()) && e.msgId() != null) {
                        conversationsExpected++;
                        long n = one(message, app, e.msgId());
                        conversations += Math.min(n, 1);
                        if (n == 0) {
                            missing.add("conversation " + k.getKey() + " (no conversation_message row)");
                        }
                    }
                }
            }
            return new RowEffects(contactsExpected, contacts, conversationsExpected, conversations, missing);
        }
    }

    private static long one(PreparedStatement s, String... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            s.setString(i + 1, values[i]);
        }
        try (ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    /** The keys of the case's events, as callback_log and the replay API name them. */
    static List<String> eventKeys(List<EventFeed.Sent> sent) {
        return sent.stream().map(s -> s.event().app() + ":" + EventKeys.keyOf(parse(s.event().xml())))
            .distinct().toList();
    }

    /** What a forced re-run (replay with a batch id) to crm and bot added: one more of each, no more. */
    record Rerun(int crmExpected, long crmMessages, int botExpected, long botReplies, List<String> duplicates,
                 List<String> missing) {
    }

    static Rerun auditRerun(WeComSimulator sim, List<EventFeed.Sent> sent, String batchId) throws SQLException {
        Map<String, KeyedEvent> byKey = new LinkedHashMap<>();
        for (EventFeed.Sent s : sent) {
            WeComEvent parsed = parse(s.event().xml());
            String key = s.event().app() + ":" + EventKeys.keyOf(parsed);
            byKey.putIfAbsent(key, new KeyedEvent(key, parsed, s.event().app(), List.of(s.event())));
        }
        List<String> duplicates = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        Map<String, Long> crmCounts = BrokerConsole.countMessagesBy(CRM_QUEUE, "", "dedupKey");
        List<KeyedEvent> crm = byKey.values().stream().filter(k -> CRM_TYPES.contains(k.event().typeName())).toList();
        long crmMessages = 0;
        for (KeyedEvent k : crm) {
            long n = crmCounts.getOrDefault("wecom:crm:" + k.crmKey() + ":" + batchId, 0L);
            crmMessages += Math.min(n, 1);
            if (n != 1) {
                (n == 0 ? missing : duplicates).add("crm re-run " + k.key() + " messages=" + n);
            }
        }
        List<KeyedEvent> texts = byKey.values().stream().filter(k -> EventMix.CUSTOMER.equals(k.app())
            && "text".equals(k.event().typeName())).toList();
        long botReplies = 0;
        try (Connection db = StackEnv.openDatabase()) {
            Map<String, Long> replyRows = countBy(db, "SELECT to_user, count(*) FROM bot_reply_log "
                + "WHERE batch_id = ? AND status = 'SENT' AND to_user = ANY(?) GROUP BY to_user", batchId,
                texts.stream().map(k -> k.event().fromUserName()).toList());
            for (KeyedEvent k : texts) {
                long delivered = deliveredReplies(sim, k.event().fromUserName(), batchId);
                long rows = replyRows.getOrDefault(k.event().fromUserName(), 0L);
                botReplies += Math.min(delivered, 1);
                if (delivered > 1 || rows > 1) {
                    duplicates.add("bot re-run " + k.key() + " delivered=" + delivered + " rows=" + rows);
                } else if (delivered == 0 || rows == 0) {
                    missing.add("bot re-run " + k.key() + " delivered=" + delivered + " rows=" + rows);
                }
            }
        }
        return new Rerun(crm.size(), crmMessages, texts.size(), botReplies, duplicates, missing);
    }

    /**
     * Replies WeCom delivered to this member: of normal runs (batchId null: requests without a batch id) or
     * of one re-run (the request carries its batch id). Suppressed duplicates do not count.
     */
    private static long deliveredReplies(WeComSimulator sim, String member, String batchId) {
        String expected = batchId == null ? null : Json.createValue(batchId).toString();
        return sim.apiCalls().calls(WeComApiPaths.MESSAGE_SEND).stream()
            .filter(c -> c.touser().filter(member::equals).isPresent())
            .filter(c -> c.errcode().orElse(-999) == 0 && !c.duplicateSuppressed())
            .filter(c -> Objects.equals(expected, c.extraFields().get(BotHandler.BATCH_FIELD)))
            .count();
    }

    /** A change_external_contact event the contact handler writes its row for (ContactHandler.handle). */
    private static boolean keptByContact(KeyedEvent k) {
        WeComEvent e = k.event();
        return CONTACT_TYPE.equals(e.typeName()) && CONTACT_CHANGE_TYPES.contains(e.changeType())
            && e.userId() != null && e.externalUserId() != null && e.createTime() > 0;
    }

    /** The contact row's key as the audit's query spells it. */
    private static String relationship(KeyedEvent k) {
        return k.app() + ":" + k.event().userId() + ":" + k.event().externalUserId();
    }

    /** The event's CreateTime (WeCom's clock, whole seconds): where its WelcomeCode's 20 s begin. */
    private static Instant createdAt(KeyedEvent k) {
        return Instant.ofEpochSecond(k.event().createTime());
    }

    private static WeComEvent parse(String xml) {
        try {
            return WeComEvent.parse(xml);
        } catch (MalformedXmlException e) {
            throw new IllegalStateException("the simulator made an event that does not parse", e);
        }
    }

    private static Map<String, Long> countBy(Connection db, String sql, Collection<String> values) throws SQLException {
        return countBy(db, sql, null, values);
    }

    /** With {@code first} set, it is parameter 1 and the array parameter 2. */
    private static Map<String, Long> countBy(Connection db, String sql, String first, Collection<String> values)
            throws SQLException {
        Map<String, Long> counts = new HashMap<>();
        try (PreparedStatement s = db.prepareStatement(sql)) {
            int i = 0;
            if (first != null) {
                s.setString(++i, first);
            }
            s.setArray(++i, db.createArrayOf("text", values.toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    counts.put(r.getString(1), r.getLong(2));
                }
            }
        }
        return counts;
    }

    private static Map<String, List<String>> listBy(Connection db, String sql, Collection<String> values)
            throws SQLException {
        Map<String, List<String>> lists = new HashMap<>();
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setArray(1, db.createArrayOf("text", values.toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    lists.computeIfAbsent(r.getString(1), k -> new ArrayList<>()).add(r.getString(2));
                }
            }
        }
        return lists;
    }

    private static long single(Connection db, String sql, Collection<String> values) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(sql)) {
            s.setArray(1, db.createArrayOf("text", values.toArray()));
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static String abbreviate(String plaintext) {
        return plaintext.length() <= 160 ? plaintext : plaintext.substring(0, 160) + "...";
    }
}
