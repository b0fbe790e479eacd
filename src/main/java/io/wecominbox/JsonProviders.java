package io.wecominbox;

import jakarta.json.spi.JsonProvider;

/**
 * The JSON-P provider, looked up once. {@code jakarta.json.Json}'s static methods look the provider up again on
 * every call (a ServiceLoader scan through Liberty's class loaders): 4 % of Liberty's CPU at 200 events/s, where
 * the bot, the welcome and crm build and read JSON per event (docs/benchmarks.md). Providers are thread-safe.
 */
public final class JsonProviders {

    /** Use instead of {@code jakarta.json.Json}: {@code JSON.createObjectBuilder()}, {@code JSON.createReader(...)}. */
    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonProviders() {
    }
}
