package io.wecominbox.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/delivery-audit.md names tests as proof: every test class it names must exist under src/test/java, every
 * {@code Class.method} it names must be a method of that class, and every table row must have a cell per fault.
 * A renamed or deleted test then fails here instead of leaving the audit claiming a proof that is gone.
 */
class DeliveryAuditTableTest {

    private static final Path AUDIT = Path.of("docs/delivery-audit.md");
    private static final Path TESTS = Path.of("src/test/java");
    private static final Pattern TEST_CLASS = Pattern.compile("\\b([A-Z][a-z][A-Za-z0-9]*(?:IT|Test))\\b");
    private static final Pattern TEST_METHOD = Pattern.compile("\\b([A-Z][a-z][A-Za-z0-9]*(?:IT|Test))\\.([a-z][A-Za-z0-9]*)\\b");
    private static final int FAULT_COLUMNS = 8;
    private static final int ROWS = 9;

    private static String audit;
    private static Map<String, Path> testSources;

    @BeforeAll
    static void read() throws IOException {
        audit = Files.readString(AUDIT);
        testSources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(TESTS)) {
            files.filter(p -> p.toString().endsWith(".java"))
                .forEach(p -> testSources.put(p.getFileName().toString().replace(".java", ""), p));
        }
    }

    @Test
    void everyTestClassNamedExistsUnderSrcTest() {
        TreeSet<String> missing = new TreeSet<>();
        Matcher m = TEST_CLASS.matcher(audit);
        while (m.find()) {
            if (!testSources.containsKey(m.group(1))) {
                missing.add(m.group(1));
            }
        }
        assertEquals(new TreeSet<String>(), missing, "test classes named in " + AUDIT + " but not in " + TESTS);
    }

    @Test
    void everyTestMethodNamedIsAMethodOfItsClass() throws IOException {
        List<String> missing = new ArrayList<>();
        int named = 0;
        Matcher m = TEST_METHOD.matcher(audit);
        while (m.find()) {
            Path source = testSources.get(m.group(1));
            if (source == null) {
                continue; // reported by the class check
            }
            named++;
            if (!Pattern.compile("\\bvoid\\s+" + m.group(2) + "\\s*\\(").matcher(Files.readString(source)).find()) {
                missing.add(m.group(1) + "." + m.group(2));
            }
        }
        assertTrue(named > 0, "the audit names test methods as Class.method");
        assertEquals(List.of(), missing, "methods named in " + AUDIT + " that their class does not declare");
    }

    @Test
    void everyRowHasOneCellPerFaultAndEveryCitationIsDefined() {
        List<String> rows = audit.lines().filter(l -> l.startsWith("| **R")).toList();
        assertEquals(ROWS, rows.size(), "table rows");
        for (String row : rows) {
            // a leading and a trailing pipe, the step's cell, one cell per fault
            assertEquals(FAULT_COLUMNS + 2, row.split("(?<!\\\\)\\|", -1).length - 1, "cells of " + row.substring(0, 40));
        }
        TreeSet<String> defined = new TreeSet<>();
        Matcher d = Pattern.compile("^- \\*\\*(T\\d+)\\*\\*", Pattern.MULTILINE).matcher(audit);
        while (d.find()) {
            defined.add(d.group(1));
        }
        TreeSet<String> undefined = new TreeSet<>();
        for (String row : rows) {
            Matcher c = Pattern.compile("\\bT\\d+\\b").matcher(row);
            while (c.find()) {
                if (!defined.contains(c.group())) {
                    undefined.add(c.group());
                }
            }
        }
        assertEquals(new TreeSet<String>(), undefined, "citations in the table without an entry in 'The tests cited'");
    }
}
