package io.wecominbox.simulator.api;

import io.wecominbox.simulator.directory.CustomerDirectory;
import io.wecominbox.simulator.directory.CustomerDirectory.Follow;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * POST /cgi-bin/externalcontact/batch/get_by_user : the customers of up to 100 members with their follow_info,
 * {@code limit} per page (default 50, at most 100), {@code next_cursor} "" on the last page. The cursor is an
 * opaque offset into the member set's current relationships, so (as WeCom staff warn of the real one)
 * relationships added or removed while paging can shift what a later page shows. An unknown cursor, more
 * than 100 userids or a limit above 100 answer 40058 (invalid parameter).
 */
final class BatchGetByUserEndpoint implements ApiEndpoint {

    static final int MAX_USERS = 100;
    static final int MAX_LIMIT = 100;
    static final int DEFAULT_LIMIT = 50;
    private static final String CURSOR_PREFIX = "simcursor:";

    private final AccessTokens tokens;
    private final CustomerDirectory directory;
    private final FrequencyLimit limit;

    BatchGetByUserEndpoint(AccessTokens tokens, CustomerDirectory directory, FrequencyLimit limit) {
        this.tokens = tokens;
        this.directory = directory;
        this.limit = limit;
    }

    @Override
    public void describe(Map<String, String> query, String body, CallFacts facts) {
        facts.app = tokens.check(query.get("access_token")).app().orElse(null);
        JsonAnswers.parseObject(body).ifPresent(json -> {
            facts.extraFields.put("cursor", String.valueOf(json.get("cursor")));
            facts.extraFields.put("limit", String.valueOf(json.get("limit")));
            if (json.get("userid_list") instanceof JsonArray users) {
                facts.extraFields.put("users", Integer.toString(users.size()));
            }
        });
    }

    @Override
    public JsonObject handle(Map<String, String> query, String body, CallFacts facts) {
        AccessTokens.Check check = tokens.check(query.get("access_token"));
        if (check.errcode() != WeComErrors.OK) {
            return JsonAnswers.error(check.errcode());
        }
        String app = check.app().get();
        if (!limit.allow(app, WeComApiPaths.BATCH_GET_BY_USER)) {
            return JsonAnswers.error(WeComErrors.API_FREQUENCY_LIMIT);
        }
        Optional<JsonObject> request = JsonAnswers.parseObject(body);
        if (request.isEmpty() || !(request.get().get("userid_list") instanceof JsonArray users)
                || users.isEmpty() || users.size() > MAX_USERS) {
            return JsonAnswers.error(WeComErrors.INVALID_PARAMETER);
        }
        int pageSize = request.get().get("limit") instanceof JsonNumber n ? n.intValue() : DEFAULT_LIMIT;
        Optional<Integer> offset = offset(request.get().get("cursor"));
        if (pageSize < 1 || pageSize > MAX_LIMIT || offset.isEmpty()) {
            return JsonAnswers.error(WeComErrors.INVALID_PARAMETER);
        }
        Set<String> userIds = new HashSet<>();
        for (JsonValue u : users) {
            if (u instanceof JsonString s) {
                userIds.add(s.getString());
            }
        }
        List<Follow> all = directory.followsOf(app, userIds);
        int from = Math.min(offset.get(), all.size());
        int to = Math.min(all.size(), from + pageSize);
        JsonArrayBuilder list = Json.createArrayBuilder();
        for (Follow f : all.subList(from, to)) {
            list.add(Json.createObjectBuilder()
                .add("external_contact", Json.createObjectBuilder().add("external_userid", f.externalUserId())
                    .add("name", "客户" + f.externalUserId().substring(Math.max(0, f.externalUserId().length() - 4)))
                    .add("type", 1))
                .add("follow_info", Json.createObjectBuilder().add("userid", f.userId()).add("remark", "")
                    .add("createtime", f.createTime().getEpochSecond()).add("tag_id", Json.createArrayBuilder())
                    .add("state", f.state()).add("add_way", 1)));
        }
        return JsonAnswers.ok(WeComErrors.OK).add("external_contact_list", list)
            .add("next_cursor", to < all.size() ? cursor(to) : "").build();
    }

    private static Optional<Integer> offset(JsonValue cursor) {
        if (cursor == null || cursor == JsonValue.NULL || (cursor instanceof JsonString s && s.getString().isEmpty())) {
            return Optional.of(0);
        }
        if (!(cursor instanceof JsonString s)) {
            return Optional.empty();
        }
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(s.getString()), StandardCharsets.UTF_8);
            return decoded.startsWith(CURSOR_PREFIX)
                ? Optional.of(Integer.parseInt(decoded.substring(CURSOR_PREFIX.length()))) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String cursor(int offset) {
        return Base64.getUrlEncoder().withoutPadding()
            .encodeToString((CURSOR_PREFIX + offset).getBytes(StandardCharsets.UTF_8));
    }
}
