package io.wecominbox.wecom;

import static io.wecominbox.JsonProviders.JSON;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The body of a welcome message: text and/or up to 9 attachments, each as WeCom's JSON
 * ({@code {"msgtype":"image","image":{"media_id":"..."}}}, link, miniprogram, video, file). Checked here
 * because the code is single-use and valid 20 s: a request WeCom rejects wastes the only chance.
 */
public record WelcomeContent(Optional<String> text, List<JsonObject> attachments) {

    public static final int MAX_TEXT_BYTES = 4000;
    public static final int MAX_ATTACHMENTS = 9;

    public WelcomeContent {
        text = text.filter(t -> !t.isEmpty());
        attachments = List.copyOf(attachments);
        if (text.isEmpty() && attachments.isEmpty()) {
            throw new IllegalArgumentException("a welcome message needs text or an attachment");
        }
        if (text.isPresent() && text.get().getBytes(StandardCharsets.UTF_8).length > MAX_TEXT_BYTES) {
            throw new IllegalArgumentException("welcome text is over " + MAX_TEXT_BYTES + " bytes (UTF-8)");
        }
        if (attachments.size() > MAX_ATTACHMENTS) {
            throw new IllegalArgumentException("a welcome message takes at most " + MAX_ATTACHMENTS + " attachments");
        }
    }

    public static WelcomeContent text(String text) {
        return new WelcomeContent(Optional.of(text), List.of());
    }

    /** The send_welcome_msg request body for this code. */
    JsonObject toJson(String welcomeCode) {
        JsonObjectBuilder body = JSON.createObjectBuilder().add("welcome_code", welcomeCode);
        text.ifPresent(t -> body.add("text", JSON.createObjectBuilder().add("content", t)));
        if (!attachments.isEmpty()) {
            JsonArrayBuilder array = JSON.createArrayBuilder();
            attachments.forEach(array::add);
            body.add("attachments", array);
        }
        return body.build();
    }
}
