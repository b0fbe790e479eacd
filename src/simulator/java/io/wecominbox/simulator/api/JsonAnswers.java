package io.wecominbox.simulator.api;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.util.Optional;

/** Small JSON helpers shared by the endpoints. */
final class JsonAnswers {

    private JsonAnswers() {
    }

    static JsonObject error(int errcode) {
        return ok(errcode).build();
    }

    static JsonObjectBuilder ok(int errcode) {
        return Json.createObjectBuilder().add("errcode", errcode).add("errmsg", WeComErrors.message(errcode));
    }

    static Optional<JsonObject> parseObject(String body) {
        try (var reader = Json.createReader(new StringReader(body))) {
            return Optional.of(reader.readObject());
        } catch (JsonException | IllegalStateException e) {
            return Optional.empty();
        }
    }

    static Optional<String> string(JsonObject object, String name) {
        JsonValue value = object.get(name);
        return value != null && value.getValueType() == JsonValue.ValueType.STRING
                ? Optional.of(object.getString(name)) : Optional.empty();
    }
}
