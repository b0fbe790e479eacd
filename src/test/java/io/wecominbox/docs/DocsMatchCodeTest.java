package io.wecominbox.docs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.wecominbox.dedup.DedupPolicy;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A claim in the README or docs/ is code too: every name they give must exist in the code, and the values
 * that matter must be the code's. The test reads README.md and docs/*.md and fails naming file, line and name.
 *
 * <p>What counts as "the code": {@link CodeCorpus} (src/ but this package, liberty/, server.xml, pom.xml,
 * .ci/run), without comments. Names are taken from inline code spans (`...`), and from fenced blocks as said
 * below. Placeholders in a name (&lt;name&gt;, {id}, *, #, [optional]) match anything: then each literal part
 * between them must occur in one file.
 *
 * <ol>
 *   <li><b>keys</b>: a dotted name starting with {@code wecom.} or {@code redis.} anywhere in a span, and a span
 *       that is a dotted lower-case name (a server.xml variable such as {@code db.pool.size}, an address such as
 *       {@code crm.outbound}), but not a file name or a Java package: occurs in the code, or is a literal prefix
 *       ending in '.' plus a literal suffix in one Java file ({@code PREFIX + "deadline-margin"}).</li>
 *   <li><b>metrics</b>: {@code wecom_...} is a metric the code registers ({@code wecom.x.y} exported as
 *       {@code wecom_x_y} plus Prometheus' {@code _total}, {@code _seconds}, {@code _bucket}, {@code _count},
 *       {@code _sum}, {@code _max}) or a word of the code or the schema.</li>
 *   <li><b>environment</b>: an UPPER_SNAKE name (one underscore at least) is a word of the code (scripts,
 *       server.env, Java) or the environment form of a server.xml variable or of a key of rule 1
 *       ({@code db.pool.size} ← {@code DB_POOL_SIZE}). A span {@code _SUFFIX} right after such a name in the same
 *       line means that name with its last part (after a placeholder, else its last word) replaced.</li>
 *   <li><b>constants</b>: a span that is one UPPER word (a state, a disposition) is a word of the code.</li>
 *   <li><b>schema</b>: a snake_case word is a table, view, column, index or schema of the migrations, or a word
 *       of the code; {@code table.column} must be a column of that table.</li>
 *   <li><b>SQL blocks</b> (```sql): every lower-case identifier that the block does not define itself (after AS,
 *       a CTE, a one- or two-letter alias) and that is not a function call is a name of the migrations or the
 *       code. Statements on PostgreSQL's own catalogs (pg_*) are left out.</li>
 *   <li><b>dead letters</b>: {@code DLQ.x} / {@code EXP.x}: the broker file sets that prefix, and x is an
 *       address of a broker file.</li>
 *   <li><b>JNDI</b>: {@code jdbc/...}, {@code jms/...}, {@code concurrent/...} occur in the code.</li>
 *   <li><b>paths</b>: {@code src/...}, {@code docs/...}, {@code liberty/...}, {@code .ci/...}, {@code server.xml},
 *       {@code pom.xml} exist (globs allowed); {@code crash/XaCrashRecoveryIT} and {@code handler.welcome.X}
 *       are source files of ours; {@code io.wecominbox...} a class or package.</li>
 *   <li><b>classes and fields</b>: a span that is a CamelCase name of two humps or more, or a lowerCamel name
 *       (a JSON field, a method), optionally with {@code ()} or {@code .member}, is a word of the code.</li>
 *   <li><b>scripts</b>: {@code x.sh sub --opt} in a span or a shell block (```sh, ```bash, or none): the script
 *       exists, {@code sub} is a case label of it, {@code --opt} occurs in it or in the package of a Java main it
 *       names; a span that is only {@code --opt} occurs in some script or such main.</li>
 *   <li><b>REST</b>: each segment of {@code /api/...} is a segment of some @Path ({a,b} lists each one).</li>
 *   <li><b>system properties</b>: {@code -Dname=} in a command is a name of the code (Maven's own aside).</li>
 * </ol>
 * Values are checked where they matter instead of parsing prose: defaults in tables and beside a name
 * against server.xml, @ConfigProperty, microprofile-config.properties and the scripts
 * ({@link #defaultsInTablesAreTheCodes}, {@link #aValueGivenBesideANameIsItsDefault}); the redelivery table
 * against the broker file, which holds those numbers alone ({@link #redeliveryTableIsTheBrokerFiles},
 * {@link #redeliveryNumbersLiveInTheTableOnly}); dead-letter and expiry addresses; the dedup policy table
 * against {@link DedupPolicy}; the welcome handler's copy of its queue's schedule. Completeness, where a page
 * promises a full list: docs/deploy.md names every JNDI resource, server.xml variable and core broker setting;
 * docs/dba.md every table, view and schema; some page every metric, health check and admin resource; a key
 * server.xml fixes with value= is named with its variable. Links and section references ("docs/x.md,
 * "Title"", also in the code's comments) resolve; README's first screen runs, tests and links every page;
 * docs/layout.md's tree exists. {@link #ALLOWED} lists the deliberate exceptions, each with its reason, and
 * fails when one is no longer needed.
 */
class DocsMatchCodeTest {

    /** Names the docs may give although the code does not hold them, each with the reason. */
    static final Map<String, String> ALLOWED = Map.ofEntries(
            Map.entry("WAS_TRAN_LOG", "Liberty's own recovery-log table, created by the server (V70 explains)"),
            Map.entry("WAS_PARTNER_LOG", "Liberty's own recovery-log table, created by the server (V70 explains)"),
            Map.entry("WAS_LEASES_LOG", "Liberty's own lease table, created by the server (V70 explains)"),
            Map.entry("flyway_schema_history", "Flyway's own history table"),
            Map.entry("maven.repo.local", "Maven's own property"),
            Map.entry("artifact", "maven-dependency-plugin's property"),
            Map.entry("flyway.url", "flyway-maven-plugin's property"),
            Map.entry("flyway.user", "flyway-maven-plugin's property"),
            Map.entry("flyway.password", "flyway-maven-plugin's property"),
            Map.entry("LogHandle", "a frame of Liberty's transaction log quoted from a JFR profile"),
            Map.entry("getWriteableLogRecord", "a frame of Liberty's transaction log quoted from a JFR profile"),
            Map.entry("LegacyMetricRegistryAdapter", "a frame of Liberty's metrics quoted from a JFR profile"),
            Map.entry("validateTagNamesMatch", "a frame of Liberty's metrics quoted from a JFR profile"),
            Map.entry("PoolManager", "Liberty's connection pool, quoted from a thread dump"),
            Map.entry("WTRN", "the prefix of Liberty's transaction messages in messages.log"),
            Map.entry("featureUtility", "Liberty's feature installer, for a kernel install: the deploy check takes the"
                    + " full runtime instead (the CI machine's Maven mirror lacks many of the features' files)"),
            Map.entry("mirror.url", "a key of Liberty's wlp/etc/featureUtility.properties (a Maven mirror)"),
            Map.entry("ldapRegistry", "Liberty's LDAP user registry element, named as an admin's choice"),
            Map.entry("shutdownOnLogFailure", "a <transaction> attribute of Liberty, left at its default"),
            Map.entry("schemaname", "a column of PostgreSQL's pg_stat_all_tables (dba.md, Vacuum)"),
            Map.entry("n_live_tup", "a column of PostgreSQL's pg_stat_all_tables (dba.md, Vacuum)"),
            Map.entry("n_dead_tup", "a column of PostgreSQL's pg_stat_all_tables (dba.md, Vacuum)"),
            Map.entry("last_autovacuum", "a column of PostgreSQL's pg_stat_all_tables (dba.md, Vacuum)"),
            Map.entry("last_vacuum", "a column of PostgreSQL's pg_stat_all_tables (dba.md, Vacuum)"),
            Map.entry("JAVA_HOME", "the JDK's own variable"));

    static final List<Path> PAGES = pages();
    static CodeCorpus code;

    @BeforeAll
    static void readCode() {
        code = CodeCorpus.load();
    }

    static List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return pages;
    }

    // ================================================================================ names exist in the code

    /** A name found in a page, and where. */
    record Claim(String file, int line, String rule, String name) {
        String where() {
            return file + ":" + line;
        }
    }

    private final List<String> failures = new ArrayList<>();
    private final Map<String, Integer> checked = new TreeMap<>();

    private static final Set<String> ALLOWANCES_USED = new TreeSet<>();

    private void check(Claim c, boolean ok, String reason) {
        checked.merge(c.rule(), 1, Integer::sum);
        if (!ok && ALLOWED.containsKey(c.name())) {
            ALLOWANCES_USED.add(c.name());
        } else if (!ok) {
            failures.add(c.where() + ": `" + c.name() + "` (" + c.rule() + "): " + reason);
        }
    }

    private void assertNoFailures(String what) {
        if (!failures.isEmpty()) {
            fail(what + ", " + failures.size() + " found:\n  " + String.join("\n  ", new TreeSet<>(failures)));
        }
    }

    @Test
    void everyNameInTheDocsExistsInTheCode() {
        int total = 0;
        for (Path path : PAGES) {
            MarkdownPage page = MarkdownPage.read(path);
            String previousUpper = null;
            int previousEnd = -1;
            for (MarkdownPage.Span span : page.spans()) {
                String s = span.text().strip();
                boolean listed = previousUpper != null
                        && page.prose.substring(previousEnd, span.start()).matches("[\\s,]*(?:and|or)?\\s*");
                if (s.matches("_[A-Z0-9_]+") && listed) {
                    previousUpper = composeSuffix(previousUpper, s);
                    checkUpper(new Claim(page.name, span.line(), "environment", previousUpper));
                    previousEnd = span.end();
                    total++;
                    continue;
                }
                previousUpper = null;
                for (Claim c : claimsInSpan(page.name, span.line(), s)) {
                    verify(c);
                    total++;
                    if (c.rule().equals("environment") && s.equals(c.name())) {
                        previousUpper = c.name();
                        previousEnd = span.end();
                    }
                }
            }
            for (MarkdownPage.Fence fence : page.fences) {
                if (fence.info().equals("sql")) {
                    total += checkSql(page.name, fence);
                } else if (fence.info().isEmpty() || fence.info().equals("sh") || fence.info().equals("bash")) {
                    for (int i = 0; i < fence.lines().size(); i++) {
                        for (Claim c : claimsInShell(page.name, fence.line() + i, fence.lines().get(i))) {
                            verify(c);
                            total++;
                        }
                    }
                }
            }
        }
        System.out.println("DocsMatchCodeTest: " + total + " names checked in " + PAGES.size() + " pages: " + checked);
        Set<String> unused = new TreeSet<>(ALLOWED.keySet());
        unused.removeAll(ALLOWANCES_USED);
        for (String name : unused) {
            failures.add("ALLOWED: `" + name + "` is no longer named by any page or is in the code now: remove it");
        }
        assertNoFailures("names in README.md or docs/ that the code does not have");
    }

    static String composeSuffix(String previous, String suffix) {
        int placeholder = previous.lastIndexOf('>');
        if (placeholder >= 0) {
            return previous.substring(0, placeholder + 1) + suffix;
        }
        return previous.substring(0, previous.lastIndexOf('_')) + suffix;
    }

    private static final Pattern KEY = Pattern.compile(
            "(?<![\\w.$/@:-])((?:wecom|redis)(?:\\.(?:[A-Za-z0-9-]+|<[^<>\\s]+>|\\*|#))+)");
    private static final Pattern DOTTED_SPAN = Pattern.compile(
            "([a-z][a-z0-9-]*(?:\\.(?:[a-z0-9-]+|<[^<>\\s]+>))+)(?:=\\S*)?");
    private static final Set<String> FILE_EXTENSIONS = Set.of("xml", "properties", "options", "env", "log", "sh", "md",
            "java", "sql", "jar", "war", "rar", "p12", "cfg", "mjs", "json", "profile", "png", "html", "js", "css");
    private static final Set<String> FOREIGN_PACKAGES = Set.of("java", "javax", "jakarta", "com", "org", "io", "net");
    /** Liberty's and Artemis's log message ids (CWWKZ0001I, AMQ221007): theirs, not ours. */
    private static final String LOG_MESSAGE_ID = "[A-Z][A-Z0-9]{1,5}\\d{4,6}[A-Z]?";
    private static final Pattern METRIC = Pattern.compile("(?<![\\w.])(wecom_[a-z0-9_]+)");
    private static final Pattern UPPER = Pattern.compile(
            "(?<![\\w$])([A-Z][A-Z0-9]*(?:_(?:[A-Z0-9]+|<[A-Za-z]+>))+)(?![\\w>])");
    private static final Pattern SNAKE = Pattern.compile(
            "(?<![\\w.$/:{<-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:\\.([a-z][a-z0-9_]*))?(?![\\w(/<-])");
    private static final Pattern DEAD_LETTER = Pattern.compile("(?<![\\w.])(DLQ|EXP)\\.([\\w.<>#*-]+)");
    private static final Pattern JNDI = Pattern.compile("(?<![\\w/.-])((?:jdbc|jms|concurrent)/[\\w/<>-]+)(?![\\w.-])");
    private static final Pattern PATH = Pattern.compile("(?<![\\w/.~-])((?:src|docs|liberty|\\.ci)/[\\w./*-]*)");
    private static final Pattern SOURCE_REF = Pattern.compile(
            "(?<![\\w/.-])((?:[a-z][a-z0-9]*/)+[A-Z][A-Za-z0-9]*)(?![\\w/.])");
    private static final Pattern CLASS_REF = Pattern.compile(
            "(?<![\\w.])((?:io\\.wecominbox\\.)?(?:[a-z][a-z0-9]*\\.)+[A-Z][A-Za-z0-9]*)");
    private static final Pattern PACKAGE_REF = Pattern.compile("(?<![\\w.])(io\\.wecominbox(?:\\.[a-z][a-z0-9]*)*)(?![\\w.])");
    private static final Pattern CAMEL = Pattern.compile(
            "((?:<\\w+>)?[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)(?:\\([^)]*\\))?(?:\\.([a-z]\\w*)(?:\\([^)]*\\))?)?(?:\\.\\.\\..*)?");
    private static final Pattern LOWER_CAMEL = Pattern.compile("([a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)(?:\\(\\w*\\))?");
    private static final Pattern SCRIPT = Pattern.compile(
            "(?:^|[\\s;(&|\"'])(?:[\\w./$(){}\"-]*/)?([a-z][a-z0-9-]*\\.sh)((?:[ \\t]+[^\\s;|&#)`]+)*)");
    private static final Pattern REST = Pattern.compile("/api/([\\w/{},.-]+)");
    private static final Pattern SYSTEM_PROPERTY = Pattern.compile("(?<![\\w])-D([a-zA-Z][\\w.-]*)(?==|\\s|$)");

    /** The names in one code span, each with the rule that checks it. */
    List<Claim> claimsInSpan(String file, int line, String span) {
        List<Claim> claims = new ArrayList<>();
        String s = span.replaceAll("\\[(\\.[^\\]]*)\\]", "$1");
        Set<Integer> covered = new java.util.HashSet<>();
        Matcher m = KEY.matcher(s);
        while (m.find()) {
            claims.add(new Claim(file, line, "keys", m.group(1)));
            mark(covered, m.start(1), m.end(1));
        }
        Matcher whole = DOTTED_SPAN.matcher(s);
        if (whole.matches() && !whole.group(1).startsWith("wecom.") && !whole.group(1).startsWith("redis.")) {
            String name = whole.group(1);
            String last = name.substring(name.lastIndexOf('.') + 1);
            String first = name.substring(0, name.indexOf('.'));
            if (!FILE_EXTENSIONS.contains(last) && !FOREIGN_PACKAGES.contains(first)) {
                claims.add(new Claim(file, line, "keys", name));
                mark(covered, 0, s.length());
            }
        }
        Matcher dl = DEAD_LETTER.matcher(s);
        while (dl.find()) {
            if (!overlaps(covered, dl.start(), dl.end())) {
                claims.add(new Claim(file, line, "dead letters", dl.group()));
            }
            mark(covered, dl.start(), dl.end());
        }
        Matcher metric = METRIC.matcher(s);
        while (metric.find()) {
            claims.add(new Claim(file, line, "metrics", metric.group(1)));
            mark(covered, metric.start(), metric.end());
        }
        Matcher upper = UPPER.matcher(s);
        while (upper.find()) {
            if (!overlaps(covered, upper.start(), upper.end())) {
                claims.add(new Claim(file, line, "environment", upper.group(1)));
            }
        }
        if (s.matches("[A-Z][A-Z0-9]{2,}") && !s.matches(LOG_MESSAGE_ID)) {
            claims.add(new Claim(file, line, "constants", s));
        }
        Matcher jndi = JNDI.matcher(s);
        while (jndi.find()) {
            claims.add(new Claim(file, line, "JNDI", jndi.group(1)));
            mark(covered, jndi.start(), jndi.end());
        }
        Matcher path = PATH.matcher(s);
        while (path.find()) {
            int end = path.end(1);
            String p = path.group(1).replaceAll("[.,]+$", "");
            if (end < s.length() && "<${".indexOf(s.charAt(end)) >= 0) {
                continue;
            }
            claims.add(new Claim(file, line, "paths", p));
            mark(covered, path.start(), end);
        }
        if (s.equals("server.xml") || s.equals("pom.xml") || s.equals("README.md")) {
            claims.add(new Claim(file, line, "paths", s));
        }
        Matcher source = SOURCE_REF.matcher(s);
        while (source.find()) {
            if (!overlaps(covered, source.start(), source.end()) && !source.group(1).startsWith("target/")) {
                claims.add(new Claim(file, line, "paths", source.group(1) + ".java"));
            }
        }
        Matcher cls = CLASS_REF.matcher(s);
        while (cls.find()) {
            String ref = cls.group(1);
            String first = ref.substring(0, ref.indexOf('.'));
            if (ref.startsWith("io.wecominbox.") || ourPackages().contains(first)) {
                claims.add(new Claim(file, line, "paths", ref));
                mark(covered, cls.start(), cls.end());
            }
        }
        Matcher pkg = PACKAGE_REF.matcher(s);
        while (pkg.find()) {
            if (!overlaps(covered, pkg.start(), pkg.end())) {
                claims.add(new Claim(file, line, "paths", pkg.group(1)));
            }
        }
        Matcher snake = SNAKE.matcher(s);
        while (snake.find()) {
            if (!overlaps(covered, snake.start(), snake.end()) && !snake.group(1).startsWith("wecom_")) {
                claims.add(new Claim(file, line, "schema", snake.group()));
            }
        }
        Matcher camel = CAMEL.matcher(s);
        if (camel.matches() && !s.matches(LOG_MESSAGE_ID)) {
            claims.add(new Claim(file, line, "classes and fields", camel.group(1)));
            if (camel.group(2) != null) {
                claims.add(new Claim(file, line, "classes and fields", camel.group(2)));
            }
        }
        Matcher lower = LOWER_CAMEL.matcher(s);
        if (lower.matches()) {
            claims.add(new Claim(file, line, "classes and fields", lower.group(1)));
        }
        claims.addAll(scriptClaims(file, line, s));
        if (s.matches("--[a-z][\\w-]*")) {
            claims.add(new Claim(file, line, "scripts", s));
        }
        claims.addAll(restClaims(file, line, s));
        Matcher property = SYSTEM_PROPERTY.matcher(s);
        while (property.find()) {
            claims.add(new Claim(file, line, "system properties", property.group(1)));
        }
        return claims;
    }

    /** Names in one line of a shell block: scripts and options, REST paths, variables, system properties. */
    List<Claim> claimsInShell(String file, int line, String text) {
        List<Claim> claims = new ArrayList<>(scriptClaims(file, line, text));
        claims.addAll(restClaims(file, line, text));
        String command = text.replaceAll("\\s#.*$", "");
        Matcher assignment = Pattern.compile("(?<![\\w$])([A-Z][A-Z0-9_]*_[A-Z0-9_]*)=").matcher(command);
        while (assignment.find()) {
            claims.add(new Claim(file, line, "environment", assignment.group(1)));
        }
        Matcher reference = Pattern.compile("\\$\\{?([A-Z][A-Z0-9]*_[A-Z0-9_]*)").matcher(command);
        while (reference.find()) {
            claims.add(new Claim(file, line, "environment", reference.group(1)));
        }
        Matcher property = SYSTEM_PROPERTY.matcher(command);
        while (property.find()) {
            claims.add(new Claim(file, line, "system properties", property.group(1)));
        }
        Matcher path = PATH.matcher(command);
        while (path.find()) {
            int end = path.end(1);
            if (end < command.length() && "<${".indexOf(command.charAt(end)) >= 0) {
                continue;
            }
            claims.add(new Claim(file, line, "paths", path.group(1).replaceAll("[.,]+$", "")));
        }
        return claims;
    }

    List<Claim> scriptClaims(String file, int line, String text) {
        List<Claim> claims = new ArrayList<>();
        Matcher m = SCRIPT.matcher(text);
        while (m.find()) {
            String script = m.group(1);
            claims.add(new Claim(file, line, "scripts", script));
            boolean first = true;
            for (String arg : m.group(2).strip().split("\\s+")) {
                String a = arg.replaceAll("[\\[\\]]", "");
                if (a.isEmpty() || a.startsWith("<") || a.startsWith("$") || a.startsWith("\"") || a.equals("...")) {
                    first = false;
                    continue;
                }
                if (a.startsWith("--")) {
                    claims.add(new Claim(file, line, "scripts", script + " " + a.replaceAll("=.*", "")));
                } else if (first && a.matches("[a-z][a-z-]*")) {
                    claims.add(new Claim(file, line, "scripts", script + " " + a));
                }
                first = false;
            }
        }
        return claims;
    }

    List<Claim> restClaims(String file, int line, String text) {
        List<Claim> claims = new ArrayList<>();
        Matcher m = REST.matcher(text);
        while (m.find()) {
            claims.add(new Claim(file, line, "REST", "/api/" + m.group(1).replaceAll("[.,]+$", "")));
        }
        return claims;
    }

    private static void mark(Set<Integer> covered, int from, int to) {
        for (int i = from; i < to; i++) {
            covered.add(i);
        }
    }

    private static boolean overlaps(Set<Integer> covered, int from, int to) {
        for (int i = from; i < to; i++) {
            if (covered.contains(i)) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> ourPackages;

    static Set<String> ourPackages() {
        if (ourPackages == null) {
            ourPackages = new TreeSet<>();
            for (String root : List.of("src/main/java", "src/test/java", "src/simulator/java", "src/devstack/java")) {
                Path base = Path.of(root, "io/wecominbox");
                if (Files.isDirectory(base)) {
                    try (Stream<Path> list = Files.list(base)) {
                        list.filter(Files::isDirectory).forEach(p -> ourPackages.add(p.getFileName().toString()));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }
        return ourPackages;
    }

    // ------------------------------------------------------------------------------------------- verify

    void verify(Claim c) {
        switch (c.rule()) {
            case "keys" -> checkKey(c);
            case "metrics" -> check(c, isMetric(c.name()) || code.words.contains(c.name()) || code.inSchema(c.name()),
                    "no metric of that name is registered, and no such word in the code");
            case "environment" -> checkUpper(c);
            case "constants" -> check(c, code.words.contains(c.name()), "no such word in the code");
            case "schema" -> checkSchema(c);
            case "dead letters" -> checkDeadLetter(c);
            case "JNDI" -> check(c, placeholderNameInCode(c.name()), "no such JNDI name in server.xml or the code");
            case "paths" -> checkPath(c);
            case "classes and fields" -> check(c, c.name().contains(">")
                    ? code.words.stream().anyMatch(w -> w.endsWith(c.name().substring(c.name().indexOf('>') + 1)))
                    : code.words.contains(c.name()) || Files.exists(Path.of("src/test/java/io/wecominbox/docs",
                            c.name() + ".java")), "no such class, field or method in the code");
            case "scripts" -> checkScript(c);
            case "REST" -> checkRest(c);
            case "system properties" -> check(c, code.inCode(c.name()) || code.words.contains(c.name()),
                    "no such property in the code");
            default -> throw new IllegalStateException(c.rule());
        }
    }

    private void checkKey(Claim c) {
        String name = c.name();
        boolean found;
        if (hasPlaceholder(name)) {
            found = placeholderNameInCode(name);
        } else {
            found = code.inCode(name) || code.concatenatedInOneJavaFile(name);
        }
        check(c, found, "no such key, variable, address or metric in the code");
    }

    static boolean hasPlaceholder(String name) {
        return name.matches(".*(<[^>]*>|\\{[^}]*\\}|\\*|#).*");
    }

    /**
     * A name with placeholders: an instance of it occurs in the code (handler.crm.sessions for
     * handler.&lt;name&gt;.sessions), or each literal part between the placeholders occurs in one file, in its
     * string literals if it is Java ("wecom.handler." + name + ".hot-window").
     */
    boolean placeholderNameInCode(String name) {
        if (!hasPlaceholder(name)) {
            return code.inCode(name);
        }
        StringBuilder instance = new StringBuilder();
        Matcher placeholder = Pattern.compile("<[^>]*>|\\{[^}]*\\}|\\*|#").matcher(name);
        int at = 0;
        while (placeholder.find()) {
            instance.append(Pattern.quote(name.substring(at, placeholder.start())))
                    .append(placeholder.group().length() == 1 ? "[A-Za-z0-9_.-]+" : "[A-Za-z0-9_-]+");
            at = placeholder.end();
        }
        instance.append(Pattern.quote(name.substring(at)));
        if (Pattern.compile("(?<![A-Za-z0-9_.-])" + instance + "(?![A-Za-z0-9_-])").matcher(code.all).find()) {
            return true;
        }
        List<String> fragments = new ArrayList<>();
        for (String part : name.split("<[^>]*>|\\{[^}]*\\}|\\*|#")) {
            String f = part.replaceAll("^[._/-]+|[._/-]+$", "");
            if (!f.isEmpty()) {
                fragments.add(f);
            }
        }
        return fragments.isEmpty() || code.fragmentsInOneFile(fragments);
    }

    /** Registered metric names: every wecom.* literal of src/main, as Prometheus writes it. */
    private static Set<String> metricNames;

    boolean isMetric(String name) {
        if (metricNames == null) {
            metricNames = new TreeSet<>();
            for (CodeCorpus.SourceFile f : code.files) {
                if (f.java() && f.path().startsWith("src/main/")) {
                    for (String literal : f.literals()) {
                        if (literal.matches("wecom\\.[a-z0-9.-]+")) {
                            metricNames.add(literal.replaceAll("[.-]", "_"));
                        }
                    }
                }
            }
        }
        String n = name.replaceAll("\\{.*$", "");
        while (true) {
            if (metricNames.contains(n)) {
                return true;
            }
            Matcher suffix = Pattern.compile("^(.+)_(total|seconds|bucket|count|sum|max)$").matcher(n);
            if (!suffix.matches()) {
                return false;
            }
            n = suffix.group(1);
        }
    }

    private void checkUpper(Claim c) {
        String name = c.name();
        boolean found;
        if (name.contains("<")) {
            String dotted = name.toLowerCase(Locale.ROOT).replace('_', '.');
            found = placeholderNameInCode(name) || placeholderNameInCode(dotted);
        } else {
            found = code.words.contains(name)
                    || code.serverVariables.keySet().stream().anyMatch(v -> CodeCorpus.env(v).equals(name))
                    || keyWithEnvForm(name);
        }
        check(c, found, "no such variable in the scripts or the code, and no server.xml variable or key reads it");
    }

    /** Whether some key of the code (a literal of a Java file, or a properties key) has this environment form. */
    private boolean keyWithEnvForm(String env) {
        for (CodeCorpus.SourceFile f : code.files) {
            for (String literal : f.java() ? f.literals() : List.<String>of()) {
                if (literal.matches("[a-z][a-z0-9.-]*") && CodeCorpus.env(literal).equals(env)) {
                    return true;
                }
            }
        }
        for (CodeCorpus.SourceFile f : code.files) {
            if (f.java()) {
                for (String literal : f.literals()) {
                    if (literal.matches("[a-z][a-z0-9.-]*\\.") && env.startsWith(CodeCorpus.env(literal))) {
                        String rest = env.substring(CodeCorpus.env(literal).length());
                        // PREFIX + "name", or PREFIX + app + ".text" (a name in between)
                        if (f.literals().stream().map(l -> l.startsWith(".") ? l.substring(1) : l)
                                .filter(l -> l.matches("[a-z][a-z0-9.-]*"))
                                .map(CodeCorpus::env)
                                .anyMatch(l -> rest.equals(l) || rest.endsWith("_" + l) && rest.length() > l.length() + 1)) {
                            return true;
                        }
                    }
                }
            }
        }
        return code.configDefaults.keySet().stream().anyMatch(k -> CodeCorpus.env(k).equals(env));
    }

    private void checkSchema(Claim c) {
        String[] parts = c.name().split("\\.");
        if (parts.length == 2 && code.tableColumns.containsKey(parts[0])) {
            check(c, code.tableColumns.get(parts[0]).contains(parts[1]),
                    "table " + parts[0] + " has no column " + parts[1] + " (its columns: "
                            + code.tableColumns.get(parts[0]) + ")");
            return;
        }
        for (String part : parts) {
            if (!(code.inSchema(part) || code.words.contains(part) || code.schemaWords.contains(part))) {
                check(new Claim(c.file(), c.line(), c.rule(), part), false,
                        "no such table, view, column or index in the migrations, and no such word in the code");
                return;
            }
        }
        check(c, true, "");
    }

    private void checkDeadLetter(Claim c) {
        String prefix = c.name().substring(0, 4);
        String rest = c.name().substring(4);
        boolean prefixSet = code.brokerSets(prefix.equals("DLQ.") ? "dead-letter-queue-prefix" : "expiry-queue-prefix",
                prefix);
        boolean address = hasPlaceholder(rest) || rest.equals("<address>")
                ? placeholderNameInBroker(rest) : code.brokerAddresses.contains(rest);
        check(c, prefixSet && address, prefixSet ? rest + " is not an address of the broker files"
                : "the broker file sets no " + prefix + " prefix");
    }

    private boolean placeholderNameInBroker(String name) {
        String regex = Pattern.quote(name).replaceAll("<[^>]*>|\\*|#", "\\\\E.+\\\\Q");
        return name.equals("<address>") || code.brokerAddresses.stream().anyMatch(a -> a.matches(regex));
    }

    private void checkPath(Claim c) {
        String p = c.name();
        if (p.endsWith(".java") && !p.startsWith("src/")) {
            String rel = p.substring(0, p.length() - 5);
            check(c, sourceExists(rel), "no source file io/wecominbox/" + rel + ".java");
            return;
        }
        if (p.startsWith("io.wecominbox") || (!p.contains("/") && p.matches("[a-z][\\w.]*\\.[A-Z]\\w*"))) {
            String rel = p.replaceFirst("^io\\.wecominbox\\.?", "").replace('.', '/');
            boolean isPackage = !p.matches(".*\\.[A-Z]\\w*$");
            boolean exists = isPackage ? packageExists(rel) : sourceExists(rel);
            check(c, exists, "no such " + (isPackage ? "package" : "class") + " of ours");
            return;
        }
        if (p.contains("*")) {
            PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + p);
            try (Stream<Path> walk = Files.walk(Path.of(p.substring(0, p.indexOf('/'))))) {
                check(c, walk.anyMatch(matcher::matches), "nothing matches");
            } catch (IOException e) {
                check(c, false, "nothing matches");
            }
            return;
        }
        check(c, Files.exists(Path.of(p)), "no such file or directory");
    }

    static boolean sourceExists(String rel) {
        for (String root : List.of("src/main/java", "src/test/java", "src/simulator/java", "src/devstack/java")) {
            if (Files.exists(Path.of(root, "io/wecominbox", rel + ".java"))) {
                return true;
            }
        }
        return false;
    }

    static boolean packageExists(String rel) {
        for (String root : List.of("src/main/java", "src/test/java", "src/simulator/java", "src/devstack/java")) {
            if (Files.isDirectory(Path.of(root, "io/wecominbox", rel))) {
                return true;
            }
        }
        return false;
    }

    private void checkScript(Claim c) {
        String[] parts = c.name().split(" ", 2);
        if (parts[0].startsWith("--")) {
            boolean found = code.files.stream().anyMatch(f -> (f.path().endsWith(".sh") || f.path().contains("/bench/")
                    || f.path().contains("Main.java") || f.path().contains("Options.java"))
                    && f.code().matches("(?s).*" + Pattern.quote(parts[0]) + "(?![\\w-]).*"));
            check(c, found, "no script or bench main takes this option");
            return;
        }
        Optional<Path> script = code.script(parts[0]);
        if (script.isEmpty()) {
            check(c, false, "no such script under src/");
            return;
        }
        if (parts.length == 1) {
            check(c, true, "");
            return;
        }
        String text = code.file(script.get().toString().replace('\\', '/')).orElseThrow().code();
        String arg = parts[1];
        if (arg.startsWith("--")) {
            boolean found = text.matches("(?s).*" + Pattern.quote(arg) + "(?![\\w-]).*")
                    || mainPackagesOf(text).stream().anyMatch(f -> f.literals().contains(arg)
                            || f.literals().contains(arg.substring(2)));
            check(c, found, script.get() + " takes no option " + arg);
        } else {
            boolean dispatches = text.contains("case ${1") || text.contains("case $1") || text.contains("case \"$1\"");
            boolean label = Pattern.compile("(?m)^\\s*(?:[\\w-]+\\|)*" + Pattern.quote(arg) + "(?:\\|[\\w-]+)*\\)")
                    .matcher(text).find();
            check(c, !dispatches || label, script.get() + " has no command " + arg);
        }
    }

    /** The code of the packages of the Java main classes a script runs (their options are parsed there). */
    private List<CodeCorpus.SourceFile> mainPackagesOf(String script) {
        List<CodeCorpus.SourceFile> texts = new ArrayList<>();
        Matcher m = Pattern.compile("io\\.wecominbox(?:\\.[a-z]\\w*)+\\.[A-Z]\\w*").matcher(script);
        while (m.find()) {
            String dir = m.group().substring(0, m.group().lastIndexOf('.')).replace('.', '/');
            for (CodeCorpus.SourceFile f : code.files) {
                if (f.java() && f.path().contains("/" + dir + "/")) {
                    texts.add(f);
                }
            }
        }
        return texts;
    }

    private void checkRest(Claim c) {
        String path = c.name().replaceAll("[?#].*$", "").replaceAll("\\[.*$", "");
        for (String segment : path.substring(1).split("/")) {
            if (segment.isEmpty() || segment.matches("\\{\\w+\\}|\\d+")) {
                continue;
            }
            List<String> alternatives = segment.matches("\\{.*,.*\\}")
                    ? List.of(segment.substring(1, segment.length() - 1).split(","))
                    : List.of(segment);
            for (String a : alternatives) {
                if (!code.restSegments.contains(a)) {
                    check(c, false, "no @Path has a segment " + a);
                    return;
                }
            }
        }
        check(c, true, "");
    }

    // ------------------------------------------------------------------------------------------------- SQL

    private static final Set<String> SQL_WORDS = Set.of("interval", "current_date", "numeric", "text", "bigint",
            "timestamptz", "jsonb", "true", "false", "null");

    int checkSql(String file, MarkdownPage.Fence fence) {
        String block = String.join("\n", fence.lines());
        String stripped = block.replaceAll("--[^\\n]*", "").replaceAll("'(?:[^']|'')*'", "''");
        Set<String> defined = new TreeSet<>();
        Matcher as = Pattern.compile("(?i)\\bAS\\s+(\\w+)|(\\w+)\\s+AS\\s*\\(").matcher(stripped);
        while (as.find()) {
            defined.add(as.group(1) != null ? as.group(1) : as.group(2));
        }
        int n = 0;
        String[] lines = block.split("\n", -1);
        boolean catalog = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].replaceAll("--.*$", "").replaceAll("'(?:[^']|'')*'", "''");
            if (line.matches("(?i).*\\bFROM\\s+pg_.*") || line.matches("(?i)^\\s*SELECT .*") && line.contains("pg_")) {
                catalog = true;
            }
            if (!catalog) {
                Matcher w = Pattern.compile("(?<![\\w:.'])([a-z_][a-z0-9_]*)(?![\\w(])").matcher(line);
                while (w.find()) {
                    String word = w.group(1);
                    if (word.length() <= 2 || defined.contains(word) || SQL_WORDS.contains(word)) {
                        continue;
                    }
                    Claim c = new Claim(file, fence.line() + i, "SQL blocks", word);
                    check(c, code.inSchema(word) || code.schemaWords.contains(word) || code.words.contains(word),
                            "no such table, view or column in the migrations");
                    n++;
                }
                Matcher tc = Pattern.compile("(?<![\\w.])([a-z_][a-z0-9_]*)\\.([a-z_][a-z0-9_]*)").matcher(line);
                while (tc.find()) {
                    if (code.tableColumns.containsKey(tc.group(1))) {
                        check(new Claim(file, fence.line() + i, "SQL blocks", tc.group()),
                                code.tableColumns.get(tc.group(1)).contains(tc.group(2)), "no such column");
                    }
                }
            }
            if (line.contains(";")) {
                catalog = false;
            }
        }
        return n;
    }

    // ================================================================================================ values

    /**
     * A table with a "default" column: the names of the first cell (in order) get the comma-separated values
     * of the default cell (in order), as a reader pairs them (fewer values than names: the last names have none
     * given; more values: not compared). A value is compared when it is a number, a
     * duration, "none" or a single token; "generated" and prose are not. "none" means the server has no default.
     * docs/deploy.md is about the server alone: its defaults must be the server's (server.xml, the app's
     * MicroProfile Config); elsewhere a dev-stack script's default counts too.
     */
    @Test
    void defaultsInTablesAreTheCodes() {
        int compared = 0;
        for (Path path : PAGES) {
            MarkdownPage page = MarkdownPage.read(path);
            boolean serverOnly = page.name.equals("docs/deploy.md");
            for (MarkdownPage.Table table : page.tables()) {
                int column = -1;
                for (int i = 0; i < table.header().size(); i++) {
                    if (table.header().get(i).equalsIgnoreCase("default")) {
                        column = i;
                    }
                }
                if (column < 0) {
                    continue;
                }
                for (MarkdownPage.Row row : table.rows()) {
                    List<String> names = namesOfCell(row.cells().get(0));
                    List<String> values = splitTopLevel(row.cells().size() > column ? row.cells().get(column) : "");
                    if (names.isEmpty() || values.size() > names.size()) {
                        continue;
                    }
                    for (int i = 0; i < values.size(); i++) {
                        if (compareDefault(page.name, row.line(), names.get(i), values.get(i), serverOnly)) {
                            compared++;
                        }
                    }
                }
            }
        }
        System.out.println("DocsMatchCodeTest: " + compared + " defaults in tables compared");
        assertTrue(compared > 20, "the defaults tables were read (" + compared + " compared)");
        assertNoFailures("defaults in the docs' tables that are not the code's");
    }

    static List<String> namesOfCell(String cell) {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("`([^`]+)`").matcher(cell);
        while (m.find()) {
            String n = m.group(1);
            if (n.matches("_[A-Z0-9_]+") && !names.isEmpty()) {
                names.add(composeSuffix(names.get(names.size() - 1), n));
            } else if (n.matches("[A-Z][A-Z0-9_<>A-Za-z]*") || n.matches("[a-z][a-z0-9-]*(\\.[a-z0-9<>-]+)+")) {
                names.add(n);
            }
        }
        return names;
    }

    static List<String> splitTopLevel(String cell) {
        List<String> values = new ArrayList<>();
        int depth = 0;
        boolean tick = false;
        StringBuilder v = new StringBuilder();
        for (char ch : cell.toCharArray()) {
            if (ch == '`') {
                tick = !tick;
            } else if (ch == '(' && !tick) {
                depth++;
            } else if (ch == ')' && !tick) {
                depth--;
            }
            if (ch == ',' && depth == 0 && !tick) {
                values.add(v.toString().strip());
                v.setLength(0);
            } else {
                v.append(ch);
            }
        }
        if (!v.toString().isBlank()) {
            values.add(v.toString().strip());
        }
        return values;
    }

    /** True when compared; records a failure when the value is not the code's. */
    private boolean compareDefault(String file, int line, String name, String value, boolean serverOnly) {
        if (hasPlaceholder(name)) {
            return false;
        }
        String v = value.replaceAll("\\s*\\(.*\\)\\s*$", "").replace("`", "").strip();
        Claim c = new Claim(file, line, "defaults", name + " = " + v);
        if (v.equalsIgnoreCase("none")) {
            check(c, !code.hasServerSideDefault(name), "the server has a default for " + name + ": "
                    + code.defaultsOf(name, false));
            return true;
        }
        if (!v.matches("[\\w.:/@+-]+") || v.equals("generated")) {
            return false;
        }
        Set<String> defaults = code.defaultsOf(name, !serverOnly);
        if (defaults.isEmpty() || defaults.stream().allMatch(String::isBlank)) {
            check(c, false, "the code gives " + name + " no default" + (serverOnly ? " on the server" : ""));
            return true;
        }
        check(c, defaults.stream().anyMatch(d -> sameValue(name, d, v)), "the code's default is " + defaults);
        return true;
    }

    /** A value given right after a name: "`KEY` (default V)", "`KEY` (V)", "`KEY`, V", "`KEY` V unit". */
    private static final Pattern BESIDE = Pattern.compile(
            "^(?:,\\s*(?:default\\s+)?|\\s*\\(\\s*(?:default\\s+)?|\\s+)`?"
            + "(P(?:T)?[0-9.]+[A-Z](?:[0-9.]+[A-Z])*|[0-9][0-9,]*(?:\\.[0-9]+)?(?:\\s?(?:ms|s|min|minutes|h|hours?|days?))?)"
            + "`?(?=[\\s,;)`]|$)");

    @Test
    void aValueGivenBesideANameIsItsDefault() {
        int compared = 0;
        for (Path path : PAGES) {
            MarkdownPage page = MarkdownPage.read(path);
            boolean serverOnly = page.name.equals("docs/deploy.md");
            for (MarkdownPage.Span span : page.spans()) {
                String name = span.text().strip().replaceAll("=.*$", "");
                if (!(name.matches("[A-Z][A-Z0-9]*(_[A-Z0-9]+)+") || name.matches("[a-z][a-z0-9-]*(\\.[a-z0-9<>-]+)+"))) {
                    continue;
                }
                Set<String> defaults = new TreeSet<>(code.defaultsOf(name, !serverOnly));
                defaults.addAll(policyDefaults().getOrDefault(name, Set.of()));
                defaults.removeIf(String::isBlank);
                if (defaults.isEmpty()) {
                    continue;
                }
                if (page.lines.get(span.line() - 1).startsWith("|")) {
                    continue; // in a table the values beside a name are the next names' (defaultsInTablesAreTheCodes)
                }
                String after = page.prose.substring(span.end(), Math.min(page.prose.length(), span.end() + 60))
                        .replace('\n', ' ');
                Matcher m = BESIDE.matcher(after);
                if (m.find()) {
                    String value = m.group(1);
                    Claim c = new Claim(page.name, span.line(), "defaults", name + " = " + value);
                    check(c, defaults.stream().anyMatch(d -> sameValue(name, d, value)), "the code's default is " + defaults);
                    compared++;
                }
            }
        }
        System.out.println("DocsMatchCodeTest: " + compared + " values beside a name compared");
        assertTrue(compared > 10, "values beside names were found (" + compared + ")");
        assertNoFailures("values given beside a name that are not its default");
    }

    /** The dedup policy's defaults for any handler, from the code (DedupPolicy's builder). */
    static Map<String, Set<String>> policyDefaults() {
        DedupPolicy defaults = DedupPolicy.builder().build();
        Map<String, Set<String>> map = new LinkedHashMap<>();
        map.put("wecom.handler.<name>.hot-window", Set.of(defaults.hotWindow().toString()));
        map.put("wecom.handler.<name>.cold-window", Set.of(defaults.coldWindow().toString()));
        map.put("wecom.handler.<name>.on-hot-store-down", Set.of(defaults.onHotStoreDown().name()));
        map.put("wecom.handler.<name>.on-cold-store-down", Set.of(defaults.onColdStoreDown().name()));
        return map;
    }

    /** Every row of the policy table in docs/handlers.md gives the code's default. */
    @Test
    void policyTableIsTheCodes() {
        MarkdownPage page = MarkdownPage.read(Path.of("docs/handlers.md"));
        int compared = 0;
        for (MarkdownPage.Table table : page.tables()) {
            if (!table.header().contains("default")) {
                continue;
            }
            for (MarkdownPage.Row row : table.rows()) {
                String key = row.cells().get(0).replace("`", "");
                Set<String> expected = policyDefaults().get(key);
                if (expected != null) {
                    String value = row.cells().get(table.header().indexOf("default")).replace("`", "").strip();
                    check(new Claim(page.name, row.line(), "defaults", key + " = " + value),
                            expected.stream().anyMatch(d -> sameValue(key, d, value)), "the code's default is " + expected);
                    compared++;
                }
            }
        }
        assertTrue(compared == policyDefaults().size(), "docs/handlers.md has a row per policy key: " + compared);
        assertNoFailures("policy defaults in docs/handlers.md that are not DedupPolicy's");
    }

    static boolean sameValue(String name, String codeValue, String docValue) {
        String c = codeValue.strip();
        String d = docValue.strip().replace(",", "");
        if (c.equalsIgnoreCase(d)) {
            return true;
        }
        Optional<Duration> cd = duration(c, unitOf(name));
        Optional<Duration> dd = duration(d, null);
        if (cd.isPresent() && dd.isPresent()) {
            return cd.get().equals(dd.get());
        }
        try {
            return new BigDecimal(c).compareTo(new BigDecimal(d)) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The unit a name's plain number is in: -ms / _MILLIS ... in the name. */
    static String unitOf(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.matches(".*[._-](ms|millis)$")) {
            return "ms";
        }
        if (n.matches(".*[._-]seconds$")) {
            return "s";
        }
        return null;
    }

    /** ISO-8601 (PT5M), Liberty (15s, 2s, 500ms), prose (2.5 s, 10 min, 30 days), or a number in the given unit. */
    static Optional<Duration> duration(String value, String unit) {
        String v = value.strip();
        try {
            if (v.matches("P.*")) {
                return Optional.of(Duration.parse(v));
            }
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        Matcher m = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s?(ms|s|min|minutes|m|h|hours?|d|days?)?").matcher(v);
        if (!m.matches()) {
            return Optional.empty();
        }
        String u = m.group(2) != null ? m.group(2) : unit;
        if (u == null) {
            return Optional.empty();
        }
        BigDecimal amount = new BigDecimal(m.group(1));
        BigDecimal millis = switch (u) {
            case "ms" -> amount;
            case "s" -> amount.multiply(BigDecimal.valueOf(1000));
            case "min", "minutes", "m" -> amount.multiply(BigDecimal.valueOf(60_000));
            case "h", "hour", "hours" -> amount.multiply(BigDecimal.valueOf(3_600_000));
            default -> amount.multiply(BigDecimal.valueOf(86_400_000));
        };
        return Optional.of(Duration.ofMillis(millis.longValueExact()));
    }

    /**
     * The redelivery table (the one whose header names max-delivery-attempts) has a row per handler queue and
     * for the other wecom.# addresses, and each row is the broker file's setting.
     */
    @Test
    void redeliveryTableIsTheBrokerFiles() {
        MarkdownPage.Table table = null;
        MarkdownPage found = null;
        for (Path path : PAGES) {
            MarkdownPage page = MarkdownPage.read(path);
            for (MarkdownPage.Table t : page.tables()) {
                if (String.join("|", t.header()).contains("max-delivery-attempts")) {
                    table = t;
                    found = page;
                }
            }
        }
        assertTrue(table != null, "a page has the redelivery table (a header naming max-delivery-attempts)");
        List<String> header = table.header().stream().map(h -> h.replace("`", "")).toList();
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("max-delivery-attempts", "max-delivery-attempts");
        columns.put("redelivery-delay", "redelivery-delay");
        columns.put("redelivery-delay-multiplier", "redelivery-delay-multiplier");
        columns.put("max-redelivery-delay", "max-redelivery-delay");
        Set<String> covered = new TreeSet<>();
        for (MarkdownPage.Row row : table.rows()) {
            Matcher address = Pattern.compile("`(wecom\\.[\\w.#-]+)`").matcher(row.cells().get(0));
            if (!address.find()) {
                continue;
            }
            String a = address.group(1);
            covered.add(a);
            Map<String, String> settings = code.brokerSettingsOf(a);
            for (Map.Entry<String, String> column : columns.entrySet()) {
                int index = -1;
                for (int i = 0; i < header.size(); i++) {
                    if (header.get(i).contains(column.getKey()) && (column.getKey().equals("redelivery-delay")
                            ? !header.get(i).contains("multiplier") && !header.get(i).contains("max-") : true)) {
                        index = i;
                    }
                }
                assertTrue(index >= 0, "the redelivery table has a column " + column.getKey());
                String doc = row.cells().get(index).replace("`", "").replaceAll("\\s*\\(.*\\)", "").strip();
                String broker = settings.get(column.getValue());
                String unit = column.getKey().contains("delay") && !column.getKey().contains("multiplier") ? "ms" : null;
                check(new Claim(found.name, row.line(), "redelivery", a + " " + column.getKey() + " = " + doc),
                        broker != null && sameValue(unit == null ? "x" : "x-ms", broker, doc),
                        "the broker file says " + broker);
            }
        }
        Set<String> handlerQueues = code.brokerAddresses.stream().filter(a -> a.startsWith("wecom.handler."))
                .collect(Collectors.toCollection(TreeSet::new));
        assertTrue(covered.containsAll(handlerQueues) && covered.contains("wecom.#"),
                found.name + " redelivery table covers every handler queue and wecom.#: " + covered + " vs " + handlerQueues);
        assertNoFailures("redelivery settings in the docs that are not the broker file's");
    }

    /** "`EXP.<address>` (address `X`)": X is where the broker file sends them. */
    @Test
    void deadLetterAndExpiryAddressesAreTheBrokerFiles() {
        Pattern named = Pattern.compile("`(DLQ|EXP)\\.([^`]+)`\\s*\\(address `([^`]+)`\\)");
        int compared = 0;
        for (Path path : PAGES) {
            MarkdownPage page = MarkdownPage.read(path);
            Matcher m = named.matcher(page.prose);
            while (m.find()) {
                String address = m.group(2).startsWith("wecom.") && !hasPlaceholder(m.group(2)) ? m.group(2) : "wecom.#";
                String element = m.group(1).equals("DLQ") ? "dead-letter-address" : "expiry-address";
                String broker = code.brokerSettingsOf(address).get(element);
                check(new Claim(page.name, page.lineAt(m.start()), "dead letters", m.group()),
                        m.group(3).equals(broker), "the broker file's " + element + " for " + address + " is " + broker);
                compared++;
            }
        }
        assertNoFailures("dead-letter or expiry addresses that are not the broker file's");
    }

    /**
     * Redelivery numbers (attempts before the DLQ, back-off delays) are given once, in the redelivery table;
     * elsewhere a page points there. Restated in prose they drifted (README said 10 attempts for every handler).
     */
    @Test
    void redeliveryNumbersLiveInTheTableOnly() {
        Pattern restated = Pattern.compile("(?i)\\b\\d+\\s+(?:failed deliveries|(?:delivery )?attempts)\\b"
                + "|\\b\\d+(?:\\.\\d+)?\\s?m?s\\s*(?:doubling|×|x\\s?\\d|→)");
        for (Path path : PAGES) {
            MarkdownPage page = MarkdownPage.read(path);
            String[] lines = page.prose.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String line = lines[i];
                if (redeliveryTableRow(page, i + 1)) {
                    continue;
                }
                Matcher m = restated.matcher(line);
                boolean aboutRedelivery = line.matches("(?i).*(DLQ|dead.letter|redeliver|back-off|max-delivery-attempts).*");
                if (m.find() && aboutRedelivery) {
                    check(new Claim(page.name, i + 1, "redelivery", m.group()), false,
                            "redelivery numbers belong in the redelivery table (docs/operations.md): link to it");
                }
            }
        }
        assertNoFailures("redelivery numbers restated outside the redelivery table");
    }

    private static boolean redeliveryTableRow(MarkdownPage page, int line) {
        return page.tables().stream().filter(t -> String.join("|", t.header()).contains("max-delivery-attempts"))
                .anyMatch(t -> t.line() == line || t.line() + 1 == line || t.rows().stream().anyMatch(r -> r.line() == line));
    }

    /**
     * docs/deploy.md tells an admin what the app needs of their server and broker: every JNDI name server.xml
     * declares, every variable of server.xml an admin may set (its environment form), every setting of the
     * broker file's core outside its four sections, and no route that cannot
     * work (applying the migrations with psql while one uses a Flyway placeholder).
     */
    @Test
    void deployPageNamesWhatTheServerAndBrokerNeed() throws Exception {
        MarkdownPage page = MarkdownPage.read(Path.of("docs/deploy.md"));
        String text = String.join("\n", page.lines);
        List<String> named = new ArrayList<>();
        for (MarkdownPage.Span span : page.spans()) {
            for (String word : span.text().split("\\s+")) {
                if (!word.replaceAll("<[^>]*>", "").isBlank()) { // <admin> alone would match anything
                    named.add(Pattern.quote(word).replaceAll("<[^>]*>", "\\\\E[\\\\w-]+\\\\Q"));
                }
            }
        }
        Matcher jndi = Pattern.compile("jndiName=\"([^\"]+)\"").matcher(CodeCorpus.text(CodeCorpus.SERVER_XML)
                + CodeCorpus.text(CodeCorpus.APP_XML) + CodeCorpus.text(CodeCorpus.HANDLERS_DROP_IN));
        while (jndi.find()) {
            String name = jndi.group(1);
            check(new Claim(page.name, lineOfFirst(page, "`jdbc/wecom`"), "deploy", name), named.stream().anyMatch(name::matches),
                    "server.xml declares it; the page does not name it");
        }
        org.w3c.dom.Element core = (org.w3c.dom.Element) CodeCorpus.xml(CodeCorpus.BROKER_FILE)
                .getElementsByTagName("core").item(0);
        for (org.w3c.dom.Node n = core.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof org.w3c.dom.Element e && !e.getTagName().matches("security-settings|address-settings|addresses|diverts")) {
                check(new Claim(page.name, lineOfFirst(page, "persist-delivery-count-before-delivery"), "deploy", e.getTagName()),
                        text.contains("`" + e.getTagName() + "`"),
                        "the broker file sets it in <core>; the merge instructions do not name it");
            }
        }
        for (String variable : code.serverVariables.keySet()) {
            if (code.fixedServerVariables.contains(variable) || variable.startsWith("mp.")) {
                continue; // not a setting: value= is not overridden; mp.* is MicroProfile's own
            }
            String env = CodeCorpus.env(variable);
            check(new Claim(page.name, lineOfFirst(page, "| environment |"), "deploy", env),
                    named.stream().anyMatch(env::matches), "server.xml variable " + variable + " (env " + env
                            + ") is a setting of the server; the page does not name it");
        }
        boolean placeholder = false;
        try (Stream<Path> sql = Files.list(Path.of("src/main/resources/db/migration"))) {
            for (Path f : sql.toList()) {
                placeholder |= CodeCorpus.text(f).contains("${flyway:");
            }
        }
        for (Path path : PAGES) {
            MarkdownPage p = MarkdownPage.read(path);
            for (MarkdownPage.Fence fence : p.fences) {
                for (int i = 0; i < fence.lines().size(); i++) {
                    String line = fence.lines().get(i);
                    if (placeholder && line.contains("psql") && line.contains("db/migration")) {
                        check(new Claim(p.name, fence.line() + i, "deploy", "psql ... db/migration"), false,
                                "a migration uses a ${flyway:...} placeholder, which only Flyway fills in");
                    }
                }
            }
        }
        assertNoFailures("what docs/deploy.md leaves out of what the app needs");
    }

    private static int lineOfFirst(MarkdownPage page, String text) {
        for (int i = 0; i < page.lines.size(); i++) {
            if (page.lines.get(i).contains(text)) {
                return i + 1;
            }
        }
        return 1;
    }

    /**
     * What the code exposes to operators is documented somewhere: every metric it registers (as Prometheus
     * writes it, or dotted), every health check (its name in a code span), every admin resource (/api/...).
     */
    @Test
    void everyMetricHealthCheckAndAdminResourceIsDocumented() {
        StringBuilder docs = new StringBuilder();
        for (Path path : PAGES) {
            docs.append(String.join("\n", MarkdownPage.read(path).lines)).append('\n');
        }
        String all = docs.toString();
        int found = 0;
        for (CodeCorpus.SourceFile f : code.files) {
            if (!f.java() || !f.path().startsWith("src/main/")) {
                continue;
            }
            Map<String, String> constants = new java.util.HashMap<>();
            Matcher c = Pattern.compile("\\b([A-Z][A-Z0-9_]*)\\s*=\\s*\"([^\"]*)\"").matcher(f.code());
            while (c.find()) {
                constants.put(c.group(1), c.group(2));
            }
            Matcher metric = Pattern.compile("(?:\\.(?:counter|gauge|timer|histogram|meter)\\(|withName\\()\\s*"
                    + "(?:\"(wecom\\.[\\w.-]+)\"|([A-Z][A-Z0-9_]*))").matcher(f.code());
            while (metric.find()) {
                String name = metric.group(1) != null ? metric.group(1) : constants.get(metric.group(2));
                if (name == null || !name.startsWith("wecom.")) {
                    continue;
                }
                String prometheus = name.replaceAll("[.-]", "_");
                check(new Claim(f.path(), 0, "documented", name), all.contains(prometheus) || all.contains("`" + name),
                        "a metric the code registers that no page names (as " + prometheus + " or " + name + ")");
                found++;
            }
            Matcher health = Pattern.compile("HealthCheckResponse\\.named\\(\\s*(?:\"([^\"]+)\"|([A-Z][A-Z0-9_]*))\\s*\\)")
                    .matcher(f.code());
            while (health.find()) {
                String name = health.group(1) != null ? health.group(1) : constants.get(health.group(2));
                if (name != null) {
                    check(new Claim(f.path(), 0, "documented", name), all.contains("`" + name + "`"),
                            "a health check that no page names");
                    found++;
                }
            }
            Matcher resource = Pattern.compile("@Path\\(\"(api/[^\"]+)\"\\)\\s*(?:@[\\w.]+(?:\\([^)]*\\))?\\s*)*public class")
                    .matcher(f.code());
            while (resource.find()) {
                check(new Claim(f.path(), 0, "documented", "/" + resource.group(1)), all.contains("/" + resource.group(1)),
                        "an admin resource that no page names");
                found++;
            }
        }
        assertTrue(found > 30, "metrics, checks and resources were found in the code: " + found);
        assertNoFailures("metrics, health checks or admin resources of the code that no page documents");
    }

    /**
     * The welcome handler's own copy of its queue's redelivery schedule (docs/handlers-welcome-contact-bot.md:
     * "keep them equal to the broker's") defaults to the broker file's.
     */
    @Test
    void welcomeHandlersScheduleIsTheBrokerFiles() throws Exception {
        Class<?> configClass = Class.forName("io.wecominbox.handler.welcome.WelcomeConfig");
        Object config = configClass.getDeclaredConstructor().newInstance();
        java.lang.reflect.Field field = configClass.getDeclaredField("config");
        field.setAccessible(true);
        field.set(config, java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {org.eclipse.microprofile.config.Config.class},
                (proxy, method, args) -> method.getName().equals("getOptionalValue") ? Optional.empty() : null));
        io.wecominbox.handler.welcome.WelcomeWindow window = (io.wecominbox.handler.welcome.WelcomeWindow)
                configClass.getMethod("window").invoke(config);
        Map<String, String> broker = code.brokerSettingsOf("wecom.handler.welcome");
        assertTrue(sameValue("x-ms", broker.get("redelivery-delay"), window.redeliveryDelay().toMillis() + " ms"),
                "wecom.handler.welcome.redelivery-delay default " + window.redeliveryDelay() + " vs broker " + broker);
        assertTrue(sameValue("x", broker.get("redelivery-delay-multiplier"), String.valueOf(window.multiplier())),
                "wecom.handler.welcome.redelivery-multiplier default " + window.multiplier() + " vs broker " + broker);
        assertTrue(sameValue("x-ms", broker.get("max-redelivery-delay"), window.maxRedeliveryDelay().toMillis() + " ms"),
                "wecom.handler.welcome.max-redelivery-delay default " + window.maxRedeliveryDelay() + " vs broker " + broker);
    }

    /** docs/dba.md's table of tables lists every table, view and schema the migrations create. */
    @Test
    void dbaPageListsEveryTableViewAndSchema() {
        MarkdownPage page = MarkdownPage.read(Path.of("docs/dba.md"));
        Set<String> listed = new TreeSet<>();
        for (MarkdownPage.Table table : page.tables()) {
            for (MarkdownPage.Row row : table.rows()) {
                Matcher m = Pattern.compile("`([a-z_]+)`").matcher(row.cells().get(0));
                while (m.find()) {
                    listed.add(m.group(1));
                }
            }
        }
        Set<String> schema = new TreeSet<>(code.tableColumns.keySet());
        schema.addAll(code.views);
        schema.addAll(code.schemas);
        for (String name : schema) {
            check(new Claim(page.name, page.tables().get(0).line(), "dba", name), listed.contains(name),
                    "the migrations create it; no row of the table of tables names it");
        }
        assertNoFailures("tables, views or schemas docs/dba.md does not list");
    }

    /**
     * A key server.xml sets with value= is not overridden by its environment variable: where a page names it
     * (or a placeholder form of it), the same paragraph names the variable it takes its value from.
     */
    @Test
    void aKeyServerXmlFixesIsNamedWithItsVariable() {
        for (String key : code.fixedServerVariables) {
            Matcher source = Pattern.compile("\\$\\{([\\w.-]+)\\}").matcher(code.serverVariables.get(key));
            if (!source.find()) {
                continue;
            }
            String variable = source.group(1);
            for (Path path : PAGES) {
                MarkdownPage page = MarkdownPage.read(path);
                Matcher paragraphs = Pattern.compile("(?s)\\S.*?(?=\\n\\s*\\n|\\z)").matcher(page.prose);
                while (paragraphs.find()) {
                    String paragraph = paragraphs.group();
                    int offset = paragraphs.start();
                    Matcher m = Pattern.compile("`([^`]+)`").matcher(paragraph);
                    while (m.find()) {
                        String named = m.group(1);
                        String regex = Pattern.quote(named).replaceAll("<[^>]*>", "\\\\E[\\\\w-]+\\\\Q");
                        if (named.startsWith("wecom.") && key.matches(regex) && !paragraph.contains("`" + variable + "`")) {
                            check(new Claim(page.name, page.lineAt(offset + m.start()), "fixed keys", named), false,
                                    "server.xml sets " + key + " to ${" + variable + "} (value=, the environment cannot "
                                            + "override it): name `" + variable + "` here");
                        }
                    }
                }
            }
        }
        assertNoFailures("keys that server.xml fixes, named without the variable that sets them");
    }

    // ======================================================================================== links, sections

    @Test
    void linksAndSectionReferencesResolve() {
        for (Path path : PAGES) {
            MarkdownPage page = MarkdownPage.read(path);
            for (MarkdownPage.Link link : page.links()) {
                String target = link.target();
                if (target.matches("[a-z]+:.*")) {
                    continue;
                }
                String file = target.replaceAll("#.*$", "");
                Path resolved = file.isEmpty() ? path : path.resolveSibling(file).normalize();
                Claim c = new Claim(page.name, link.line(), "links", target);
                if (!Files.exists(resolved)) {
                    check(c, false, "no such file " + resolved);
                    continue;
                }
                if (target.contains("#") && resolved.toString().endsWith(".md")) {
                    String anchor = target.substring(target.indexOf('#') + 1);
                    boolean ok = MarkdownPage.read(resolved).headings().stream()
                            .anyMatch(h -> MarkdownPage.anchor(h.title()).equals(anchor));
                    check(c, ok, "no heading of " + resolved + " has the anchor #" + anchor);
                } else {
                    check(c, true, "");
                }
            }
            checkSectionReferences(page.name, String.join("\n", page.lines));
        }
        for (CodeCorpus.SourceFile f : code.files) {
            if (!f.path().startsWith("src/test/")) {
                checkSectionReferences(f.path(), CodeCorpus.text(Path.of(f.path())));
            }
        }
        assertNoFailures("links or section references that lead nowhere");
    }

    private static final Pattern SECTION_REF = Pattern.compile(
            "(docs/[\\w-]+\\.md)(?:,\\s*|\\s+)(?:section\\s+)?(?:\"([^\"\\n]+)\"|\\*([^*\\n]+)\\*|(\\d+)\\b)"
            + "|\"([^\"\\n]+)\"\\s+in\\s+(docs/[\\w-]+\\.md)|(?<!md, )section\\s+\"([^\"\\n]+)\"");
    private static final Pattern PAGE_REF = Pattern.compile("(?<![\\w/])(docs/[\\w-]+\\.md)");

    private void checkSectionReferences(String file, String text) {
        String[] lines = text.split("\n", -1);
        String joined = String.join(" ", lines);
        Matcher m = SECTION_REF.matcher(text.replace('\n', ' '));
        while (m.find()) {
            int line = lineOf(text, m.start());
            String page;
            String title;
            boolean numbered = false;
            if (m.group(1) != null) {
                page = m.group(1);
                title = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
                numbered = m.group(4) != null;
            } else if (m.group(5) != null) {
                page = m.group(6);
                title = m.group(5);
            } else {
                page = file.startsWith("docs/") || file.equals("README.md") ? file : null;
                title = m.group(7);
            }
            if (page == null) {
                continue;
            }
            Claim c = new Claim(file, line, "sections", page + " \"" + title + "\"");
            if (!Files.exists(Path.of(page))) {
                check(c, false, "no such page");
                continue;
            }
            String wanted = numbered ? title + "." : title.toLowerCase(Locale.ROOT);
            boolean ok = MarkdownPage.read(Path.of(page)).headings().stream()
                    .map(h -> h.title().replace("`", "").toLowerCase(Locale.ROOT))
                    .anyMatch(h -> h.startsWith(wanted.toLowerCase(Locale.ROOT)));
            check(c, ok, page + " has no heading starting with \"" + title + "\"");
        }
        Matcher p = PAGE_REF.matcher(joined);
        while (p.find()) {
            check(new Claim(file, 0, "sections", p.group(1)), Files.exists(Path.of(p.group(1))), "no such page");
        }
    }

    private static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    // ============================================================================================== README

    /** The README's first screen: what it is, how to run and test it, and a link to every page under docs/. */
    @Test
    void readmeFirstScreenRunsTestsAndLinksEveryPage() throws IOException {
        List<String> readme = Files.readAllLines(Path.of("README.md"));
        String firstScreen = String.join("\n", readme.subList(0, Math.min(50, readme.size())));
        assertTrue(firstScreen.contains("src/stack/stack.sh run"), "README's first screen has the run command");
        assertTrue(firstScreen.matches("(?s).*\\n```sh\\nmvn verify\\s*(#.*)?\\n.*"),
                "README's first screen has the test command mvn verify on a line of its own");
        for (Path page : PAGES.subList(1, PAGES.size())) {
            assertTrue(firstScreen.contains("](" + page.toString().replace('\\', '/') + ")"),
                    "README's first screen links " + page + " (a Markdown link)");
        }
    }

    /** The project tree (docs/layout.md, a ```tree block): every entry exists. */
    @Test
    void projectTreeEntriesExist() {
        MarkdownPage page = MarkdownPage.read(Path.of("docs/layout.md"));
        MarkdownPage.Fence tree = page.fences.stream().filter(f -> f.info().equals("tree")).findFirst()
                .orElseThrow(() -> new AssertionError("docs/layout.md has a ```tree block"));
        List<String> parents = new ArrayList<>();
        int entries = 0;
        for (int i = 0; i < tree.lines().size(); i++) {
            String line = tree.lines().get(i);
            int indent = line.length() - line.stripLeading().length();
            if (line.isBlank() || indent > 12) {
                continue; // a description's continuation
            }
            int level = indent / 2;
            String head = line.strip().split("\\s{2,}")[0];
            String parent = level == 0 || parents.size() < level ? "" : parents.get(level - 1);
            for (String entry : head.split(" ")) {
                String p = parent + entry;
                Claim c = new Claim(page.name, tree.line() + i, "tree", p);
                check(c, Files.exists(Path.of(p)), "no such file or directory");
                entries++;
                while (parents.size() > level) {
                    parents.remove(parents.size() - 1);
                }
                if (entry.endsWith("/")) {
                    parents.add(p);
                }
            }
        }
        assertTrue(entries > 30, "the tree was read: " + entries + " entries");
        assertNoFailures("entries of the project tree that do not exist");
    }

    @Test
    void theRulesFindWhatTheyShould() {
        List<Claim> claims = claimsInSpan("x", 1, "SELECT count(*) FROM callback_log WHERE published_at IS NULL");
        assertTrue(claims.stream().anyMatch(c -> c.name().equals("published_at")), claims.toString());
        claims = claimsInSpan("x", 1, "WECOM_APP_<NAME>_CORP_ID");
        assertTrue(claims.stream().anyMatch(c -> c.rule().equals("environment")), claims.toString());
        assertFalse(claimsInSpan("x", 1, "wecom.handler.<name>.hot-window").isEmpty());
        assertTrue(isMetric("wecom_callback_ack_seconds_bucket"));
        assertFalse(isMetric("wecom_nothing_total"));
        assertTrue(sameValue("WECOM_INGEST_COMMIT_WAIT_MILLIS", "2500", "2.5 s"));
        assertTrue(sameValue("wecom.dedup.hot.timeout", "PT0.25S", "250 ms"));
        assertTrue(sameValue("tx.lease.length", "15s", "15 s"));
        assertFalse(sameValue("wecom.reconcile.interval", "PT30M", "PT15M"));
        assertTrue(composeSuffix("WECOM_APP_<NAME>_CORP_ID", "_TOKEN").equals("WECOM_APP_<NAME>_TOKEN"));
        assertTrue(composeSuffix("WECOM_BROKER_MANAGEMENT_URL", "_USER").equals("WECOM_BROKER_MANAGEMENT_USER"));
    }
}
