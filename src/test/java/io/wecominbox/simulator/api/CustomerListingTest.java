package io.wecominbox.simulator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wecominbox.simulator.config.WeComApp;
import io.wecominbox.simulator.directory.CustomerDirectory;
import io.wecominbox.simulator.testing.MutableClock;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The fake API's customer listing: from the directory, paged by cursor, within WeCom's limits. */
class CustomerListingTest {

    private static final WeComApp CUSTOMER = new WeComApp("customer", "wwcorp1", "tok", "k".repeat(43), "1000002", "s3cret");
    private static final Instant T0 = Instant.ofEpochSecond(1_700_000_000L);

    private final MutableClock clock = new MutableClock(T0);
    private final HttpClient http = HttpClient.newHttpClient();
    private final CustomerDirectory directory = new CustomerDirectory();
    private WeComApiServer api;

    @BeforeEach
    void start() throws Exception {
        api = new WeComApiServer(0, () -> List.of(CUSTOMER), clock, new Random(1), Duration.ofMillis(400),
            SimControlHandler.Extras.NONE, directory);
        api.start();
        for (int i = 0; i < 7; i++) {
            directory.added("customer", "lisi", "wm" + i, "s", T0.plusSeconds(i));
        }
        directory.added("customer", "zhangsan", "wmZ", "", T0);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void theFollowUserListNamesTheMembersWithCustomers() throws Exception {
        JsonObject answer = get(WeComApiPaths.GET_FOLLOW_USER_LIST + "?access_token=" + token());
        assertEquals(List.of("lisi", "zhangsan"), answer.getJsonArray("follow_user").getValuesAs(
            jakarta.json.JsonString::getString));
    }

    @Test
    void pagesOfThreeListEveryCustomerOnceAndTheLastHasAnEmptyCursor() throws Exception {
        String token = token();
        Set<String> seen = new HashSet<>();
        String cursor = "";
        int pages = 0;
        do {
            JsonObject page = batch(token, "[\"lisi\",\"zhangsan\"]", cursor, 3);
            assertEquals(0, page.getInt("errcode"));
            JsonArray list = page.getJsonArray("external_contact_list");
            assertTrue(list.size() <= 3);
            list.forEach(v -> assertTrue(seen.add(v.asJsonObject().getJsonObject("external_contact")
                .getString("external_userid")), "listed twice"));
            cursor = page.getString("next_cursor");
            pages++;
        } while (!cursor.isEmpty());
        assertEquals(8, seen.size());
        assertEquals(3, pages);
    }

    @Test
    void createtimeStaysTheFirstAddAfterADeleteAndReAdd() throws Exception {
        directory.removed("customer", "zhangsan", "wmZ");
        directory.added("customer", "zhangsan", "wmZ", "again", T0.plusSeconds(500));
        JsonObject follow = batch(token(), "[\"zhangsan\"]", "", 10).getJsonArray("external_contact_list")
            .getJsonObject(0).getJsonObject("follow_info");
        assertEquals(T0.getEpochSecond(), follow.getJsonNumber("createtime").longValue());
        assertEquals("again", follow.getString("state"));
    }

    @Test
    void aLimitAboveOneHundredAnUnknownCursorAndAnExpiredTokenAreRefused() throws Exception {
        String token = token();
        assertEquals(WeComErrors.INVALID_PARAMETER, batch(token, "[\"lisi\"]", "", 101).getInt("errcode"));
        assertEquals(WeComErrors.INVALID_PARAMETER, batch(token, "[\"lisi\"]", "bogus", 10).getInt("errcode"));
        api.tokens().expireAllOf("customer");
        assertEquals(WeComErrors.ACCESS_TOKEN_EXPIRED, batch(token, "[\"lisi\"]", "", 10).getInt("errcode"));
    }

    @Test
    void beyondTheFrequencyLimitTheAnswerIs45009UntilTheMinuteHasPassed() throws Exception {
        String token = token();
        api.frequencyLimit().perMinute(2);
        assertEquals(0, batch(token, "[\"lisi\"]", "", 10).getInt("errcode"));
        assertEquals(0, batch(token, "[\"lisi\"]", "", 10).getInt("errcode"));
        assertEquals(WeComErrors.API_FREQUENCY_LIMIT, batch(token, "[\"lisi\"]", "", 10).getInt("errcode"));
        clock.advance(Duration.ofSeconds(61));
        assertEquals(0, batch(token, "[\"lisi\"]", "", 10).getInt("errcode"));
    }

    private String token() throws Exception {
        return get("/cgi-bin/gettoken?corpid=wwcorp1&corpsecret=s3cret").getString("access_token");
    }

    private JsonObject batch(String token, String users, String cursor, int limit) throws Exception {
        return post(WeComApiPaths.BATCH_GET_BY_USER + "?access_token=" + token,
            "{\"userid_list\":" + users + ",\"cursor\":\"" + cursor + "\",\"limit\":" + limit + "}");
    }

    private JsonObject get(String pathAndQuery) throws Exception {
        return read(http.send(HttpRequest.newBuilder(URI.create(api.baseUrl() + pathAndQuery)).GET().build(),
            HttpResponse.BodyHandlers.ofString()).body());
    }

    private JsonObject post(String pathAndQuery, String body) throws Exception {
        return read(http.send(HttpRequest.newBuilder(URI.create(api.baseUrl() + pathAndQuery))
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private static JsonObject read(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return reader.readObject();
        }
    }
}
