package io.wecominbox.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Element;

class SecureXmlTest {

    /** Counts every connection; a hardened parser must never open one. */
    private ServerSocket listener;
    private final AtomicInteger connections = new AtomicInteger();

    @BeforeEach
    void startListener() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept()) {
                    connections.incrementAndGet();
                } catch (IOException closed) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void stopListener() throws IOException {
        listener.close();
    }

    private String localUrl(String path) {
        return "http://127.0.0.1:" + listener.getLocalPort() + "/" + path;
    }

    private void assertNoConnectionWasMade() throws InterruptedException {
        Thread.sleep(100); // a connection made during parse would be counted by now
        assertEquals(0, connections.get(), "parser opened a network connection");
    }

    @Test
    void xxeReadingEtcPasswdIsRefusedAndLeaksNothing() {
        String xml = "<?xml version=\"1.0\"?><!DOCTYPE xml [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>"
                + "<xml><Content>&xxe;</Content></xml>";
        MalformedXmlException e = assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml));
        assertFalse(e.getMessage().contains("root:"), e.getMessage());
    }

    @Test
    void xxeReadingALocalFileNeverSeesItsContent(@TempDir Path dir) throws IOException {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "TOP-SECRET-MARKER");
        String xml = "<!DOCTYPE xml [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>"
                + "<xml><Content>&xxe;</Content></xml>";
        MalformedXmlException e = assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml));
        assertFalse(e.getMessage().contains("TOP-SECRET-MARKER"));
    }

    @Test
    void externalGeneralEntityOverHttpIsNeverFetched() throws InterruptedException {
        String xml = "<!DOCTYPE xml [<!ENTITY xxe SYSTEM \"" + localUrl("e") + "\">]><xml>&xxe;</xml>";
        assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml));
        assertNoConnectionWasMade();
    }

    @Test
    void externalParameterEntityIsNeverFetched() throws InterruptedException {
        String xml = "<!DOCTYPE xml [<!ENTITY % p SYSTEM \"" + localUrl("p.dtd") + "\"> %p;]><xml/>";
        assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml));
        assertNoConnectionWasMade();
    }

    @Test
    void externalDtdIsNeverLoaded() throws InterruptedException {
        String xml = "<!DOCTYPE xml SYSTEM \"" + localUrl("x.dtd") + "\"><xml/>";
        assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml));
        assertNoConnectionWasMade();
    }

    @Test
    void billionLaughsIsRefusedQuickly() {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE lolz [<!ENTITY lol0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"");
            dtd.append(("&lol" + (i - 1) + ";").repeat(10)).append("\">");
        }
        String xml = dtd + "]><xml><Content>&lol9;</Content></xml>";
        assertTimeoutPreemptively(Duration.ofSeconds(2),
                () -> assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml)));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<!DOCTYPE xml><xml/>",
        "<!DOCTYPE xml []><xml/>",
        "<!DOCTYPE xml SYSTEM \"local.dtd\"><xml/>",
        "<!DOCTYPE xml PUBLIC \"-//WeCom//DTD Test//EN\" \"local.dtd\"><xml/>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE xml [<!ELEMENT xml ANY>]>\n<xml/>",
    })
    void anyDoctypeIsRefused(String xml) {
        assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml));
    }

    @Test
    void xincludeIsNotProcessed() throws Exception {
        String xml = "<xml xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
                + "<xi:include href=\"" + localUrl("inc") + "\" parse=\"text\"/></xml>";
        Element root = SecureXml.parse(xml);
        assertEquals("", root.getTextContent());
        assertNoConnectionWasMade();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "success", "{\"errcode\":0}", "<xml><a></xml>", "<xml>", "<a/><b/>",
        "<xml>&undefined;</xml>"})
    void notXmlIsMalformed(String input) {
        assertThrows(MalformedXmlException.class, () -> SecureXml.parse(input));
    }

    @Test
    void nullIsMalformed() {
        assertThrows(MalformedXmlException.class, () -> SecureXml.parse(null));
    }

    @Test
    void oversizeInputIsRefusedBeforeParsing() {
        String xml = "<xml><Content>" + "a".repeat(SecureXml.MAX_CHARS) + "</Content></xml>";
        MalformedXmlException e = assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml));
        assertTrue(e.getMessage().length() < 100);
    }

    @Test
    void errorMessageIsShortAndDoesNotEchoTheInput() {
        String longName = "N".repeat(5000);
        String xml = "<xml><" + longName + "></xml>";
        MalformedXmlException e = assertThrows(MalformedXmlException.class, () -> SecureXml.parse(xml));
        assertTrue(e.getMessage().length() <= 200, "message length " + e.getMessage().length());
        assertFalse(e.getMessage().contains(xml));
    }

    @Test
    void cdataIsReadExactlyIncludingMarkupCharactersAndEdgeWhitespace() throws Exception {
        Element root = SecureXml.parse("<xml><Content><![CDATA[ a<b>&c ]]></Content></xml>");
        assertEquals(" a<b>&c ", SecureXml.childText(root, "Content"));
    }

    @Test
    void cdataSplitAcrossSectionsIsJoined() throws Exception {
        Element root = SecureXml.parse("<xml><Content><![CDATA[a]]]]><![CDATA[>b]]></Content></xml>");
        assertEquals("a]]>b", SecureXml.childText(root, "Content"));
    }

    @Test
    void plainTextIsStrippedOfFormattingWhitespace() throws Exception {
        Element root = SecureXml.parse("<xml>\n  <CreateTime>\n    1409659813\n  </CreateTime>\n</xml>");
        assertEquals("1409659813", SecureXml.childText(root, "CreateTime"));
    }

    @Test
    void predefinedEntitiesAndCharacterReferencesStillWork() throws Exception {
        Element root = SecureXml.parse("<xml><Name>a &amp; b &lt;c&gt; &#x5F20;</Name></xml>");
        assertEquals("a & b <c> 张", SecureXml.childText(root, "Name"));
    }

    @Test
    void utf8ChineseAndEmojiSurvive() throws Exception {
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><xml><Name>张三</Name>"
                + "<Content><![CDATA[你好，欢迎加入企业微信 😀]]></Content></xml>";
        Element root = SecureXml.parse(xml);
        assertEquals("张三", SecureXml.childText(root, "Name"));
        assertEquals("你好，欢迎加入企业微信 😀", SecureXml.childText(root, "Content"));
    }

    @Test
    void childTextIsNullWhenAbsentAndEmptyWhenEmpty() throws Exception {
        Element root = SecureXml.parse("<xml><WelcomeCode><![CDATA[]]></WelcomeCode><State/></xml>");
        assertNull(SecureXml.childText(root, "UserID"));
        assertEquals("", SecureXml.childText(root, "WelcomeCode"));
        assertEquals("", SecureXml.childText(root, "State"));
    }

    @Test
    void childTextReadsOnlyDirectChildrenAndTheFirstOfDuplicates() throws Exception {
        Element root = SecureXml.parse("<xml><Outer><UserID>nested</UserID></Outer>"
                + "<UserID>first</UserID><UserID>second</UserID></xml>");
        assertEquals("first", SecureXml.childText(root, "UserID"));
    }

    @Test
    void childTextJoinsListItemsInDocumentOrder() throws Exception {
        Element root = SecureXml.parse("<xml><MemChangeList>\n  <Item><![CDATA[wmB]]></Item>\n"
                + "  <Item><![CDATA[wmA]]></Item>\n</MemChangeList></xml>");
        assertEquals("wmB,wmA", SecureXml.childText(root, "MemChangeList"));
    }
}
