package io.wecominbox.ops.secrets;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A password the server cannot run without: a server.xml variable with an empty default, so an unset
 * environment variable leaves it empty instead of the literal text "${env.NAME}" (which would then be a
 * working password).
 */
public record RequiredSecret(String variable, String environment, String what) {

    /** Every secret server.xml takes from the environment. */
    public static final List<RequiredSecret> ALL = List.of(
            new RequiredSecret("db.password", "DB_PASSWORD", "the PostgreSQL role's password"),
            new RequiredSecret("broker.password", "BROKER_PASSWORD", "the Artemis user's password"),
            new RequiredSecret("keystore.password", "KEYSTORE_PASSWORD", "the TLS keystore's password"),
            new RequiredSecret("admin.password", "ADMIN_PASSWORD", "the operator's login password"));

    /** The secrets that have no value (unset or blank), given how to look a variable up. */
    public static List<RequiredSecret> missing(Function<String, Optional<String>> lookup) {
        return ALL.stream().filter(s -> lookup.apply(s.variable()).map(String::isBlank).orElse(true)).toList();
    }
}
