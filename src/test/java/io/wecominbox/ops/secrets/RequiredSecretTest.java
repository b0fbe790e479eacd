package io.wecominbox.ops.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequiredSecretTest {

    private static List<String> missingGiven(Map<String, String> values) {
        return RequiredSecret.missing(name -> Optional.ofNullable(values.get(name))).stream()
                .map(RequiredSecret::environment).toList();
    }

    @Test
    void everyUnsetPasswordIsNamedByItsEnvironmentVariable() {
        assertEquals(List.of("DB_PASSWORD", "BROKER_PASSWORD", "KEYSTORE_PASSWORD", "ADMIN_PASSWORD"),
                missingGiven(Map.of()));
    }

    @Test
    void aBlankValueCountsAsUnset() {
        assertEquals(List.of("KEYSTORE_PASSWORD"), missingGiven(Map.of("db.password", "a", "broker.password", "b",
                "keystore.password", "  ", "admin.password", "d")));
    }

    @Test
    void nothingIsMissingWhenEachHasAValue() {
        assertEquals(List.of(), missingGiven(Map.of("db.password", "a", "broker.password", "b",
                "keystore.password", "c", "admin.password", "d")));
    }
}
