package io.wecominbox.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Markdown page, read just far enough for {@link DocsMatchCodeTest}: inline code spans, fenced blocks,
 * tables, headings and links, each with its line number. Not a Markdown parser: the pages are written in a
 * plain style (fences of three backticks, tables of pipe rows, no HTML).
 */
final class MarkdownPage {

    record Span(int line, String text, int start, int end) {
    }

    record Fence(int line, String info, List<String> lines) {
    }

    record Row(int line, List<String> cells) {
    }

    record Table(int line, List<String> header, List<Row> rows) {
    }

    record Heading(int line, int level, String title) {
    }

    record Link(int line, String target) {
    }

    private static final Pattern SPAN = Pattern.compile("`([^`\\n]+(?:\\n[^`\\n]+)?)`");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]\\n]*\\]\\(([^)\\s]+)\\)");

    final Path path;
    final String name;
    final List<String> lines;
    /** The text with every fenced block's lines blanked, so that offsets still give line numbers. */
    final String prose;
    final List<Fence> fences = new ArrayList<>();

    private MarkdownPage(Path path, String text) {
        this.path = path;
        this.name = path.toString().replace('\\', '/');
        this.lines = List.of(text.split("\n", -1));
        StringBuilder masked = new StringBuilder();
        Fence open = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("```")) {
                if (open == null) {
                    open = new Fence(i + 2, line.substring(3).trim().toLowerCase(Locale.ROOT), new ArrayList<>());
                } else {
                    fences.add(open);
                    open = null;
                }
                masked.append('\n');
                continue;
            }
            if (open != null) {
                open.lines().add(line);
                masked.append('\n');
            } else {
                masked.append(line).append('\n');
            }
        }
        this.prose = masked.toString();
    }

    static MarkdownPage read(Path path) {
        try {
            return new MarkdownPage(path, Files.readString(path, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path, e);
        }
    }

    int lineAt(int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < prose.length(); i++) {
            if (prose.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /** Inline code spans outside fenced blocks; a span may run over one line break. */
    List<Span> spans() {
        List<Span> spans = new ArrayList<>();
        Matcher m = SPAN.matcher(prose);
        while (m.find()) {
            spans.add(new Span(lineAt(m.start()), m.group(1).replace('\n', ' '), m.start(), m.end()));
        }
        return spans;
    }

    List<Link> links() {
        List<Link> links = new ArrayList<>();
        Matcher m = LINK.matcher(prose);
        while (m.find()) {
            links.add(new Link(lineAt(m.start()), m.group(1)));
        }
        return links;
    }

    List<Heading> headings() {
        List<Heading> headings = new ArrayList<>();
        String[] text = prose.split("\n", -1);
        for (int i = 0; i < text.length; i++) {
            Matcher m = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*$").matcher(text[i]);
            if (m.matches()) {
                headings.add(new Heading(i + 1, m.group(1).length(), m.group(2)));
            }
        }
        return headings;
    }

    /** Pipe tables: a header row, a |---| row, then rows; cells split on pipes outside code spans. */
    List<Table> tables() {
        List<Table> tables = new ArrayList<>();
        String[] text = prose.split("\n", -1);
        for (int i = 0; i + 1 < text.length; i++) {
            if (text[i].startsWith("|") && text[i + 1].matches("\\|\\s*:?-{3,}.*")) {
                List<Row> rows = new ArrayList<>();
                int j = i + 2;
                for (; j < text.length && text[j].startsWith("|"); j++) {
                    rows.add(new Row(j + 1, cells(text[j])));
                }
                tables.add(new Table(i + 1, cells(text[i]), rows));
                i = j - 1;
            }
        }
        return tables;
    }

    static List<String> cells(String row) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean code = false;
        String body = row.strip();
        body = body.substring(1, body.endsWith("|") && body.length() > 1 ? body.length() - 1 : body.length());
        for (char c : body.toCharArray()) {
            if (c == '`') {
                code = !code;
            }
            if (c == '|' && !code) {
                cells.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString().strip());
        return cells;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
    static String anchor(String title) {
        return title.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
