package io.wecominbox.ops.secrets;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A password the server cannot run without: a server.xml variable with an empty default, so an unset
 * environment variable leaves it empty instead of the literal text "${env.NAME}" (which would then be a
 * working password).
 */
public record RequiredSecret(String variable, String environment, String what) {

    /** The application's own secrets (liberty/wecom-inbox.xml): required on every server it runs on. */
    public static final List<RequiredSecret> APPLICATION = List.of(
            new RequiredSecret("db.password", "DB_PASSWORD", "the PostgreSQL role's password"),
            new RequiredSecret("broker.password", "BROKER_PASSWORD", "the Artemis user's password"));

    /**
     * The server.xml variable listing the server-wide secrets a server wants checked too, comma-separated. Ours
     * lists its keystore's and its registry's passwords; an admin's server, whose keystore and registry are its
     * own business, need not set it.
     */
    public static final String SERVER_SECRETS = "wecom.secrets.server-required";

    private static final Map<String, String> KNOWN = Map.of(
            "keystore.password", "the TLS keystore's password",
            "admin.password", "the operator's login password");

    /** A server-wide secret by its variable name, with Liberty's environment form (a.b -> A_B). */
    static RequiredSecret serverWide(String variable) {
        return new RequiredSecret(variable, variable.toUpperCase().replace('.', '_').replace('-', '_'),
                KNOWN.getOrDefault(variable, "a secret this server's configuration requires"));
    }

    /** The application's secrets, then those the server lists under {@link #SERVER_SECRETS}. */
    public static List<RequiredSecret> required(Function<String, Optional<String>> lookup) {
        List<RequiredSecret> all = new ArrayList<>(APPLICATION);
        lookup.apply(SERVER_SECRETS).ifPresent(list -> Arrays.stream(list.split(","))
                .map(String::trim).filter(name -> !name.isEmpty()).map(RequiredSecret::serverWide)
                .filter(s -> all.stream().noneMatch(known -> known.variable().equals(s.variable())))
                .forEach(all::add));
        return all;
    }

    /** The required secrets that have no value (unset or blank), given how to look a variable up. */
    public static List<RequiredSecret> missing(Function<String, Optional<String>> lookup) {
        return required(lookup).stream().filter(s -> lookup.apply(s.variable()).map(String::isBlank).orElse(true))
                .toList();
    }
}
