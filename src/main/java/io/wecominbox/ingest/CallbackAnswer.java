package io.wecominbox.ingest;

import io.wecominbox.ErrorBody;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** What the callback URL answers: a status, a body, and the headers that go with it. Written once. */
record CallbackAnswer(int status, String contentType, String body, Map<String, String> headers) {

    /** What WeCom wants once a delivery is kept: the same every time. */
    static final CallbackAnswer SUCCESS = text("success");

    static CallbackAnswer text(String body) {
        return new CallbackAnswer(200, "text/plain", body, Map.of());
    }

    /** The JSON error body every refusal gets, as the admin API's. */
    static CallbackAnswer error(int status, ErrorBody error, Map<String, String> headers) {
        return new CallbackAnswer(status, "application/json", error.toJson(), headers);
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
