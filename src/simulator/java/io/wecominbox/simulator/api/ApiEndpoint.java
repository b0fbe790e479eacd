package io.wecominbox.simulator.api;

import jakarta.json.JsonObject;

import java.util.Map;

/** One WeCom API path: performs its effect and returns the JSON answer (always with errcode). */
interface ApiEndpoint {

    JsonObject handle(Map<String, String> query, String body, CallFacts facts);
}
