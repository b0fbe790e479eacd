package io.wecominbox.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.event.SampleEvents;
import io.wecominbox.messaging.JndiNames;
import io.wecominbox.testsupport.Poll;
import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.Topic;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every kind of bad request gets its 4xx and a JSON reason, leaves no callback_log row and no message, and is
 * counted in callback_rejection. Each test ends with a good delivery: the first message the test's
 * subscriber sees must be that one, so nothing was published for the bad requests before it.
 */
@ExtendWith(ArquillianExtension.class)
class CallbackRejectionIT {

    @Deployment
    static WebArchive deployment() {
        return SignedCallbackDeployment.of(CallbackRejectionIT.class);
    }

    @Resource(lookup = JndiNames.CONNECTION_FACTORY)
    private ConnectionFactory connectionFactory;

    @Resource(lookup = JndiNames.EVENTS_TOPIC)
    private Topic eventsTopic;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    private RejectionAudit audit;

    private final SignedCallbacks wecom = SignedCallbacks.forStackApp("customer");
    private final CallbackClient client = new CallbackClient();
    private final String event = SampleEvents.textMessage("77" + System.nanoTime(), "x");

    @Test
    void forgedOrMissingSignatureIs401() throws Exception {
        SignedCallbacks.Wire wire = wecom.post(event);
        // change the signature's first character to another one (a fixed "0" left 1 in 16 signatures intact)
        String signature = wire.query().replaceAll(".*msg_signature=([^&]+).*", "$1");
        String forged = wire.query().replace("msg_signature=" + signature,
                "msg_signature=" + (signature.startsWith("0") ? "1" : "0") + signature.substring(1));
        assertRefused(401, "bad_signature", "customer", forged, wire.body());
        assertRefused(401, "missing_signature", "customer", "timestamp=1&nonce=2", wire.body());
        SignedCallbacks.Wire otherToken = new SignedCallbacks("notTheToken", randomKey(), wecom.corpId(), "1").post(event);
        assertRefused(401, "bad_signature", "customer", otherToken.query(), wire.body());
    }

    @Test
    void unknownAppIs404() throws Exception {
        SignedCallbacks.Wire wire = wecom.post(event);
        assertRefused(404, "unknown_app", "?", "no-such-app", wire.query(), wire.body());
    }

    @Test
    void malformedEnvelopesAndCiphertextsAre400() throws Exception {
        SignedCallbacks.Wire good = wecom.post(event);
        assertRefused(400, "malformed_xml", "customer", good.query(), "this is not xml");
        assertRefused(400, "missing_encrypt", "customer", good.query(), "<xml><ToUserName>x</ToUserName></xml>");
        SignedCallbacks.Wire base64 = wecom.postEncrypt("%%%not-base64%%%");
        assertRefused(400, "bad_base64", "customer", base64.query(), base64.body());
        SignedCallbacks.Wire padding = wecom.postEncrypt(wecom.encryptWithBadPadding());
        assertRefused(400, "bad_padding", "customer", padding.query(), padding.body());
        SignedCallbacks.Wire otherCorp = wecom.postEncrypt(wecom.encryptForOtherCorp(event));
        assertRefused(400, "wrong_receiver", "customer", otherCorp.query(), otherCorp.body());
    }

    @Test
    void doctypeAndEntityTricksAre400AndReadNothingFromDisk() throws Exception {
        String marker = "MARKER-" + UUID.randomUUID();
        Path secret = Files.createTempFile("xxe", ".txt");
        try {
            Files.writeString(secret, marker);
            String external = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY x SYSTEM \"" + secret.toUri()
                    + "\">]><xml><Encrypt>&x;</Encrypt></xml>";
            String billionLaughs = "<!DOCTYPE xml [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>"
                    + "<xml><Encrypt>&b;</Encrypt></xml>";
            SignedCallbacks.Wire good = wecom.post(event);
            HttpResponse<String> response = assertRefused(400, "forbidden_xml", "customer", good.query(), external);
            assertFalse(response.body().contains(marker));
            assertRefused(400, "forbidden_xml", "customer", good.query(), billionLaughs);
            assertRefused(400, "forbidden_xml", "customer", good.query(), "<xml><Encrypt>&x;</Encrypt></xml>");
            audit.flush();
            assertEquals(0, count("SELECT count(*) FROM callback_rejection WHERE sample LIKE ?", "%" + marker + "%"));
        } finally {
            Files.deleteIfExists(secret);
        }
    }

    @Test
    void bodyOverTheCapIs413DeclaredOrChunked() throws Exception {
        SignedCallbacks.Wire good = wecom.post(event);
        String big = "<xml><Encrypt>" + "A".repeat(70_000) + "</Encrypt></xml>";
        assertRefused(413, "body_too_large", "customer", good.query(), big);
        Instant before = Instant.now();
        try (JMSContext jms = connectionFactory.createContext();
             JMSConsumer events = jms.createConsumer(eventsTopic)) {
            HttpResponse<String> chunked = client.postChunked("customer", good.query(), new byte[1_000_000]);
            assertEquals(413, chunked.statusCode());
            assertNothingStoredSince(before);
            assertGoodDeliveryIsTheFirstMessage(events);
        }
    }

    @Test
    void aBodyNotCompleteByTheDeadlineIs408AndOneBrokenOffIsCountedAsIncomplete() throws Exception {
        SignedCallbacks.Wire good = wecom.post(event);
        URI base = URI.create(io.wecominbox.testsupport.StackEnv.baseUrl());
        String head = "POST /wecom/callback/customer?" + good.query() + " HTTP/1.1\r\nHost: " + base.getHost()
                + "\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n\r\n<xml>";
        long slowBefore = audited("customer", "body_too_slow");
        try (Socket slow = new Socket(base.getHost(), base.getPort())) {
            slow.setSoTimeout(30_000); // the server's body deadline is 5 s: bounded generously
            slow.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            String answer = new String(slow.getInputStream().readNBytes(2048), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
            assertTrue(answer.contains("\"error\":\"body_too_slow\""), answer);
        }
        long incompleteBefore = audited("customer", "body_incomplete");
        try (Socket broken = new Socket(base.getHost(), base.getPort())) {
            broken.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
        } // closed 995 bytes short
        audit.flush();
        // the server learns of the break when its read fails: then it counts it, flushed at the next interval
        assertTrue(Poll.until(Duration.ofSeconds(30), () -> audited("customer", "body_incomplete") == incompleteBefore + 1),
                "the broken-off body is counted as body_incomplete");
        assertEquals(slowBefore + 1, audited("customer", "body_too_slow"), "the slow one counted once");
        try (JMSContext jms = connectionFactory.createContext();
             JMSConsumer events = jms.createConsumer(eventsTopic)) {
            assertGoodDeliveryIsTheFirstMessage(events);
        }
    }

    @Test
    void aSignedDeliveryStampedADayAgoIsRefusedAsStaleWhileWeComsLateRetryIsStillTaken() throws Exception {
        long now = Instant.now().getEpochSecond();
        SignedCallbacks.Wire replayed = wecom.postStampedAt(event, now - 24 * 3600);
        assertRefused(401, "stale_timestamp", "customer", replayed.query(), replayed.body());
        // WeCom's last retry comes ~90 s after the first delivery, possibly with its timestamp: still accepted
        String lateRetry = SampleEvents.textMessage("78" + System.nanoTime(), "late retry");
        SignedCallbacks.Wire late = wecom.postStampedAt(lateRetry, now - 95);
        assertEquals(200, client.post("customer", late.query(), late.body()).statusCode());
    }

    @Test
    void hostileXmlGetsItsOwn400AndTheNextGoodDeliveryIsTaken() throws Exception {
        SignedCallbacks.Wire good = wecom.post(event);
        int levels = 8_000; // deep enough to overflow a recursive reader, small enough for the 64 KiB body cap
        String deep = "<xml>" + "<a>".repeat(levels) + "</a>".repeat(levels) + "</xml>";
        assertRefused(400, "xml_too_deep", "customer", good.query(), deep);
        assertRefused(400, "xml_too_many_elements", "customer", good.query(),
                "<xml><Encrypt>x</Encrypt>" + "<b/>".repeat(12_000) + "</xml>");
        StringBuilder attributes = new StringBuilder("<xml");
        for (int i = 0; i < 40; i++) {
            attributes.append(" a").append(i).append("=\"v\"");
        }
        assertRefused(400, "xml_too_many_attributes", "customer", good.query(),
                attributes.append("><Encrypt>x</Encrypt></xml>").toString());
        SignedCallbacks.Wire signedDeep = wecom.post("<xml>" + "<a>".repeat(2_000) + "</a>".repeat(2_000) + "</xml>");
        assertRefused(400, "xml_too_deep", "customer", signedDeep.query(), signedDeep.body());
    }

    @Test
    void aBodyThatIsNotUtf8Is400BadEncoding() throws Exception {
        SignedCallbacks.Wire good = wecom.post(event);
        byte[] body = good.body().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] broken = java.util.Arrays.copyOf(body, body.length + 2);
        // an invalid UTF-8 sequence (0xC3 then a byte that cannot continue it) inside the element's text
        int at = good.body().indexOf("</ToUserName>");
        System.arraycopy(body, at, broken, at + 2, body.length - at);
        broken[at] = (byte) 0xC3;
        broken[at + 1] = (byte) 0x28;
        HttpResponse<String> response = client.postChunked("customer", good.query(), broken);
        assertEquals(400, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"error\":\"bad_encoding\""), response.body());
    }

    private HttpResponse<String> assertRefused(int status, String code, String auditApp, String query, String body)
            throws Exception {
        return assertRefused(status, code, auditApp, "customer", query, body);
    }

    /** The request gets its status and JSON code, stores nothing, publishes nothing and is audited. */
    private HttpResponse<String> assertRefused(int status, String code, String auditApp, String app, String query,
                                               String body) throws Exception {
        Instant before = Instant.now();
        long auditedBefore = audited(auditApp, code);
        HttpResponse<String> response;
        try (JMSContext jms = connectionFactory.createContext();
             JMSConsumer events = jms.createConsumer(eventsTopic)) {
            response = client.post(app, query, body);
            assertEquals(status, response.statusCode(), response.body());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
            assertTrue(response.body().contains("\"error\":\"" + code + "\""), response.body());
            assertFalse(response.body().contains("Exception"), "no stack trace: " + response.body());
            assertNothingStoredSince(before);
            assertGoodDeliveryIsTheFirstMessage(events);
        }
        // The periodic flush may be writing it right now: flush ours and wait for either to land.
        audit.flush();
        assertTrue(Poll.until(Duration.ofSeconds(15), () -> audited(auditApp, code) >= auditedBefore + 1),
                "counted in callback_rejection");
        assertEquals(auditedBefore + 1, audited(auditApp, code), "counted once");
        return response;
    }

    private void assertGoodDeliveryIsTheFirstMessage(JMSConsumer events) throws Exception {
        String msgId = Long.toString(System.nanoTime());
        assertEquals(200, client.post("customer", wecom.post(SampleEvents.textMessage(msgId, "control"))).statusCode());
        Message first = events.receive(5000);
        assertNotNull(first);
        assertEquals("customer:msg:" + msgId, first.getStringProperty("eventKey"), "no message for the bad request");
    }

    private void assertNothingStoredSince(Instant before) throws SQLException {
        assertEquals(0, count("SELECT count(*) FROM callback_log WHERE received_at >= ?", Timestamp.from(before)));
    }

    private long audited(String app, String reason) {
        String sql = "SELECT coalesce(sum(rejection_count), 0) FROM callback_rejection WHERE app = ? AND reason = ?";
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, app);
            s.setString(2, reason);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long count(String sql, Object parameter) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            s.setObject(1, parameter);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String randomKey() {
        return io.wecominbox.crypto.EncodingAesKeys.generate();
    }
}
