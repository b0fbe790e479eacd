package io.wecominbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Layering, read from the sources (src/main/java): each {@code import} line and each fully-qualified
 * {@code io.wecominbox...} name in code (comments and string literals are left out). Dependencies point one way:
 * the pipeline (callback to handlers) depends on nothing that operates or repairs it; reconcile and cluster use
 * the pipeline; ops uses everything, and nothing uses ops. A failure lists each file and the package it uses.
 */
class PackageDependenciesTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final String ROOT = "io.wecominbox.";

    /** The path of an event, from the callback to the handlers, and what that path is built on. */
    private static final Set<String> PIPELINE = Set.of("ingest", "callbacklog", "messaging", "handler", "dedup",
        "event", "crypto", "relay", "jdbc", "wecom", "relationship", "logging", "metrics", "db");

    /** What operates or repairs the pipeline: the pipeline never depends on it. */
    private static final Set<String> ABOVE_PIPELINE = Set.of("ops", "reconcile", "cluster", "retention");

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?io\\.wecominbox\\.([\\w.*]+)\\s*;",
        Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.wecominbox\\.((?:[a-z]\\w*\\.)+[A-Z]\\w*)");
    private static final Pattern COMMENT_OR_STRING = Pattern.compile(
        "/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])*'", Pattern.DOTALL);

    /** One source file: its package (below io.wecominbox, "" for the root) and the types of other packages it names. */
    record Source(String file, String pkg, Set<String> uses) {
    }

    private static List<Source> sources;

    @BeforeAll
    static void read() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN.resolve("io/wecominbox"))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).sorted().map(PackageDependenciesTest::source)
                .toList();
        }
        assertFalse(sources.isEmpty(), "no sources under " + MAIN.toAbsolutePath());
    }

    @Test
    void nothingOutsideOpsUsesOps() {
        assertNone((from, to) -> !within(from, "ops") && within(to, "ops"),
            "classes outside io.wecominbox.ops that use it (ops uses the product, never the reverse)");
    }

    @Test
    void pipelinePackagesNeverUseOpsReconcileOrCluster() {
        assertNone((from, to) -> PIPELINE.contains(top(from)) && ABOVE_PIPELINE.contains(top(to)),
            "pipeline classes that use ops, reconcile or cluster");
    }

    @Test
    void aHandlerSubpackageNeverUsesAnotherHandlerSubpackage() {
        assertNone((from, to) -> handlerSubpackage(from) != null && handlerSubpackage(to) != null
                && !handlerSubpackage(from).equals(handlerSubpackage(to)),
            "handler classes that use another handler's package (handlers meet only through io.wecominbox.handler)");
    }

    @Test
    void onlyTheHandlerItselfAndOpsUseAHandlerSubpackage() {
        assertNone((from, to) -> handlerSubpackage(to) != null && !handlerSubpackage(to).equals(handlerSubpackage(from))
                && !within(from, "ops"),
            "classes outside a handler's package that use it (reconcile reaches a handler's rows through an "
                + "interface of io.wecominbox.relationship)");
    }

    @Test
    void reconcileAndClusterNeverUseIngestOrRelay() {
        assertNone((from, to) -> Set.of("reconcile", "cluster").contains(top(from)) && Set.of("ingest", "relay")
                .contains(top(to)),
            "reconcile or cluster classes that use the ACK path or the relay (they read them through interfaces "
                + "that ops or the pipeline implements)");
    }

    @Test
    void theCallbackLogRepositoryUsesNoneOfItsClients() {
        assertNone((from, to) -> within(from, "callbacklog") && !Set.of("messaging", "db").contains(top(to)),
            "callbacklog classes that use a package other than messaging and db (the ACK path, the relay, replay, "
                + "statistics and retention use callback_log's repository, not the reverse)");
    }

    private static void assertNone(BiPredicate<String, String> forbidden, String what) {
        List<String> offenders = sources.stream()
            .flatMap(s -> s.uses().stream().filter(used -> forbidden.test(s.pkg(), packageOf(used)))
                .map(used -> s.file() + " uses io.wecominbox." + used))
            .toList();
        assertEquals(List.of(), offenders, what);
    }

    private static Source source(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String pkg = MAIN.relativize(file.getParent()).toString().replace('/', '.');
        pkg = pkg.equals("io.wecominbox") ? "" : pkg.substring(ROOT.length());
        Set<String> uses = new TreeSet<>();
        Matcher imports = IMPORT.matcher(text);
        while (imports.find()) {
            uses.add(imports.group(1));
        }
        Matcher qualified = QUALIFIED.matcher(COMMENT_OR_STRING.matcher(text).replaceAll(" "));
        while (qualified.find()) {
            uses.add(qualified.group(1));
        }
        String own = pkg;
        return new Source(MAIN.relativize(file).toString(), pkg,
            uses.stream().filter(u -> !packageOf(u).equals(own)).collect(Collectors.toCollection(TreeSet::new)));
    }

    // the lower-case segments before the first type: "handler.contact.ExternalContactStore.ContactChange" -> "handler.contact"
    private static String packageOf(String name) {
        String[] parts = name.split("\\.");
        StringBuilder pkg = new StringBuilder();
        for (String part : parts) {
            if (part.equals("*") || Character.isUpperCase(part.charAt(0))) {
                break;
            }
            pkg.append(pkg.isEmpty() ? "" : ".").append(part);
        }
        return pkg.toString();
    }

    private static String top(String pkg) {
        int dot = pkg.indexOf('.');
        return dot < 0 ? pkg : pkg.substring(0, dot);
    }

    private static boolean within(String pkg, String top) {
        return top(pkg).equals(top);
    }

    // "handler.bot" and "handler.bot.x" -> "handler.bot"; "handler" and others -> null
    private static String handlerSubpackage(String pkg) {
        String[] parts = pkg.split("\\.");
        return parts.length >= 2 && parts[0].equals("handler") ? parts[0] + "." + parts[1] : null;
    }
}
