package io.wecominbox.event;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.Attributes;
import org.xml.sax.SAXException;
import org.xml.sax.ext.DefaultHandler2;

/**
 * Builds the DOM of one document from SAX events, counting as it goes: nesting depth, elements, attributes per
 * element and characters per text node are checked before anything is added, and the first excess stops the
 * parse. Iterative by construction: SAX calls back per tag, so no Java stack frame is spent per nesting level.
 * Adjacent character chunks become one Text node and each CDATA section one CDATASection, as the JDK's DOM
 * builder makes them; comments and processing instructions are dropped (they carry no value).
 */
final class BoundedDomBuilder extends DefaultHandler2 {

    private final XmlLimits limits;
    private final Document document;
    private final StringBuilder text = new StringBuilder();
    private Node current;
    private int depth;
    private int elements;
    private boolean inCdata;

    BoundedDomBuilder(Document document, XmlLimits limits) {
        this.document = document;
        this.limits = limits;
        this.current = document;
    }

    Element root() {
        return document.getDocumentElement();
    }

    @Override
    public void startElement(String uri, String localName, String qName, Attributes attributes) throws SAXException {
        flushText();
        if (++depth > limits.maxDepth()) {
            throw new LimitReached(XmlLimits.Limit.DEPTH, "XML nested deeper than " + limits.maxDepth() + " levels");
        }
        if (++elements > limits.maxElements()) {
            throw new LimitReached(XmlLimits.Limit.ELEMENTS, "XML has more than " + limits.maxElements() + " elements");
        }
        if (attributes.getLength() > limits.maxAttributes()) {
            throw new LimitReached(XmlLimits.Limit.ATTRIBUTES,
                    "an XML element has more than " + limits.maxAttributes() + " attributes");
        }
        Element element = document.createElement(qName);
        for (int i = 0; i < attributes.getLength(); i++) {
            element.setAttribute(attributes.getQName(i), attributes.getValue(i));
        }
        current.appendChild(element);
        current = element;
    }

    @Override
    public void endElement(String uri, String localName, String qName) {
        flushText();
        current = current.getParentNode();
        depth--;
    }

    @Override
    public void characters(char[] ch, int start, int length) throws SAXException {
        if (current == document) {
            return; // outside the root element only whitespace is allowed, and it is formatting
        }
        if (text.length() + (long) length > limits.maxTextChars()) {
            throw new LimitReached(XmlLimits.Limit.TEXT,
                    "an XML text node is longer than " + limits.maxTextChars() + " characters");
        }
        text.append(ch, start, length);
    }

    @Override
    public void ignorableWhitespace(char[] ch, int start, int length) throws SAXException {
        characters(ch, start, length);
    }

    @Override
    public void startCDATA() {
        flushText();
        inCdata = true;
    }

    @Override
    public void endCDATA() {
        flushText();
        inCdata = false;
    }

    /** Ends the pending text run; a CDATA section is kept even when empty (its value is "", not absent). */
    private void flushText() {
        if (inCdata) {
            current.appendChild(document.createCDATASection(text.toString()));
        } else if (text.length() > 0) {
            current.appendChild(document.createTextNode(text.toString()));
        }
        text.setLength(0);
    }

    /** Thrown from a callback to stop the parse; the parser hands it back to its caller unchanged. */
    static final class LimitReached extends SAXException {

        private static final long serialVersionUID = 1L;

        final transient XmlLimits.Limit limit;

        LimitReached(XmlLimits.Limit limit, String message) {
            super(message);
            this.limit = limit;
        }
    }
}
