package io.wecominbox.event;

import java.io.IOException;
import java.io.StringReader;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The only XML parser for callback bodies. Anyone on the internet reaches it before the signature
 * check, so everything that can reach outside the document (DOCTYPE, entities, DTDs, XInclude) is off.
 */
public final class SecureXml {

    /** Real callbacks are a few KB; the cap bounds the work an unsigned body can cost us. */
    public static final int MAX_CHARS = 256 * 1024;

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

    /** Parses a whole document and returns its root element. */
    public static Element parse(String xml) throws MalformedXmlException {
        if (xml == null || xml.isBlank()) {
            throw new MalformedXmlException("empty XML");
        }
        if (xml.length() > MAX_CHARS) {
            throw new MalformedXmlException("XML longer than " + MAX_CHARS + " characters");
        }
        try {
            DocumentBuilder builder = BUILDERS.get();
            builder.reset();
            builder.setErrorHandler(FAIL_SILENTLY);
            // Belt and braces: should any setting above be ignored, nothing external is ever opened.
            builder.setEntityResolver((publicId, systemId) -> {
                throw new SAXException("external entity refused");
            });
            return builder.parse(new InputSource(new StringReader(xml))).getDocumentElement();
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
     * with ',' in document order. Otherwise CDATA is kept exactly (that is how WeCom sends values) and
     * unwrapped text is stripped, since whitespace around it is only formatting.
     */
    static String textOf(Element element) {
        StringBuilder items = new StringBuilder();
        StringBuilder chars = new StringBuilder();
        boolean hasItems = false;
        boolean hasCdata = false;
        for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
            switch (n.getNodeType()) {
                case Node.ELEMENT_NODE -> {
                    if (hasItems) {
                        items.append(',');
                    }
                    items.append(textOf((Element) n));
                    hasItems = true;
                }
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
        if (hasItems) {
            return items.toString();
        }
        return hasCdata ? chars.toString() : chars.toString().strip();
    }

    /**
     * One hardened builder per thread, reset before each document: building a factory and a builder per
     * document cost a third of the ingest's CPU (docs/benchmarks.md). Builders are not thread-safe, so never
     * shared; reset() returns one to the factory's hardened settings.
     */
    private static final ThreadLocal<DocumentBuilder> BUILDERS = ThreadLocal.withInitial(() -> {
        try {
            return hardenedFactory().newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("XML parser cannot be hardened", e);
        }
    });

    private static DocumentBuilderFactory hardenedFactory() {
        DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
        try {
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        } catch (ParserConfigurationException e) {
            // Fail closed: never fall back to a parser we could not harden.
            throw new IllegalStateException("XML parser cannot be hardened", e);
        }
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        f.setNamespaceAware(false);
        f.setValidating(false);
        f.setIgnoringComments(true);
        return f;
    }

    private static String shorten(String message) {
        return message.length() <= MAX_MESSAGE_CHARS ? message : message.substring(0, MAX_MESSAGE_CHARS) + "...";
    }
}
