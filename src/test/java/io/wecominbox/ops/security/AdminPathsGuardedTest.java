package io.wecominbox.ops.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Every admin resource sits behind both locks: web.xml maps AdminLoginFilter over it (and no security-constraint,
 * whose login would run before the filter and blind the lockout), and AdminRoleGate refuses it inside JAX-RS
 * without the role.
 */
class AdminPathsGuardedTest {

    private static final Path WEB_XML = Path.of("src/main/webapp/WEB-INF/web.xml");
    private static final Pattern CLASS_PATH = Pattern.compile("@Path\\(\"/?([^\"/]+)[^\"]*\"\\)\\s*(?:@[\\w.]+(?:\\([^)]*\\))?\\s*)*public class");

    @Test
    void webXmlMapsTheLoginFilterOverEveryAdminResourceAndHasNoConstraintBeforeIt() throws Exception {
        Document web = read(WEB_XML);
        assertEquals("io.wecominbox.ops.security.AdminLoginFilter", text(web, "filter-class"));
        Set<String> mapped = new TreeSet<>();
        NodeList patterns = web.getElementsByTagNameNS("*", "url-pattern");
        for (int i = 0; i < patterns.getLength(); i++) {
            Element p = (Element) patterns.item(i);
            if (((Element) p.getParentNode()).getLocalName().equals("filter-mapping")) {
                mapped.add(p.getTextContent().strip());
            }
        }
        assertEquals(Set.of("/api/*", "/dashboard/*"), mapped);
        assertEquals(0, web.getElementsByTagNameNS("*", "security-constraint").getLength(),
                "a security-constraint's login runs before every filter: the lockout would never see a wrong password");
        assertEquals("BASIC", text(web, "auth-method"), "HttpServletRequest.authenticate uses the login-config");
        assertEquals(AdminLoginFilter.ADMIN_ROLE, text(web, "role-name"));

        Set<String> roots = adminRootsOfResources();
        assertTrue(roots.containsAll(Set.of("api", "dashboard")), "resources found: " + roots);
        for (String root : roots) {
            assertTrue(mapped.contains("/" + root + "/*"), "resources under /" + root + " are behind the filter");
            assertTrue(AdminRoleGate.isAdminPath(Optional.of(List.of(root, "x"))), "and behind the role gate: " + root);
        }
    }

    @Test
    void theRoleGateKnowsAdminPathsHoweverSpelt() {
        assertTrue(gated("/api/ops/replays"));
        assertTrue(gated("/dashboard"));
        assertTrue(gated("/dashboard/index.html"));
        assertTrue(gated("//api/ops/health"));
        assertTrue(gated("/%61pi/ops/health"));
        assertTrue(gated("/wecom/../api/ops/health"));
        assertFalse(gated("/wecom/callback/customer"));
        assertFalse(gated("/health/ready"));
        assertFalse(gated("/"));
    }

    @Test
    void theRoleGateRefusesAnAdminPathWithoutTheRoleAndNothingElse() {
        assertTrue(AdminRoleGate.refuses("/", "/api/ops/handlers", false));
        assertFalse(AdminRoleGate.refuses("/", "/api/ops/handlers", true), "the administrator passes");
        assertFalse(AdminRoleGate.refuses("/", "/wecom/callback/customer", false), "callbacks are public");
    }

    private static boolean gated(String rawPath) {
        return AdminRoleGate.isAdminPath(RequestPath.below("/", rawPath));
    }

    /** The first path segment of every JAX-RS resource class under /api or /dashboard in src/main/java. */
    private static Set<String> adminRootsOfResources() throws IOException {
        Set<String> roots = new TreeSet<>();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
        }
        for (Path f : sources) {
            Matcher m = CLASS_PATH.matcher(Files.readString(f));
            while (m.find()) {
                if (!m.group(1).equals("wecom")) {
                    roots.add(m.group(1));
                }
            }
        }
        return roots;
    }

    private static Document read(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    private static String text(Document document, String localName) {
        NodeList found = document.getElementsByTagNameNS("*", localName);
        assertEquals(1, found.getLength(), "one <" + localName + ">");
        return found.item(0).getTextContent().strip();
    }
}
