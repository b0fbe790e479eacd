package io.wecominbox.simulator.api;

import jakarta.json.JsonObject;

import java.util.Map;

/** One WeCom API path: performs its effect and returns the JSON answer (always with errcode). */
interface ApiEndpoint {

    /** Fills in what the call is about without any effect; used too when a fault stops the call. */
    void describe(Map<String, String> query, String body, CallFacts facts);

    /** Performs the call (after {@link #describe} has filled {@code facts}). */
    JsonObject handle(Map<String, String> query, String body, CallFacts facts);
}
