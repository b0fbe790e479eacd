package io.wecominbox.simulator.api;

import io.wecominbox.simulator.directory.CustomerDirectory;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.util.Map;

/** GET /cgi-bin/externalcontact/get_follow_user_list : the members with customers, from the directory. */
final class FollowUserListEndpoint implements ApiEndpoint {

    private final AccessTokens tokens;
    private final CustomerDirectory directory;
    private final FrequencyLimit limit;

    FollowUserListEndpoint(AccessTokens tokens, CustomerDirectory directory, FrequencyLimit limit) {
        this.tokens = tokens;
        this.directory = directory;
        this.limit = limit;
    }

    @Override
    public void describe(Map<String, String> query, String body, CallFacts facts) {
        facts.app = tokens.check(query.get("access_token")).app().orElse(null);
    }

    @Override
    public JsonObject handle(Map<String, String> query, String body, CallFacts facts) {
        AccessTokens.Check check = tokens.check(query.get("access_token"));
        if (check.errcode() != WeComErrors.OK) {
            return JsonAnswers.error(check.errcode());
        }
        if (!limit.allow(check.app().get(), WeComApiPaths.GET_FOLLOW_USER_LIST)) {
            return JsonAnswers.error(WeComErrors.API_FREQUENCY_LIMIT);
        }
        return JsonAnswers.ok(WeComErrors.OK)
            .add("follow_user", Json.createArrayBuilder(directory.followUsers(check.app().get()))).build();
    }
}
