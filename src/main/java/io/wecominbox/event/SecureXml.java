package io.wecominbox.event;

import java.io.IOException;
import java.io.StringReader;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;

/**
 * The only XML parser for callback bodies. Anyone on the internet reaches it before the signature
 * check, so everything that can reach outside the document (DOCTYPE, entities, DTDs, XInclude) is off, and
 * what a document may make us build is bounded ({@link XmlLimits}). Nothing here recurses over the input: a
 * document 100,000 levels deep once overflowed the stack of the recursive text reader and answered 503.
 */
public final class SecureXml {

    /** Real callbacks are a few KB; the cap bounds the work an unsigned body can cost us. */
    public static final int MAX_CHARS = XmlLimits.CALLBACKS.maxChars();

    private static final int MAX_MESSAGE_CHARS = 160;

    private static final ErrorHandler FAIL_SILENTLY = new ErrorHandler() {
        // The default handler prints "[Fatal Error] ..." to stderr; we report through the exception only.
        @Override
        public void warning(SAXParseException e) {
        }

        @Override
        public void error(SAXParseException e) throws SAXParseException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXParseException {
            throw e;
        }
    };

    private SecureXml() {
    }

    /** Parses a whole document within {@link XmlLimits#CALLBACKS} and returns its root element. */
    public static Element parse(String xml) throws MalformedXmlException {
        return parse(xml, XmlLimits.CALLBACKS);
    }

    /**
     * Parses a whole document and returns its root element.
     *
     * @throws XmlLimitExceeded     when the document is larger than {@code limits} in one dimension
     * @throws MalformedXmlException when it is not well-formed or uses DOCTYPE or entities
     */
    public static Element parse(String xml, XmlLimits limits) throws MalformedXmlException {
        if (xml == null || xml.isBlank()) {
            throw new MalformedXmlException("empty XML");
        }
        if (xml.length() > limits.maxChars()) {
            throw new MalformedXmlException("XML longer than " + limits.maxChars() + " characters");
        }
        Parser parser = PARSERS.get();
        BoundedDomBuilder dom = new BoundedDomBuilder(parser.documents.newDocument(), limits);
        try {
            XMLReader reader = parser.reader();
            reader.setContentHandler(dom);
            reader.setProperty(LEXICAL_HANDLER, dom); // reports CDATA sections, which keep their exact value
            reader.parse(new InputSource(new StringReader(xml)));
            return dom.root();
        } catch (BoundedDomBuilder.LimitReached e) {
            throw new XmlLimitExceeded(e.limit, e.getMessage());
        } catch (SAXParseException e) {
            throw new MalformedXmlException(shorten("malformed XML at " + e.getLineNumber() + ":"
                    + e.getColumnNumber() + ": " + e.getMessage()));
        } catch (SAXException | IOException e) {
            throw new MalformedXmlException(shorten("malformed XML: " + e.getMessage()));
        }
    }

    /** Text of the first direct child element called {@code name}; null when there is none. */
    public static String childText(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE && name.equals(n.getNodeName())) {
                return textOf((Element) n);
            }
        }
        return null;
    }

    /**
     * An element's value. A list element (children such as {@code <Item>}) gives its items' values joined
     * with ',' in document order; items that are lists themselves add their own items, so the value is that
     * of every leaf element below, in document order. Otherwise CDATA is kept exactly (that is how WeCom sends
     * values) and unwrapped text is stripped, since whitespace around it is only formatting. Walks the tree
     * with a loop, never recursion: an element handed in need not come from {@link #parse}.
     */
    static String textOf(Element element) {
        if (!hasChildElement(element)) {
            return leafValue(element);
        }
        StringBuilder items = new StringBuilder();
        boolean first = true;
        Node n = element.getFirstChild();
        while (n != null) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                if (hasChildElement(n)) {
                    n = n.getFirstChild(); // a list inside the list: its items come next, in place
                    continue;
                }
                if (!first) {
                    items.append(',');
                }
                items.append(leafValue((Element) n));
                first = false;
            }
            while (n != element && n.getNextSibling() == null) {
                n = n.getParentNode();
            }
            n = n == element ? null : n.getNextSibling();
        }
        return items.toString();
    }

    private static boolean hasChildElement(Node node) {
        for (Node n = node.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                return true;
            }
        }
        return false;
    }

    /** The value of an element without child elements: its CDATA exactly, or its text stripped. */
    private static String leafValue(Element element) {
        StringBuilder chars = new StringBuilder();
        boolean hasCdata = false;
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            switch (n.getNodeType()) {
                case Node.CDATA_SECTION_NODE -> {
                    chars.append(n.getNodeValue());
                    hasCdata = true;
                }
                case Node.TEXT_NODE -> {
                    if (!n.getNodeValue().isBlank()) {
                        chars.append(n.getNodeValue());
                    }
                }
                default -> {
                    // comments and processing instructions carry no value
                }
            }
        }
        return hasCdata ? chars.toString() : chars.toString().strip();
    }

    private static final String LEXICAL_HANDLER = "http://xml.org/sax/properties/lexical-handler";

    /**
     * One hardened SAX parser per thread, reset before each document: building a factory and a parser per
     * document cost a third of the ingest's CPU (docs/benchmarks.md). Parsers are not thread-safe, so never
     * shared; reset() returns one to the factory's hardened settings. The document builder only makes empty
     * documents for {@link BoundedDomBuilder} to fill; it never parses.
     */
    private static final ThreadLocal<Parser> PARSERS = ThreadLocal.withInitial(() -> {
        try {
            return new Parser(hardenedSaxFactory().newSAXParser(),
                    DocumentBuilderFactory.newDefaultInstance().newDocumentBuilder());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("XML parser cannot be hardened", e);
        }
    });

    private record Parser(SAXParser sax, DocumentBuilder documents) {

        XMLReader reader() throws SAXException {
            sax.reset();
            sax.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            sax.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            XMLReader reader = sax.getXMLReader();
            reader.setErrorHandler(FAIL_SILENTLY);
            // Belt and braces: should any setting above be ignored, nothing external is ever opened.
            reader.setEntityResolver((publicId, systemId) -> {
                throw new SAXException("external entity refused");
            });
            return reader;
        }
    }

    private static SAXParserFactory hardenedSaxFactory() {
        SAXParserFactory f = SAXParserFactory.newDefaultInstance();
        try {
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        } catch (ParserConfigurationException | SAXException e) {
            // Fail closed: never fall back to a parser we could not harden.
            throw new IllegalStateException("XML parser cannot be hardened", e);
        }
        f.setXIncludeAware(false);
        f.setNamespaceAware(false);
        f.setValidating(false);
        return f;
    }

    private static String shorten(String message) {
        return message.length() <= MAX_MESSAGE_CHARS ? message : message.substring(0, MAX_MESSAGE_CHARS) + "...";
    }
}
