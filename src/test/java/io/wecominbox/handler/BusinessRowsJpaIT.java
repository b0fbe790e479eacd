package io.wecominbox.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.dedup.ColdClaim;
import io.wecominbox.dedup.ColdRecord;
import io.wecominbox.dedup.JdbcColdTier;
import io.wecominbox.event.SampleEvents;
import io.wecominbox.event.WeComEvent;
import io.wecominbox.handler.bot.BotReplyLog;
import io.wecominbox.handler.bot.BotReplyLog.BotReply;
import io.wecominbox.handler.contact.ExternalContactStore;
import io.wecominbox.handler.contact.ExternalContactStore.ContactChange;
import io.wecominbox.handler.conversation.ConversationMessageStore;
import io.wecominbox.handler.welcome.WelcomeSendLog;
import io.wecominbox.handler.welcome.WelcomeSendLog.WelcomeCase;
import io.wecominbox.handler.welcome.WelcomeSendLog.WelcomeResult;
import io.wecominbox.handler.welcome.WelcomeStatus;
import io.wecominbox.relationship.Relationship;
import io.wecominbox.testsupport.Deployments;
import io.wecominbox.testsupport.StackEnv;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.persistence.Column;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Id;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import jakarta.persistence.metamodel.EntityType;
import jakarta.persistence.metamodel.Metamodel;
import jakarta.transaction.UserTransaction;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * In the container, on the real database: the business rows are JPA entities whose declared unique
 * constraints and identities are unique indexes of the migrated schema, and their stores write through the
 * EntityManager inside the caller's JTA transaction, together with the dedup tier's JDBC claim: a rollback
 * leaves none of them, a commit all of them. (The consumer's own transaction: WelcomeHandlerIT's failure
 * after the effect ends with one row of attempt 2, so attempt 1's row rolled back with its batch.)
 */
@ExtendWith(ArquillianExtension.class)
class BusinessRowsJpaIT {

    private static final Set<String> BUSINESS_TABLES = Set.of("welcome_send_log", "external_contact",
        "conversation_message", "bot_reply_log", "replay_run");

    @Deployment
    static WebArchive deployment() {
        return Deployments.application().addClasses(BusinessRowsJpaIT.class, BusinessRowsJpaIT.Persistence.class,
            SampleEvents.class, Deployments.class, StackEnv.class);
    }

    @Inject
    Persistence persistence;

    @Resource(lookup = "jdbc/wecom")
    DataSource dataSource;

    @Resource(lookup = "java:comp/UserTransaction")
    UserTransaction transaction;

    @Inject
    WelcomeSendLog welcomes;

    @Inject
    BotReplyLog botReplies;

    @Inject
    ConversationMessageStore conversations;

    @Inject
    ExternalContactStore contacts;

    @Inject
    JdbcColdTier coldTier;

    @Test
    void everyEntitysUniqueConstraintsAndIdentityAreUniqueIndexesOfTheLiveSchema() throws Exception {
        Set<String> mapped = new HashSet<>();
        for (EntityType<?> entity : persistence.metamodel().getEntities()) {
            Class<?> type = entity.getJavaType();
            Table table = type.getAnnotation(Table.class);
            String name = table.name();
            mapped.add(name);
            Map<String, Set<String>> indexes = uniqueIndexes(name);
            Set<String> columns = columns(name);
            for (UniqueConstraint declared : table.uniqueConstraints()) {
                assertTrue(indexes.containsKey(declared.name()), name + ": declared unique constraint "
                    + declared.name() + " is no unique index of the table (it has " + indexes + ")");
                assertEquals(Set.of(declared.columnNames()), indexes.get(declared.name()),
                    name + "." + declared.name() + ": columns");
            }
            Set<String> idColumns = new TreeSet<>();
            for (Field f : type.getDeclaredFields()) {
                Column column = f.getAnnotation(Column.class);
                if (column == null) {
                    continue;
                }
                assertTrue(columns.contains(column.name()), name + ": mapped column " + column.name() + " missing");
                if (f.isAnnotationPresent(Id.class)) {
                    idColumns.add(column.name());
                }
            }
            assertTrue(indexes.containsValue(idColumns), name + ": the entity's identity " + idColumns
                + " is no unique index of the table (it has " + indexes + ")");
        }
        assertTrue(mapped.containsAll(BUSINESS_TABLES), "business tables mapped: " + mapped);
        for (String table : BUSINESS_TABLES) {
            assertTrue(persistence.metamodel().getEntities().stream().map(EntityType::getJavaType)
                .anyMatch(t -> t.getAnnotation(Table.class).uniqueConstraints().length > 0
                    && t.getAnnotation(Table.class).name().equals(table)), table + " declares its unique constraint");
        }
    }

    @Test
    void theStoresWriteThroughTheEntityManagerInTheCallersTransactionWithTheDedupClaim() throws Exception {
        Rows rolledBack = new Rows();
        transaction.begin();
        try {
            rolledBack.write();
            // flushed onto the transaction's one connection: the JDBC of this transaction sees them, and the
            // dedup claim is on the same PostgreSQL transaction (not a second branch on a second connection)
            assertEquals(List.of(1L, 1L, 1L, 1L, 1L), rolledBack.counts(), "every row inside the transaction");
        } finally {
            transaction.rollback();
        }
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L), rolledBack.counts(), "nothing left after the rollback");

        Rows committed = new Rows();
        transaction.begin();
        committed.write();
        transaction.commit();
        assertEquals(List.of(1L, 1L, 1L, 1L, 1L), committed.counts(), "every row after the commit");

        // again, in a new transaction: the conflicts neither fail it nor change a row
        transaction.begin();
        try {
            assertFalse(conversations.keep(committed.message), "a repeated message is not stored twice");
            ContactChange older = new ContactChange(committed.contactChange.key(),
                committed.contactChange.at().minusSeconds(60), 0, null);
            assertFalse(contacts.added(older, "HALF_ADDED", null), "an older add changes nothing");
        } finally {
            transaction.commit();
        }
        assertEquals(List.of(1L, 1L, 1L, 1L, 1L), committed.counts());
        assertEquals(1, count("SELECT count(*) FROM external_contact WHERE status = 'ADDED' AND user_id = ?",
            committed.contactChange.key().userId()), "the newer add still holds");
    }

    @Test
    void aBatchOfMessagesIsStoredInOneInsertThatSkipsRepeatsInTheTableAndInTheBatch() throws Exception {
        String tag = UUID.randomUUID().toString();
        HandledEvent stored = message("batch-old-" + tag, "kept before");
        HandledEvent first = message("batch-a-" + tag, "first");
        HandledEvent second = message("batch-b-" + tag, "second");
        transaction.begin();
        assertTrue(conversations.keep(stored), "stored alone first");
        transaction.commit();

        transaction.begin();
        int kept;
        try {
            kept = conversations.keepAll(List.of(second, stored, first, second));
        } finally {
            transaction.commit();
        }

        assertEquals(2, kept, "the two new messages, once each");
        for (String id : List.of("batch-old-", "batch-a-", "batch-b-")) {
            assertEquals(1, count("SELECT count(*) FROM conversation_message WHERE app = 'jpa' AND msg_id = ?",
                id + tag), id + " once");
        }
        assertEquals(1, count("SELECT count(*) FROM conversation_message WHERE app = 'jpa' AND msg_id = ?"
            + " AND content = 'first' AND plaintext LIKE '%first%' AND sent_at IS NOT NULL", "batch-a-" + tag),
            "each row holds its own message's fields");
    }

    private static HandledEvent message(String msgId, String content) throws Exception {
        String plaintext = SampleEvents.textMessage(msgId, content);
        return new HandledEvent("jpa", "text", "customer:msg:" + msgId, "wecom:conversation:" + msgId, null, 0, 1,
            plaintext, WeComEvent.parse(plaintext));
    }

    /** The persistence unit, for the metamodel (the test instance gets no @PersistenceContext of its own). */
    @Dependent
    static class Persistence {
        @PersistenceContext(unitName = "wecom")
        private EntityManager em;

        Metamodel metamodel() {
            return em.getMetamodel();
        }
    }

    /** One row of each consumer table and a dedup claim, under fresh keys. */
    private final class Rows {
        final String tag = UUID.randomUUID().toString();
        final String code = "jpa-code-" + tag;
        final String eventKey = "jpa:msg:" + tag;
        final String dedupKey = "wecom:bot:" + eventKey;
        final HandledEvent message;
        final ContactChange contactChange;

        Rows() throws Exception {
            String plaintext = SampleEvents.textMessage("jpa-" + tag, "hello");
            message = new HandledEvent("jpa", "text", "customer:msg:jpa-" + tag, dedupKey, null, 0, 1, plaintext,
                WeComEvent.parse(plaintext));
            contactChange = new ContactChange(new Relationship("jpa", "member-" + tag, "customer-" + tag),
                Instant.ofEpochSecond(1_700_000_000L), 0, null);
        }

        void write() {
            assertEquals(ColdClaim.CLAIMED, coldTier.claim(new ColdRecord(dedupKey, "bot", eventKey, null, "jpa",
                "ID:" + tag, 0, Duration.ofDays(1))));
            Instant now = Instant.now();
            welcomes.recordAll(List.of(new WelcomeSendLog.Row(new WelcomeCase(code, "jpa", "member", "customer", null,
                "add_external_contact", 0, "jpa:welcome:" + code, now, now.plusSeconds(18), 1),
                new WelcomeResult(WelcomeStatus.SENT, 0, "ok", false, "wecom.welcome.jpa.text", now))));
            botReplies.record(new BotReply(dedupKey, "jpa", "jpa-" + tag, "member", null, 0, now, 1, "SENT", 0, "ok",
                "msgid", true, now));
            botReplies.flush();
            assertTrue(conversations.keep(message), "stored");
            assertTrue(contacts.added(contactChange, "ADDED", null), "added");
        }

        long welcomeRows() throws Exception {
            return count("SELECT count(*) FROM welcome_send_log WHERE welcome_code = ?", code);
        }

        /** welcome_send_log, bot_reply_log, conversation_message, external_contact, handler_dedup. */
        List<Long> counts() throws Exception {
            List<Long> counts = new ArrayList<>();
            counts.add(welcomeRows());
            counts.add(count("SELECT count(*) FROM bot_reply_log WHERE dedup_key = ?", dedupKey));
            counts.add(count("SELECT count(*) FROM conversation_message WHERE app = 'jpa' AND msg_id = ?", "jpa-" + tag));
            counts.add(count("SELECT count(*) FROM external_contact WHERE app = 'jpa' AND user_id = ?", "member-" + tag));
            counts.add(count("SELECT count(*) FROM handler_dedup WHERE dedup_key = ?", dedupKey));
            return counts;
        }
    }

    private long count(String sql, String parameter) throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, parameter);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Non-partial unique indexes of a table: name → its columns. */
    private Map<String, Set<String>> uniqueIndexes(String table) throws Exception {
        String sql = """
                SELECT i.relname, a.attname
                FROM pg_index x
                JOIN pg_class t ON t.oid = x.indrelid
                JOIN pg_class i ON i.oid = x.indexrelid
                JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (x.indkey)
                WHERE t.relname = ? AND t.relnamespace = current_schema()::regnamespace
                  AND x.indisunique AND x.indpred IS NULL
                """;
        Map<String, Set<String>> indexes = new HashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    indexes.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getString(2));
                }
            }
        }
        return indexes;
    }

    private Set<String> columns(String table) throws Exception {
        Set<String> columns = new HashSet<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?")) {
            s.setString(1, table);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
        }
        return columns;
    }
}
