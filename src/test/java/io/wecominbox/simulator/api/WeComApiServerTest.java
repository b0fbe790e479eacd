package io.wecominbox.simulator.api;

import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.testing.MutableClock;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WeComApiServerTest {

    private static final WeComApp CUSTOMER = new WeComApp("customer", "wwcorp1", "tok", "k".repeat(43), "1000002", "s3cret");
    private static final WeComApp CONTACTS = new WeComApp("contacts", "wwcorp1", "tok2", "q".repeat(43), "1000003", "other");

    private final MutableClock clock = new MutableClock(Instant.ofEpochSecond(1_700_000_000L));
    private final HttpClient http = HttpClient.newHttpClient();
    private WeComApiServer api;

    @BeforeEach
    void start() throws IOException {
        api = new WeComApiServer(0, () -> List.of(CUSTOMER, CONTACTS), clock, new Random(1), Duration.ofMillis(400),
                SimControlHandler.Extras.NONE, new io.wecominbox.simulator.directory.CustomerDirectory());
        api.start();
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void gettokenWithTheRightSecretReturnsATokenValidFor7200Seconds() throws Exception {
        JsonObject answer = getToken("wwcorp1", "s3cret");

        assertEquals(0, answer.getInt("errcode"));
        assertEquals("ok", answer.getString("errmsg"));
        assertEquals(7200, answer.getInt("expires_in"));
        assertFalse(answer.getString("access_token").isEmpty());
        assertEquals("customer", api.calls().calls(WeComApiPaths.GET_TOKEN).get(0).app().orElseThrow());
    }

    @Test
    void gettokenWithAWrongSecretAnswers40001AndAnUnknownCorp40013() throws Exception {
        assertEquals(WeComErrors.INVALID_CREDENTIAL, getToken("wwcorp1", "guess").getInt("errcode"));
        assertEquals(WeComErrors.INVALID_CORP_ID, getToken("wwnobody", "s3cret").getInt("errcode"));
    }

    @Test
    void callWithATokenExpiredOnDemandAnswers42001AndANewTokenWorks() throws Exception {
        String old = token();
        String code = issueCode();
        api.tokens().expireAllOf("customer");

        assertEquals(WeComErrors.ACCESS_TOKEN_EXPIRED, welcome(old, code).getInt("errcode"));
        assertEquals(0, welcome(token(), code).getInt("errcode"));
    }

    @Test
    void welcomeCodeSendsOnceAndTheRepeatAnswers41051() throws Exception {
        String token = token();
        String code = issueCode();

        assertEquals(0, welcome(token, code).getInt("errcode"));
        JsonObject repeat = welcome(token, code);
        assertEquals(41051, repeat.getInt("errcode"));
        assertTrue(repeat.getString("errmsg").startsWith("externaluser has started chatting"));
        assertEquals(1, api.calls().successfulWelcomeSends(code));
        assertEquals("Welcome!", api.calls().calls(WeComApiPaths.SEND_WELCOME_MSG).get(0).content().orElseThrow());
    }

    @Test
    void welcomeCodeIssuedToAnotherAppIsInvalidForThisApp() throws Exception {
        api.welcomeCodes().register("contacts", "THEIRS", clock.instant());

        assertEquals(WeComErrors.WELCOME_CODE_INVALID, welcome(token(), "THEIRS").getInt("errcode"));
        assertFalse(api.welcomeCodes().state("THEIRS").orElseThrow().used());
    }

    @Test
    void welcomeWithoutCodeAnswers41049() throws Exception {
        JsonObject answer = post(WeComApiPaths.SEND_WELCOME_MSG, token(), "{\"text\":{\"content\":\"hi\"}}");
        assertEquals(WeComErrors.WELCOME_CODE_MISSING, answer.getInt("errcode"));
    }

    @Test
    void systemBusyForTheNextTwoCallsThenTheCallSucceeds() throws Exception {
        String token = token();
        String code = issueCode();
        api.faults().add(ApiFaults.Rule.nextCalls(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SYSTEM_BUSY, 2));

        assertEquals(-1, welcome(token, code).getInt("errcode"));
        assertEquals(-1, welcome(token, code).getInt("errcode"));
        assertEquals(0, welcome(token, code).getInt("errcode"));
        assertEquals(3, api.calls().count(WeComApiPaths.SEND_WELCOME_MSG));
        assertEquals(2, api.calls().countWithErrcode(WeComApiPaths.SEND_WELCOME_MSG, -1));
        assertEquals(1, api.calls().successfulWelcomeSends(code));
    }

    @Test
    void otherAppSendingAnswers41096WithoutUsingTheCode() throws Exception {
        String token = token();
        String code = issueCode();
        api.faults().add(ApiFaults.Rule.nextCalls(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.OTHER_APP_SENDING, 1));

        assertEquals(41096, welcome(token, code).getInt("errcode"));
        assertEquals(0, welcome(token, code).getInt("errcode"));
    }

    @Test
    void http502IsAnsweredWithoutPerformingTheEffect() throws Exception {
        String token = token();
        String code = issueCode();
        api.faults().add(ApiFaults.Rule.nextCalls(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.HTTP_502, 1));

        HttpResponse<String> response = rawPost(WeComApiPaths.SEND_WELCOME_MSG, token, welcomeBody(code), Duration.ofSeconds(5));
        assertEquals(502, response.statusCode());
        assertEquals(0, api.calls().successfulWelcomeSends(code));
    }

    @Test
    void slowAnswerTimesTheCallerOutButStillSendsTheWelcome() throws Exception {
        String token = token();
        String code = issueCode();
        api.faults().add(ApiFaults.Rule.nextCalls(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.SLOW, 1));

        assertThrows(HttpTimeoutException.class,
                () -> rawPost(WeComApiPaths.SEND_WELCOME_MSG, token, welcomeBody(code), Duration.ofMillis(100)));
        assertEquals(1, api.calls().successfulWelcomeSends(code));
        assertEquals(41051, welcome(token, code).getInt("errcode"), "the caller's retry learns it went through");
    }

    @Test
    void droppedConnectionAfterTheEffectGivesNoAnswerButSendsTheWelcome() throws Exception {
        String token = token();
        String code = issueCode();
        api.faults().add(ApiFaults.Rule.nextCalls(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.DROP_AFTER_EFFECT, 1));

        assertThrows(IOException.class,
                () -> rawPost(WeComApiPaths.SEND_WELCOME_MSG, token, welcomeBody(code), Duration.ofSeconds(5)));
        assertEquals(1, api.calls().successfulWelcomeSends(code));
        assertEquals(0, api.calls().calls(WeComApiPaths.SEND_WELCOME_MSG).get(0).httpStatus());
    }

    @Test
    void droppedConnectionBeforeTheEffectLeavesTheCodeUnused() throws Exception {
        String token = token();
        String code = issueCode();
        api.faults().add(ApiFaults.Rule.nextCalls(WeComApiPaths.SEND_WELCOME_MSG, ApiFault.DROP_BEFORE_EFFECT, 1));

        assertThrows(IOException.class,
                () -> rawPost(WeComApiPaths.SEND_WELCOME_MSG, token, welcomeBody(code), Duration.ofSeconds(5)));
        assertEquals(0, api.calls().successfulWelcomeSends(code));
        assertEquals(0, welcome(token, code).getInt("errcode"));
    }

    @Test
    void invalidateTokenFaultMakesThatCallAnswer42001() throws Exception {
        String token = token();
        api.faults().add(ApiFaults.Rule.nextCalls(WeComApiPaths.MESSAGE_SEND, ApiFault.INVALIDATE_TOKEN, 1));

        assertEquals(42001, post(WeComApiPaths.MESSAGE_SEND, token, textMessage()).getInt("errcode"));
        assertEquals(42001, post(WeComApiPaths.MESSAGE_SEND, token, textMessage()).getInt("errcode"));
        assertEquals(0, post(WeComApiPaths.MESSAGE_SEND, token(), textMessage()).getInt("errcode"));
    }

    @Test
    void messageSendRecordsRecipientContentAndExtraFields() throws Exception {
        JsonObject answer = post(WeComApiPaths.MESSAGE_SEND, token(), textMessage());

        assertEquals(0, answer.getInt("errcode"));
        ApiCall call = api.calls().calls(WeComApiPaths.MESSAGE_SEND).get(0);
        assertEquals("zhangsan", call.touser().orElseThrow());
        assertEquals("收到，马上处理", call.content().orElseThrow());
        assertEquals("\"text\"", call.extraFields().get("msgtype"));
        assertEquals("1000002", call.extraFields().get("agentid"));
        assertEquals("customer", call.app().orElseThrow());
    }

    @Test
    void duplicateCheckDropsAnIdenticalMessageWithinItsIntervalAndDeliversItAgainAfter() throws Exception {
        String token = token();
        String checked = "{\"touser\":\"lisi\",\"msgtype\":\"text\",\"agentid\":1000002,"
                + "\"text\":{\"content\":\"收到\"},\"enable_duplicate_check\":1,\"duplicate_check_interval\":300}";

        assertEquals(0, post(WeComApiPaths.MESSAGE_SEND, token, checked).getInt("errcode"));
        assertEquals(0, post(WeComApiPaths.MESSAGE_SEND, token, checked).getInt("errcode"), "answered like a success");
        assertEquals(1, api.calls().deliveredMessages("lisi"), "but not delivered twice within 300 s");
        assertTrue(api.calls().calls(WeComApiPaths.MESSAGE_SEND).get(1).duplicateSuppressed());

        assertEquals(0, post(WeComApiPaths.MESSAGE_SEND, token, checked.replace(",\"enable_duplicate_check\":1", ""))
                .getInt("errcode"));
        assertEquals(2, api.calls().deliveredMessages("lisi"), "without the check an identical message goes out");

        clock.advance(Duration.ofSeconds(301));
        assertEquals(0, post(WeComApiPaths.MESSAGE_SEND, token(), checked).getInt("errcode"));
        assertEquals(3, api.calls().deliveredMessages("lisi"), "after the interval it is delivered again");
    }

    @Test
    void controlEndpointsInjectFaultsReportCallsShowWelcomeCodesAndReset() throws Exception {
        String token = token();
        String code = issueCode();
        HttpResponse<String> faults = control("POST", "/sim/faults",
                "{\"rules\":[{\"path\":\"" + WeComApiPaths.SEND_WELCOME_MSG + "\",\"fault\":\"system_busy\",\"next\":1}]}");
        assertEquals(200, faults.statusCode());

        assertEquals(-1, welcome(token, code).getInt("errcode"));
        assertEquals(0, welcome(token, code).getInt("errcode"));

        JsonObject calls = json(control("GET", "/sim/calls", null).body());
        assertEquals(3, calls.getInt("total"));
        assertEquals(2, calls.getJsonObject("byPath").getInt(WeComApiPaths.SEND_WELCOME_MSG));
        assertEquals(1, calls.getInt("successfulWelcomeSends"));
        assertFalse(calls.toString().contains("s3cret"), "the secret never shows up in the call log");
        assertFalse(calls.toString().contains(token), "the access token never shows up in the call log");

        JsonObject welcome = json(control("GET", "/sim/welcome/" + code, null).body());
        assertTrue(welcome.getBoolean("used"));
        assertEquals(1, welcome.getInt("sendAttempts"), "the system-busy call never reached the code");
        assertEquals(2, welcome.getJsonArray("calls").size());
        assertEquals(1, welcome.getInt("successfulSends"));
        assertEquals(404, control("GET", "/sim/welcome/NOPE", null).statusCode());

        assertEquals(400, control("POST", "/sim/faults", "{\"fault\":\"meteor\",\"next\":1}").statusCode());
        assertEquals(200, control("POST", "/sim/reset", "").statusCode());
        assertEquals(0, json(control("GET", "/sim/calls", null).body()).getInt("total"));
    }

    private String issueCode() {
        String code = "CODE-" + System.nanoTime();
        api.welcomeCodes().register("customer", code, clock.instant());
        return code;
    }

    private String token() throws Exception {
        return getToken("wwcorp1", "s3cret").getString("access_token");
    }

    private JsonObject getToken(String corpId, String secret) throws Exception {
        URI uri = api.baseUrl().resolve(WeComApiPaths.GET_TOKEN + "?corpid=" + corpId + "&corpsecret=" + secret);
        return json(http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private JsonObject welcome(String token, String code) throws Exception {
        return post(WeComApiPaths.SEND_WELCOME_MSG, token, welcomeBody(code));
    }

    private static String welcomeBody(String code) {
        return "{\"welcome_code\":\"" + code + "\",\"text\":{\"content\":\"Welcome!\"},\"attachments\":[]}";
    }

    private static String textMessage() {
        return "{\"touser\":\"zhangsan\",\"msgtype\":\"text\",\"agentid\":1000002,\"text\":{\"content\":\"收到，马上处理\"}}";
    }

    private JsonObject post(String path, String token, String body) throws Exception {
        return json(rawPost(path, token, body, Duration.ofSeconds(5)).body());
    }

    private HttpResponse<String> rawPost(String path, String token, String body, Duration timeout) throws Exception {
        URI uri = api.baseUrl().resolve(path + "?access_token=" + token);
        return http.send(HttpRequest.newBuilder(uri).timeout(timeout).POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> control(String method, String path, String body) throws Exception {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body);
        return http.send(HttpRequest.newBuilder(api.baseUrl().resolve(path)).method(method, publisher).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }
}
