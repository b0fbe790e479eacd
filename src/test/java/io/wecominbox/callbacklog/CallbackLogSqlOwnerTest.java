package io.wecominbox.callbacklog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * callback_log has one repository, this package: a statement that reads, writes, locks or drops it anywhere else in
 * src/main/java fails here, so its SQL (the ACK path's insert, the relay's marks, retention's guards) is found and
 * changed in one place. Comments are left out; SQL in strings and text blocks is what counts.
 */
class CallbackLogSqlOwnerTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Path OWNER = MAIN.resolve("io/wecominbox/callbacklog");

    // FROM/JOIN/INTO/UPDATE/TABLE callback_log or one of its partitions (callback_log_p202612, callback_log_default);
    // callback_log_id and the views (callback_retry_span, ...) are other names
    private static final Pattern SQL_OVER_CALLBACK_LOG = Pattern.compile(
        "(?i)\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(?:ONLY\\s+)?callback_log(?:_p\\d*|_default)?\\b(?!_id)");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void noClassOutsideTheCallbackLogPackageHasSqlOverCallbackLog() throws IOException {
        List<String> offenders;
        try (Stream<Path> files = Files.walk(MAIN)) {
            offenders = files.filter(f -> f.toString().endsWith(".java") && !f.startsWith(OWNER))
                .flatMap(f -> statements(f).stream().map(sql -> MAIN.relativize(f) + ": " + sql))
                .sorted().toList();
        }
        assertEquals(List.of(), offenders, "SQL over callback_log outside io.wecominbox.callbacklog");
    }

    @Test
    void theRuleRecognisesTheStatementsItForbids() {
        assertFalse(SQL_OVER_CALLBACK_LOG.matcher("SELECT count(*) FROM callback_log WHERE x").results().toList()
            .isEmpty());
        assertFalse(SQL_OVER_CALLBACK_LOG.matcher("LOCK TABLE ONLY callback_log IN ACCESS").results().toList()
            .isEmpty());
        assertFalse(SQL_OVER_CALLBACK_LOG.matcher("delete from callback_log_default where").results().toList()
            .isEmpty());
        assertEquals(List.of(), SQL_OVER_CALLBACK_LOG.matcher("SELECT last_callback_log_id FROM external_contact")
            .results().toList());
        assertEquals(List.of(), SQL_OVER_CALLBACK_LOG.matcher("INSERT INTO handler_dedup (callback_log_id) VALUES")
            .results().toList());
    }

    private static List<String> statements(Path file) {
        try {
            Matcher m = SQL_OVER_CALLBACK_LOG.matcher(COMMENT.matcher(Files.readString(file)).replaceAll(" "));
            return m.results().map(r -> r.group().replaceAll("\\s+", " ")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
