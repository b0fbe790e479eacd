package io.wecominbox.ingest;

import jakarta.json.Json;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** What the callback URL answers: a status, a body, and the headers that go with it. Written once. */
record CallbackAnswer(int status, String contentType, String body, Map<String, String> headers) {

    static CallbackAnswer text(String body) {
        return new CallbackAnswer(200, "text/plain", body, Map.of());
    }

    /** The JSON error body every refusal gets, as the admin API's ({@code io.wecominbox.ErrorBody}). */
    static CallbackAnswer error(int status, String code, String reason, Map<String, String> headers) {
        String json = Json.createObjectBuilder().add("error", code).add("reason", reason).build().toString();
        return new CallbackAnswer(status, "application/json", json, headers);
    }

    void writeTo(HttpServletResponse response) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType(contentType + ";charset=UTF-8");
        headers.forEach(response::setHeader);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
