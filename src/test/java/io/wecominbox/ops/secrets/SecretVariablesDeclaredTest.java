package io.wecominbox.ops.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The secrets the application checks at start are exactly the password variables the configuration declares
 * empty: the application's own in its include, our server's in server.xml's list. A password added to either
 * file without the check would run with an empty value instead of stopping the server.
 */
class SecretVariablesDeclaredTest {

    private static final Pattern EMPTY_PASSWORD =
            Pattern.compile("<variable name=\"([a-z0-9.-]*password)\" defaultValue=\"\"/>");

    private static Set<String> emptyPasswords(String file) throws Exception {
        Set<String> names = new TreeSet<>();
        Matcher m = EMPTY_PASSWORD.matcher(Files.readString(Path.of(file)));
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void theApplicationsPartDeclaresExactlyTheSecretsTheApplicationRequires() throws Exception {
        Set<String> required = new TreeSet<>(RequiredSecret.APPLICATION.stream().map(RequiredSecret::variable).toList());
        assertEquals(required, emptyPasswords("liberty/wecom-inbox.xml"));
    }

    @Test
    void ourServerListsEachOfItsOwnPasswordVariablesForTheCheck() throws Exception {
        Matcher listed = Pattern.compile("<variable name=\"" + Pattern.quote(RequiredSecret.SERVER_SECRETS)
                + "\" value=\"([^\"]*)\"/>").matcher(Files.readString(Path.of("server.xml")));
        Set<String> names = new TreeSet<>();
        if (listed.find()) {
            names.addAll(Arrays.stream(listed.group(1).split(",")).map(String::trim).toList());
        }
        assertEquals(emptyPasswords("server.xml"), names, "server.xml's " + RequiredSecret.SERVER_SECRETS);
    }
}
