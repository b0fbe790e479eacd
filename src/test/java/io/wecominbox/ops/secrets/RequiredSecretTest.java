package io.wecominbox.ops.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequiredSecretTest {

    private static final String OURS = "keystore.password,admin.password";

    private static List<String> missingGiven(Map<String, String> values) {
        return RequiredSecret.missing(name -> Optional.ofNullable(values.get(name))).stream()
                .map(RequiredSecret::environment).toList();
    }

    private static Map<String, String> with(String... pairs) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            values.put(pairs[i], pairs[i + 1]);
        }
        return values;
    }

    @Test
    void everyUnsetPasswordIsNamedByItsEnvironmentVariable() {
        assertEquals(List.of("DB_PASSWORD", "BROKER_PASSWORD", "KEYSTORE_PASSWORD", "ADMIN_PASSWORD"),
                missingGiven(with(RequiredSecret.SERVER_SECRETS, OURS)));
    }

    @Test
    void aBlankValueCountsAsUnset() {
        assertEquals(List.of("KEYSTORE_PASSWORD"), missingGiven(with(RequiredSecret.SERVER_SECRETS, OURS,
                "db.password", "a", "broker.password", "b", "keystore.password", "  ", "admin.password", "d")));
    }

    @Test
    void nothingIsMissingWhenEachHasAValue() {
        assertEquals(List.of(), missingGiven(with(RequiredSecret.SERVER_SECRETS, OURS, "db.password", "a",
                "broker.password", "b", "keystore.password", "c", "admin.password", "d")));
    }

    @Test
    void aServerThatListsNoSecretsOfItsOwnNeedsOnlyTheApplicationsSecrets() {
        // an admin's server: its keystore and registry are configured its own way, not by our variables
        assertEquals(List.of("DB_PASSWORD", "BROKER_PASSWORD"), missingGiven(with()));
        assertEquals(List.of(), missingGiven(with("db.password", "a", "broker.password", "b")));
    }

    @Test
    void aListedServerSecretIsNamedByLibertysEnvironmentFormAndTheApplicationsAreNeverDroppedOrRepeated() {
        List<RequiredSecret> required = RequiredSecret.required(name -> Optional.ofNullable(
                with(RequiredSecret.SERVER_SECRETS, " ldap.bind-password , db.password,,").get(name)));
        assertEquals(List.of("DB_PASSWORD", "BROKER_PASSWORD", "LDAP_BIND_PASSWORD"),
                required.stream().map(RequiredSecret::environment).toList());
        assertEquals("a secret this server's configuration requires", required.get(2).what());
    }
}
