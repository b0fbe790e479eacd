package io.wecominbox.wecom;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.wecom.WeComCallOutcome.Kind;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/** Turns an HTTP exchange into a {@link WeComCallOutcome}: errcode first, then HTTP status, then transport. */
final class WeComReplies {

    private WeComReplies() {
    }

    static WeComCallOutcome outcome(HttpResult result) {
        if (result instanceof HttpResult.NotStarted notStarted) {
            return WeComCallOutcome.local(Kind.RETRY, notStarted.description(), 0, false);
        }
        if (result instanceof HttpResult.Failed failed) {
            return WeComCallOutcome.local(Kind.RETRY, failed.description(), 0, failed.requestMaybeSent());
        }
        HttpResult.Answered answer = (HttpResult.Answered) result;
        int status = answer.status();
        if (status == 200) {
            Optional<JsonObject> json = parse(answer.body());
            OptionalInt errcode = json.flatMap(WeComReplies::errcode).map(OptionalInt::of).orElse(OptionalInt.empty());
            if (errcode.isEmpty()) {
                // Something answered 200 that is not WeCom's JSON (a captive proxy?): it may have passed the call on.
                return WeComCallOutcome.local(Kind.RETRY, "HTTP 200 without a WeCom errcode", status, true);
            }
            int code = errcode.getAsInt();
            return new WeComCallOutcome(WeComErrorCodes.classify(code), errcode, errmsg(json.get()), status,
                    Duration.ZERO, false, json.get());
        }
        if (status >= 500 || status == 429 || status == 408) {
            // A gateway error may come after WeCom acted; a 5xx from WeCom itself tells us nothing either way.
            return WeComCallOutcome.local(Kind.RETRY, "HTTP " + status, status, status >= 500);
        }
        return WeComCallOutcome.local(Kind.GIVE_UP, "HTTP " + status, status, false);
    }

    static Optional<JsonObject> parse(String body) {
        try (var reader = JSON.createReader(new StringReader(body))) {
            return Optional.of(reader.readObject());
        } catch (JsonException | IllegalStateException e) {
            return Optional.empty();
        }
    }

    static Optional<Integer> errcode(JsonObject json) {
        return json.get("errcode") instanceof JsonNumber n ? Optional.of(n.intValue()) : Optional.empty();
    }

    static String errmsg(JsonObject json) {
        return json.get("errmsg") instanceof JsonString s ? s.getString() : "";
    }
}
