package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.messaging.JndiNames;
import io.wecominbox.testsupport.Poll;
import io.wecominbox.testsupport.StackEnv;
import jakarta.annotation.Resource;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.Topic;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs inside Liberty against the real PostgreSQL and Artemis: signed callbacks posted over HTTP become
 * callback_log rows, committed before the answer, and then messages on the events topic, published by the
 * relay with the row's duplicate id: one of each per delivery.
 */
@ExtendWith(ArquillianExtension.class)
class CallbackDeliveryIT {

    @Deployment
    static WebArchive deployment() {
        return SignedCallbackDeployment.of(CallbackDeliveryIT.class);
    }

    @Resource(lookup = JndiNames.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = JndiNames.EVENTS_TOPIC)
    private Topic eventsTopic;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();

    @Test
    void signedDeliveryIsStoredThenPublishedOnceWithTheRowsDuplicateId() throws Exception {
        String msgId = uniqueMsgId();
        String plaintext = SampleEvents.textMessage(msgId, "hello");
        try (JMSContext jms = connectionFactory.createContext();
             JMSConsumer events = jms.createConsumer(eventsTopic, "eventKey = 'customer:msg:" + msgId + "'")) {
            HttpResponse<String> response = client.post("customer", wecom.post(plaintext));

            assertEquals(200, response.statusCode(), response.body());
            assertEquals("success", response.body());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));

            Message message = events.receive(5000);
            assertNotNull(message, "one message on the events topic");
            assertEquals(plaintext, message.getBody(String.class));
            assertEquals("customer", message.getStringProperty("app"));
            assertEquals("text", message.getStringProperty("eventType"));
            assertEquals("customer:msg:" + msgId, message.getStringProperty("eventKey"));
            assertEquals(1, message.getIntProperty("attempt"));
            assertEquals(SampleEvents.CREATE_TIME, message.getLongProperty("createTime"));
            assertTrue(message.getStringProperty("_AMQ_DUPL_ID").startsWith(
                "callback_log:" + message.getLongProperty("callbackLogId") + ":"),
                "stable per row: a re-send is dropped by the broker");
            assertNull(events.receive(500), "exactly one message");

            List<LogRow> rows = rows("customer:msg:" + msgId);
            assertEquals(1, rows.size());
            LogRow row = rows.get(0);
            assertEquals(message.getLongProperty("callbackLogId"), row.id);
            assertEquals(1, row.attempt);
            assertNull(row.secondsSincePrevious);
            assertEquals("ENQUEUED", row.outcome);
            assertEquals(plaintext, row.plaintext);
            assertTrue(Poll.until(Duration.ofSeconds(10), () -> publishedAt(row.id) != null), "marked published");
        }
    }

    @Test
    void aRowPublishedAgainAfterACrashIsDroppedByTheBrokersDuplicateDetection() throws Exception {
        String msgId = uniqueMsgId();
        try (JMSContext jms = connectionFactory.createContext();
             JMSConsumer events = jms.createConsumer(eventsTopic, "eventKey = 'customer:msg:" + msgId + "'")) {
            assertEquals(200, client.post("customer", wecom.post(SampleEvents.textMessage(msgId, "once"))).statusCode());
            Message message = events.receive(5000);
            assertNotNull(message);
            long id = message.getLongProperty("callbackLogId");
            assertTrue(Poll.until(Duration.ofSeconds(10), () -> publishedAt(id) != null));
            // what a crash between the broker's commit and the relay's own leaves behind: sent, not marked
            try (Connection c = dataSource.getConnection();
                 PreparedStatement unmark = c.prepareStatement(
                     "UPDATE callback_log SET published_at = NULL WHERE callback_log_id = ?")) {
                unmark.setLong(1, id);
                assertEquals(1, unmark.executeUpdate());
            }
            assertTrue(Poll.until(Duration.ofSeconds(20), () -> publishedAt(id) != null), "the relay sent it again");
            assertNull(events.receive(2000), "the broker dropped the second copy");
        }
    }

    @Test
    void threeIdenticalDeliveriesBecomeThreeRowsWithAttemptsOneTwoThreeAndThreeMessages() throws Exception {
        String msgId = uniqueMsgId();
        String key = "customer:msg:" + msgId;
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, "retried"));
        try (JMSContext jms = connectionFactory.createContext();
             JMSConsumer events = jms.createConsumer(eventsTopic, "eventKey = '" + key + "'")) {
            for (int i = 0; i < 3; i++) {
                assertEquals(200, client.post("customer", wire).statusCode(), "byte-identical re-send " + i);
            }
            List<Integer> attempts = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Message message = events.receive(5000);
                assertNotNull(message, "message " + (i + 1));
                attempts.add(message.getIntProperty("attempt"));
            }
            assertNull(events.receive(500));
            assertEquals(List.of(1, 2, 3), attempts);
        }
        List<LogRow> rows = rows(key);
        assertEquals(List.of(1, 2, 3), rows.stream().map(r -> r.attempt).toList());
        assertNull(rows.get(0).secondsSincePrevious);
        assertTrue(rows.get(1).secondsSincePrevious.signum() >= 0);
        assertEquals(wire.query(), rows.get(2).queryString, "kept as received");
        assertEquals(wire.body(), rows.get(2).rawBody);
    }

    @Test
    void concurrentDeliveriesOfOneEventGetDistinctAttemptNumbers() throws Exception {
        String msgId = uniqueMsgId();
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, "raced"));
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                answers.add(pool.submit(() -> client.post("customer", wire)));
            }
            for (Future<HttpResponse<String>> answer : answers) {
                assertEquals(200, answer.get().statusCode());
            }
        } finally {
            pool.shutdownNow();
        }
        Set<Integer> attempts = new TreeSet<>(rows("customer:msg:" + msgId).stream().map(r -> r.attempt).toList());
        assertEquals(new TreeSet<>(java.util.stream.IntStream.rangeClosed(1, 16).boxed().toList()), attempts,
            "one group commit or several: every copy gets its own number");
    }

    @Test
    void aClientAskingForHttp2IsAnsweredOverHttp11() throws Exception {
        String msgId = uniqueMsgId();
        SignedCallbacks.Wire wire = wecom.post(SampleEvents.textMessage(msgId, "over h2c?"));
        byte[] body = wire.body().getBytes(StandardCharsets.UTF_8);
        URI base = URI.create(StackEnv.baseUrl());
        // what an HTTP/2 client sends on a cleartext port: an ordinary request that offers the upgrade
        String head = "POST /wecom/callback/customer?" + wire.query() + " HTTP/1.1\r\n"
            + "Host: " + base.getHost() + ":" + base.getPort() + "\r\n"
            + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n"
            + "Content-Type: text/xml\r\nContent-Length: " + body.length + "\r\n\r\n";
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                StandardCharsets.US_ASCII)).readLine();
            assertTrue(status != null && status.startsWith("HTTP/1.1 200"), "HTTP/2 is off on the callback endpoint:"
                + " no 101 Switching Protocols, the request is answered over HTTP/1.1, got: " + status);
        }
        assertEquals(1, rows("customer:msg:" + msgId).size(), "stored once, like any other delivery");
    }

    @Test
    void getVerificationAnswersTheDecryptedEchostrWithPlusRawOrEncoded() {
        for (boolean encodePlus : new boolean[] {true, false}) {
            // Enough random echo strings that the Base64 almost surely holds a '+'.
            for (int i = 0; i < 5; i++) {
                String echo = Long.toString(Math.abs(System.nanoTime())) + i;
                HttpResponse<String> response = client.get("customer", wecom.verificationQuery(echo, encodePlus));
                assertEquals(200, response.statusCode(), response.body());
                assertEquals(echo, response.body(), "the bare decrypted echostr, no quotes or newline");
            }
        }
    }

    private OffsetDateTime publishedAt(long id) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement s = c.prepareStatement("SELECT published_at FROM callback_log WHERE callback_log_id = ?")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getObject(1, OffsetDateTime.class) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String uniqueMsgId() {
        return Long.toString(System.currentTimeMillis() * 1000 + (System.nanoTime() % 1000 + 1000) % 1000);
    }

    private List<LogRow> rows(String eventKey) throws SQLException {
        String sql = "SELECT callback_log_id, attempt, seconds_since_previous, outcome, plaintext, query_string,"
                + " raw_body FROM callback_log WHERE event_key = ? ORDER BY received_at, callback_log_id";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, eventKey);
            List<LogRow> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    rows.add(new LogRow(rs.getLong(1), rs.getInt(2), rs.getBigDecimal(3), rs.getString(4),
                            rs.getString(5), rs.getString(6), rs.getString(7)));
                }
            }
            return rows;
        }
    }

    private record LogRow(long id, int attempt, BigDecimal secondsSincePrevious, String outcome, String plaintext,
                          String queryString, String rawBody) {
    }
}
