package io.wecominbox.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class SecureXmlLimitsTest {

    private static final XmlLimits LIMITS = XmlLimits.CALLBACKS;

    /** The default limits, but a document as long as the test needs: the size cap would refuse it first. */
    private static XmlLimits unlimitedLength() {
        return new XmlLimits(Integer.MAX_VALUE, LIMITS.maxDepth(), LIMITS.maxElements(), LIMITS.maxAttributes(),
                LIMITS.maxTextChars());
    }

    private static XmlLimits.Limit refusal(String xml, XmlLimits limits) {
        return assertThrows(XmlLimitExceeded.class, () -> SecureXml.parse(xml, limits)).limit();
    }

    @Test
    void aDocumentNestedOneHundredThousandLevelsIsRefusedAsTooDeepWithoutOverflowingTheStack() {
        String xml = "<a>".repeat(100_000) + "x" + "</a>".repeat(100_000);
        assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertEquals(XmlLimits.Limit.DEPTH, refusal(xml, unlimitedLength())));
    }

    @Test
    void theDeepestDocumentThatFitsTheSizeCapIsRefusedAsTooDeep() {
        String xml = "<a>".repeat(SecureXml.MAX_CHARS / 3 - 1);
        assertEquals(XmlLimits.Limit.DEPTH, refusal(xml, LIMITS));
    }

    @Test
    void nestingUpToTheLimitIsAccepted() throws Exception {
        int depth = LIMITS.maxDepth();
        Element root = SecureXml.parse("<a>".repeat(depth) + "deep" + "</a>".repeat(depth));
        assertEquals("deep", SecureXml.textOf(root));
        assertEquals(XmlLimits.Limit.DEPTH,
                refusal("<a>".repeat(depth + 1) + "</a>".repeat(depth + 1), LIMITS));
    }

    @Test
    void manyElementsAreRefusedOnceTheCountPassesTheLimit() throws Exception {
        String justFits = "<xml>" + "<i/>".repeat(LIMITS.maxElements() - 1) + "</xml>";
        SecureXml.parse(justFits);
        String oneTooMany = "<xml>" + "<i/>".repeat(LIMITS.maxElements()) + "</xml>";
        assertEquals(XmlLimits.Limit.ELEMENTS, refusal(oneTooMany, LIMITS));
    }

    @Test
    void manyAttributesOnOneElementAreRefused() throws Exception {
        StringBuilder fits = new StringBuilder("<xml");
        for (int i = 0; i < LIMITS.maxAttributes(); i++) {
            fits.append(" a").append(i).append("=\"v\"");
        }
        assertEquals("v", SecureXml.parse(fits + "/>").getAttribute("a0"));
        assertEquals(XmlLimits.Limit.ATTRIBUTES, refusal(fits + " one=\"more\"/>", LIMITS));
    }

    @Test
    void aHugeTextOrCdataNodeIsRefused() {
        String huge = "a".repeat(LIMITS.maxTextChars() + 1);
        assertEquals(XmlLimits.Limit.TEXT, refusal("<xml><C>" + huge + "</C></xml>", LIMITS));
        assertEquals(XmlLimits.Limit.TEXT, refusal("<xml><C><![CDATA[" + huge + "]]></C></xml>", LIMITS));
    }

    @Test
    void textSplitByEntityReferencesCountsAsTheOneNodeItBecomes() {
        XmlLimits tenChars = new XmlLimits(1000, 8, 100, 4, 10);
        assertEquals(XmlLimits.Limit.TEXT, refusal("<x>aaaaaa&amp;aaaa</x>", tenChars));
    }

    @Test
    void aTextNodeAtTheLimitIsKept() throws Exception {
        String text = "a".repeat(LIMITS.maxTextChars());
        assertEquals(text, SecureXml.childText(SecureXml.parse("<xml><C>" + text + "</C></xml>"), "C"));
    }

    @Test
    void limitMessagesAreShortAndNeverEchoTheInput() {
        XmlLimitExceeded e = assertThrows(XmlLimitExceeded.class,
                () -> SecureXml.parse("<secretName>".repeat(100)));
        assertTrue(e.getMessage().length() < 80, e.getMessage());
        assertTrue(!e.getMessage().contains("secretName"), e.getMessage());
    }

    @Test
    void textOfWalksATreeOneHundredThousandLevelsDeepWithoutRecursion() throws Exception {
        // A tree handed in from elsewhere (WeComEvent.from takes any Element) is not bounded by the parser.
        Document doc = DocumentBuilderFactory.newDefaultInstance().newDocumentBuilder().newDocument();
        Element root = doc.createElement("xml");
        doc.appendChild(root);
        Element list = doc.createElement("List");
        root.appendChild(list);
        Element e = list;
        for (int i = 0; i < 100_000; i++) {
            Element child = doc.createElement("Item");
            e.appendChild(child);
            e = child;
        }
        e.appendChild(doc.createTextNode("bottom"));
        Element sibling = doc.createElement("Item");
        sibling.appendChild(doc.createCDATASection(" second "));
        list.appendChild(sibling);
        assertEquals("bottom, second ", SecureXml.textOf(list));
        assertEquals("bottom, second ", WeComEvent.from(root).field("List"));
    }

    @Test
    void nestedListsGiveEveryLeafInDocumentOrder() throws Exception {
        Element root = SecureXml.parse("<xml><L><Item>a</Item><Group><Item>b</Item><Item><![CDATA[c]]></Item>"
                + "</Group><Item/></L></xml>");
        assertEquals("a,b,c,", SecureXml.childText(root, "L"));
    }

    @Test
    void mixedTextAndCdataKeepTheirMeaning() throws Exception {
        Element root = SecureXml.parse("<xml><A> <![CDATA[x]]> </A><B>a<![CDATA[ y ]]>b</B><C><![CDATA[]]></C>"
                + "<D><!-- note -->  v  <?pi data?></D></xml>");
        assertEquals("x", SecureXml.childText(root, "A"));
        assertEquals("a y b", SecureXml.childText(root, "B"));
        assertEquals("", SecureXml.childText(root, "C"));
        assertEquals("v", SecureXml.childText(root, "D"));
    }
}
