package io.wecominbox.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * "The code" the docs are checked against: every source, configuration and script file of the checkout
 * (src/ except this package, liberty/, server.xml, pom.xml, .ci/run), each read as code, i.e. without its
 * comments (a name that lives only in a comment does not exist), plus what the test needs parsed: the
 * migrations' tables and columns, server.xml's variables, the broker file's settings, configuration defaults.
 */
final class CodeCorpus {

    /** A file as code: its text without comments, and (Java) its string literals. */
    record SourceFile(String path, String code, List<String> literals, boolean java) {
    }

    /** One address-setting of a broker file: its match and its child elements' values. */
    record AddressSetting(String match, Map<String, String> values) {
    }

    static final Path BROKER_FILE = Path.of("src/main/broker/wecom-inbox-broker.xml");
    static final Path DEV_BROKER_FILE = Path.of("src/stack/artemis/broker.xml");
    static final Path SERVER_XML = Path.of("server.xml");
    /** The application's part of a server's configuration, which server.xml includes. */
    static final Path APP_XML = Path.of("liberty/wecom-inbox.xml");
    /** The handlers' generated drop-in, read with server.xml: its variables and queues are the server's too. */
    static final Path HANDLERS_DROP_IN = Path.of("liberty/configDropins/defaults/wecom-handlers.xml");
    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");
    private static final Path THIS_PACKAGE = Path.of("src/test/java/io/wecominbox/docs");
    private static final Set<String> TEXT_EXTENSIONS = Set.of("java", "xml", "properties", "sql", "sh", "env",
            "options", "js", "mjs", "css", "html", "json", "cfg");
    private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    final List<SourceFile> files = new ArrayList<>();
    /** Every identifier-like word of the code (names, enum constants, words inside literals). */
    final Set<String> words = new HashSet<>();
    /** The whole code, file after file, for searches of dotted names. */
    final String all;
    final Map<String, Set<String>> tableColumns = new LinkedHashMap<>();
    final Set<String> views = new TreeSet<>();
    final Set<String> indexes = new TreeSet<>();
    final Set<String> schemas = new TreeSet<>();
    /** Every word of the migrations (code only). */
    final Set<String> schemaWords = new HashSet<>();
    /** server.xml variables: name to defaultValue (or value). */
    final Map<String, String> serverVariables = new LinkedHashMap<>();
    /** server.xml variables set with value=, which no environment variable overrides. */
    final Set<String> fixedServerVariables = new TreeSet<>();
    /** MicroProfile Config defaults: @ConfigProperty defaultValue and microprofile-config.properties. */
    final Map<String, Set<String>> configDefaults = new HashMap<>();
    /** Defaults the dev-stack and bench scripts give environment variables (${NAME:=value}, ${NAME:-value}). */
    final Map<String, Set<String>> scriptDefaults = new HashMap<>();
    /** Every path segment of a JAX-RS @Path or @ApplicationPath. */
    final Set<String> restSegments = new HashSet<>();
    final List<AddressSetting> brokerSettings = new ArrayList<>();
    final Set<String> brokerAddresses = new TreeSet<>();

    private CodeCorpus() throws Exception {
        List<Path> paths = new ArrayList<>();
        for (Path root : List.of(Path.of("src"), Path.of("liberty"))) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(Files::isRegularFile)
                    .filter(p -> !p.startsWith(THIS_PACKAGE) && !p.toString().contains("node_modules"))
                    .filter(p -> TEXT_EXTENSIONS.contains(extension(p)) && !p.endsWith("package-lock.json"))
                    .sorted()
                    .forEach(paths::add);
            }
        }
        paths.addAll(List.of(SERVER_XML, Path.of("pom.xml"), Path.of(".ci/run")));
        StringBuilder all = new StringBuilder();
        for (Path path : paths) {
            if (!Files.exists(path)) {
                continue;
            }
            SourceFile file = read(path);
            files.add(file);
            all.append(file.code()).append("\n\u0000\n");
            Matcher w = WORD.matcher(file.code());
            while (w.find()) {
                words.add(w.group());
            }
        }
        this.all = all.toString();
        readMigrations();
        readServerXml();
        readDefaults();
        readBroker();
    }

    private static CodeCorpus instance;

    static synchronized CodeCorpus load() {
        if (instance == null) {
            try {
                instance = new CodeCorpus();
            } catch (Exception e) {
                throw new IllegalStateException("cannot read the code", e);
            }
        }
        return instance;
    }

    static String extension(Path p) {
        String name = p.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1);
    }

    static String text(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SourceFile read(Path path) {
        String text = text(path);
        String name = path.toString().replace('\\', '/');
        switch (extension(path)) {
            case "java" -> {
                StringBuilder code = new StringBuilder();
                List<String> literals = new ArrayList<>();
                lexJava(text, code, literals);
                return new SourceFile(name, code.toString(), literals, true);
            }
            case "xml", "html" -> {
                return new SourceFile(name, text.replaceAll("(?s)<!--.*?-->", " "), List.of(), false);
            }
            case "sql" -> {
                return new SourceFile(name, text.replaceAll("--[^\\n]*", ""), List.of(), false);
            }
            case "js", "mjs", "css" -> {
                return new SourceFile(name, text.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("(?m)^\\s*//.*$", ""),
                        List.of(), false);
            }
            case "json" -> {
                return new SourceFile(name, text, List.of(), false);
            }
            default -> { // shell scripts, properties, server.env, jvm.options, .ci/run: # comment lines
                return new SourceFile(name, text.replaceAll("(?m)^\\s*#.*$", ""), List.of(), false);
            }
        }
    }

    /** Java without comments (string literals kept), and the string literals themselves, unescaped. */
    static void lexJava(String src, StringBuilder code, List<String> literals) {
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                code.append(' ');
            } else if (src.startsWith("\"\"\"", i)) {
                int end = src.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end;
                literals.add(src.substring(i + 3, end));
                code.append(src, i, Math.min(n, end + 3));
                i = end + 3;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                StringBuilder literal = new StringBuilder();
                while (j < n && src.charAt(j) != c && src.charAt(j) != '\n') {
                    if (src.charAt(j) == '\\' && j + 1 < n) {
                        char e = src.charAt(j + 1);
                        literal.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
                        j += 2;
                    } else {
                        literal.append(src.charAt(j++));
                    }
                }
                if (c == '"') {
                    literals.add(literal.toString());
                }
                code.append(src, i, Math.min(n, j + 1));
                i = j + 1;
            } else {
                code.append(c);
                i++;
            }
        }
    }

    static String env(String name) {
        return name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    // ---------------------------------------------------------------------------------------- migrations

    private void readMigrations() throws IOException {
        List<Path> sql;
        try (Stream<Path> list = Files.list(MIGRATIONS)) {
            sql = list.filter(p -> p.toString().endsWith(".sql")).sorted().toList();
        }
        for (Path file : sql) {
            String code = text(file).replaceAll("--[^\\n]*", "").replaceAll("'(?:[^']|'')*'", "''");
            Matcher w = WORD.matcher(code);
            while (w.find()) {
                schemaWords.add(w.group());
            }
            Matcher table = Pattern.compile("(?i)CREATE TABLE (?:IF NOT EXISTS )?(\\w+)\\s*\\(").matcher(code);
            while (table.find()) {
                Set<String> columns = tableColumns.computeIfAbsent(table.group(1), t -> new TreeSet<>());
                for (String item : topLevelItems(code, table.end())) {
                    String first = item.strip().split("\\s+")[0];
                    if (!first.isEmpty() && !first.toUpperCase(Locale.ROOT).matches(
                            "CONSTRAINT|PRIMARY|UNIQUE|CHECK|FOREIGN|EXCLUDE|LIKE")) {
                        columns.add(first);
                    }
                }
            }
            Matcher add = Pattern.compile("(?i)ALTER TABLE (\\w+) ADD COLUMN (?:IF NOT EXISTS )?(\\w+)").matcher(code);
            while (add.find()) {
                tableColumns.computeIfAbsent(add.group(1), t -> new TreeSet<>()).add(add.group(2));
            }
            Matcher drop = Pattern.compile("(?i)ALTER TABLE (\\w+) DROP COLUMN (?:IF EXISTS )?(\\w+)").matcher(code);
            while (drop.find()) {
                tableColumns.getOrDefault(drop.group(1), new TreeSet<>()).remove(drop.group(2));
            }
            Matcher rename = Pattern.compile("(?i)ALTER TABLE (\\w+) RENAME COLUMN (\\w+) TO (\\w+)").matcher(code);
            while (rename.find()) {
                Set<String> columns = tableColumns.getOrDefault(rename.group(1), new TreeSet<>());
                columns.remove(rename.group(2));
                columns.add(rename.group(3));
            }
            collect(code, "(?i)CREATE (?:OR REPLACE )?VIEW (\\w+)", views);
            collect(code, "(?i)CREATE (?:UNIQUE )?INDEX (?:IF NOT EXISTS )?(\\w+)", indexes);
            collect(code, "(?i)CREATE SCHEMA (?:IF NOT EXISTS )?(\\w+)", schemas);
        }
    }

    private static void collect(String text, String regex, Set<String> into) {
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    /** The comma-separated items of the parenthesis opened just before {@code from}. */
    private static List<String> topLevelItems(String text, int from) {
        List<String> items = new ArrayList<>();
        int depth = 1;
        StringBuilder item = new StringBuilder();
        for (int i = from; i < text.length() && depth > 0; i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            }
            if ((c == ',' && depth == 1) || depth == 0) {
                items.add(item.toString());
                item.setLength(0);
            } else {
                item.append(c);
            }
        }
        return items;
    }

    /** A name the schema defines: a table, view, column, index, schema, or a constraint PostgreSQL names. */
    boolean inSchema(String name) {
        if (tableColumns.containsKey(name) || views.contains(name) || indexes.contains(name) || schemas.contains(name)
                || tableColumns.values().stream().anyMatch(c -> c.contains(name))) {
            return true;
        }
        for (Map.Entry<String, Set<String>> t : tableColumns.entrySet()) {
            if (name.equals(t.getKey() + "_pkey")) {
                return true;
            }
            for (String column : t.getValue()) {
                if (name.equals(t.getKey() + "_" + column + "_key") || name.equals(t.getKey() + "_" + column + "_check")) {
                    return true;
                }
            }
        }
        return false;
    }

    // ----------------------------------------------------------------------------------------- server.xml

    private void readServerXml() throws Exception {
        readServerVariables(SERVER_XML);
        readServerVariables(APP_XML);
        readServerVariables(HANDLERS_DROP_IN);
    }

    private void readServerVariables(Path file) throws Exception {
        Document doc = xml(file);
        NodeList variables = doc.getElementsByTagName("variable");
        for (int i = 0; i < variables.getLength(); i++) {
            Element v = (Element) variables.item(i);
            if (v.hasAttribute("value")) {
                serverVariables.put(v.getAttribute("name"), v.getAttribute("value"));
                fixedServerVariables.add(v.getAttribute("name"));
            } else {
                serverVariables.put(v.getAttribute("name"), v.getAttribute("defaultValue"));
            }
        }
    }

    static Document xml(Path path) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(path.toFile());
    }

    // ------------------------------------------------------------------------------------------- defaults

    private void readDefaults() {
        Pattern property = Pattern.compile(
                "@ConfigProperty\\s*\\(\\s*name\\s*=\\s*\"([^\"]+)\"\\s*,\\s*defaultValue\\s*=\\s*\"([^\"]*)\"\\s*\\)");
        Pattern path = Pattern.compile("@(?:Application)?Path\\(\\s*\"([^\"]*)\"\\s*\\)");
        Pattern script = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*):[-=]([^}]*)\\}");
        for (SourceFile file : files) {
            if (file.java() && file.path().startsWith("src/main/")) {
                Matcher m = property.matcher(file.code());
                while (m.find()) {
                    configDefaults.computeIfAbsent(m.group(1), k -> new HashSet<>()).add(m.group(2));
                }
                Matcher p = path.matcher(file.code());
                while (p.find()) {
                    restSegments.addAll(List.of(p.group(1).split("/")));
                }
                readOrElseDefaults(file);
            }
            if (file.path().endsWith("microprofile-config.properties")) {
                for (String line : file.code().split("\n")) {
                    int eq = line.indexOf('=');
                    if (eq > 0) {
                        configDefaults.computeIfAbsent(line.substring(0, eq).strip(), k -> new HashSet<>())
                            .add(line.substring(eq + 1).strip());
                    }
                }
            }
            if (file.path().endsWith(".sh")) {
                Matcher m = script.matcher(file.code());
                while (m.find()) {
                    scriptDefaults.computeIfAbsent(m.group(1), k -> new HashSet<>()).add(m.group(2));
                }
            }
        }
    }

    /** value.apply("key").orElse(default) and value.apply(KEY).orElse(DEFAULT_KEY) on one line. */
    private void readOrElseDefaults(SourceFile file) {
        Map<String, String> constants = new HashMap<>();
        Matcher c = Pattern.compile("\\b([A-Z][A-Z0-9_]*)\\s*=\\s*\"([^\"]*)\"").matcher(file.code());
        while (c.find()) {
            constants.put(c.group(1), c.group(2));
        }
        Matcher m = Pattern.compile("(?:\"([a-z][\\w.-]*)\"|\\b([A-Z][A-Z0-9_]*))\\)[^;\\n]{0,80}?\\.orElse\\(\\s*"
                + "(\"[^\"]*\"|[A-Z][A-Z0-9_]*|-?[0-9.]+)\\s*\\)").matcher(file.code());
        while (m.find()) {
            String key = m.group(1) != null ? m.group(1) : constants.get(m.group(2));
            String value = m.group(3).startsWith("\"") ? m.group(3).substring(1, m.group(3).length() - 1)
                    : constants.getOrDefault(m.group(3), m.group(3));
            if (key != null && (key.startsWith("wecom.") || key.startsWith("redis."))
                    && !value.matches("[A-Z][A-Z0-9_]*")) {
                configDefaults.computeIfAbsent(key, k -> new HashSet<>()).add(value);
            }
        }
    }

    /**
     * The defaults the code gives a name (a server.xml variable, a MicroProfile key, or either one's environment
     * form), normalised: ${broker.host} and ${broker.host:127.0.0.1} read BROKER_HOST, $((X + 1)) reads X+1.
     */
    Set<String> defaultsOf(String name, boolean withScripts) {
        Set<String> raw = new HashSet<>();
        String env = env(name);
        serverVariables.forEach((k, v) -> {
            if (k.equals(name) || env(k).equals(env)) {
                raw.add(v);
            }
        });
        configDefaults.forEach((k, v) -> {
            if (k.equals(name) || env(k).equals(env)) {
                raw.addAll(v);
            }
        });
        if (withScripts) {
            raw.addAll(scriptDefaults.getOrDefault(env, Set.of()));
        }
        Set<String> normalised = new HashSet<>();
        for (String value : raw) {
            normalised.add(value.replaceAll("\\$\\{([a-z][\\w.-]*)(?::[^}]*)?\\}", "\u0001$1\u0002")
                .replaceAll("\\$\\(\\(\\s*([A-Z_]+)\\s*\\+\\s*(\\d+)\\s*\\)\\)", "$1+$2")
                .replaceAll("\\$\\{?([A-Z][A-Z0-9_]*)\\}?", "$1"));
        }
        Set<String> result = new HashSet<>();
        for (String value : normalised) {
            Matcher m = Pattern.compile("\u0001([^\u0002]*)\u0002").matcher(value);
            StringBuilder out = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(out, Matcher.quoteReplacement(env(m.group(1))));
            }
            m.appendTail(out);
            result.add(out.toString());
        }
        return result;
    }

    boolean hasServerSideDefault(String name) {
        return defaultsOf(name, false).stream().anyMatch(v -> !v.isBlank());
    }

    // --------------------------------------------------------------------------------------------- broker

    private void readBroker() throws Exception {
        for (Path file : List.of(BROKER_FILE, DEV_BROKER_FILE)) {
            Document doc = xml(file);
            NodeList addresses = doc.getElementsByTagName("address");
            for (int i = 0; i < addresses.getLength(); i++) {
                Element a = (Element) addresses.item(i);
                if (a.hasAttribute("name")) {
                    brokerAddresses.add(a.getAttribute("name"));
                }
            }
            if (!file.equals(BROKER_FILE)) {
                continue;
            }
            NodeList settings = doc.getElementsByTagName("address-setting");
            for (int i = 0; i < settings.getLength(); i++) {
                Element s = (Element) settings.item(i);
                Map<String, String> values = new LinkedHashMap<>();
                for (Node child = s.getFirstChild(); child != null; child = child.getNextSibling()) {
                    if (child instanceof Element e) {
                        values.put(e.getTagName(), e.getTextContent().strip());
                    }
                }
                brokerSettings.add(new AddressSetting(s.getAttribute("match"), values));
            }
        }
    }

    /** An address's settings in the broker file: wecom.#'s, overridden by an exact match. */
    Map<String, String> brokerSettingsOf(String address) {
        Map<String, String> effective = new LinkedHashMap<>();
        brokerSetting("wecom.#").ifPresent(s -> effective.putAll(s.values()));
        if (!address.equals("wecom.#")) {
            brokerSetting(address).ifPresent(s -> effective.putAll(s.values()));
        }
        return effective;
    }

    Optional<AddressSetting> brokerSetting(String match) {
        return brokerSettings.stream().filter(s -> s.match().equals(match)).findFirst();
    }

    /** Whether some address-setting of the broker file sets this element to this value. */
    boolean brokerSets(String element, String value) {
        return brokerSettings.stream().anyMatch(s -> value.equals(s.values().get(element)));
    }

    // --------------------------------------------------------------------------------------------- search

    /**
     * Whether a name occurs in the code as a whole name: not inside a longer one (a dot may follow: a name
     * may be a prefix of longer keys, as wecom.reconcile is of wecom.reconcile.interval).
     */
    boolean containsName(String text, String name) {
        return Pattern.compile("(?<![A-Za-z0-9_.-])" + Pattern.quote(name) + "(?![A-Za-z0-9_-])").matcher(text).find();
    }

    boolean inCode(String name) {
        return containsName(all, name);
    }

    /**
     * A file holding each of these fragments as whole words (the order does not matter), in its string
     * literals if it is Java (the parts of a key built by concatenation): a dotted fragment may touch dots, an
     * UPPER_SNAKE one underscores (WECOM_APP_${upper}_$key), nothing else.
     */
    boolean fragmentsInOneFile(List<String> fragments) {
        List<Pattern> patterns = fragments.stream().map(f -> {
            String edge = f.equals(f.toUpperCase(Locale.ROOT)) ? "A-Za-z0-9" : "A-Za-z0-9_-";
            return Pattern.compile("(?<![" + edge + "])" + Pattern.quote(f) + "(?![" + edge + "])");
        }).toList();
        for (SourceFile file : files) {
            String text = file.java() ? String.join("\n", file.literals()) : file.code();
            if (patterns.stream().allMatch(p -> p.matcher(text).find())) {
                return true;
            }
        }
        return false;
    }

    /**
     * name = a literal prefix ending in '.' + a literal suffix, both in one Java file: PREFIX + "name", or
     * "wecom.handler." + handler + ".hot-window" (any dotted part between them).
     */
    boolean concatenatedInOneJavaFile(String name) {
        for (SourceFile file : files) {
            if (!file.java()) {
                continue;
            }
            for (String prefix : file.literals()) {
                if (!prefix.matches("[a-z][a-z0-9.-]*\\.") || !name.startsWith(prefix) || name.length() <= prefix.length()) {
                    continue;
                }
                String rest = name.substring(prefix.length());
                for (String suffix : file.literals()) {
                    String s = suffix.startsWith(".") ? suffix.substring(1) : suffix;
                    if (s.matches("[a-z][a-z0-9-]*(\\.[a-z0-9-]+)*")
                            && (rest.equals(s) || rest.endsWith("." + s) && rest.length() > s.length() + 1)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    Optional<Path> script(String baseName) {
        for (SourceFile file : files) {
            if (file.path().endsWith("/" + baseName)) {
                return Optional.of(Path.of(file.path()));
            }
        }
        return Optional.empty();
    }

    Optional<SourceFile> file(String path) {
        return files.stream().filter(f -> f.path().equals(path)).findFirst();
    }
}
