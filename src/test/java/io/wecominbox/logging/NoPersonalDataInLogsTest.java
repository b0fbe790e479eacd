package io.wecominbox.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A guard over src/main: no log statement at INFO or above, and no exception message (exceptions end up in the
 * log), is built from a personal identifier or a key made of them. They go through {@link Redacted} or give
 * the row id instead. FINE and below may keep keys: they are off in production and turned on to diagnose.
 */
class NoPersonalDataInLogsTest {

    private static final Path MAIN = Path.of("src/main/java/io/wecominbox");

    /** The start of a statement that ends up in the log at INFO or above. */
    private static final Pattern LOGGED = Pattern.compile(
            "LOG\\.(info|warning|severe)\\(|Level\\.(INFO|WARNING|SEVERE)|new [A-Za-z]*(Exception|Redelivery)\\(");

    /**
     * What a personal identifier or a key made of them is read through; not when it is tagged
     * ({@code Redacted.id(...)}) or only looked up ({@code map.get(...)}).
     */
    private static final Pattern PERSONAL = Pattern.compile(
            "(?<!Redacted\\.id\\(|\\.get\\()\\b[a-zA-Z]+\\.(eventKey|dedupKey|welcomeCode|userId|externalUserId"
                    + "|plaintext|body|rawBody)\\(\\)");

    /** RejectedForRedelivery carries its key beside the message, for the one who logs it to redact. */
    private static final Pattern KEY_BESIDE_THE_MESSAGE = Pattern.compile(",\\s*[a-zA-Z]+\\.dedupKey\\(\\)\\)\\)?;$");

    @Test
    void noLogLineAtInfoOrAboveNamesAPersonalIdentifier() throws IOException {
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String source = Files.readString(file);
                Matcher start = LOGGED.matcher(source);
                while (start.find()) {
                    String statement = source.substring(start.start(), statementEnd(source, start.start()));
                    if (statement.startsWith("new RejectedForRedelivery(")) {
                        statement = KEY_BESIDE_THE_MESSAGE.matcher(statement).replaceFirst(");");
                    }
                    Matcher personal = PERSONAL.matcher(statement);
                    if (personal.find()) {
                        offenders.add(MAIN.relativize(file) + ": " + personal.group() + " in "
                                + statement.replaceAll("\\s+", " "));
                    }
                }
            }
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    void theGuardCatchesWhatItLooksFor() {
        String bad = "LOG.info(\"welcome for \" + event.dedupKey() + \" sent\");";
        String good = "LOG.info(\"welcome for \" + Redacted.id(event.dedupKey()) + \" sent\");";
        assertEquals(true, PERSONAL.matcher(bad.substring(0, statementEnd(bad, 0))).find());
        assertEquals(false, PERSONAL.matcher(good.substring(0, statementEnd(good, 0))).find());
    }

    /** The index after the statement's closing ";" (string literals skipped), or the end of the source. */
    private static int statementEnd(String source, int from) {
        boolean inString = false;
        for (int i = from; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '"' && source.charAt(i - 1) != '\\') {
                inString = !inString;
            } else if (c == ';' && !inString) {
                return i + 1;
            }
        }
        return source.length();
    }
}
