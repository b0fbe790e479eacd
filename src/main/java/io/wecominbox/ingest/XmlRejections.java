package io.wecominbox.ingest;

import io.wecominbox.event.MalformedXmlException;
import io.wecominbox.event.XmlLimitExceeded;

/**
 * The rejection for XML we would not read: a broken limit has its own reason (an attack shows up as what it
 * tried), anything else the caller's "not well-formed" reason. Same for the envelope and the signed plaintext.
 */
final class XmlRejections {

    private XmlRejections() {
    }

    static CallbackRejected of(MalformedXmlException e, Rejection notWellFormed) {
        return new CallbackRejected(e instanceof XmlLimitExceeded limit ? forLimit(limit) : notWellFormed,
                e.getMessage());
    }

    private static Rejection forLimit(XmlLimitExceeded e) {
        return switch (e.limit()) {
            case DEPTH -> Rejection.XML_TOO_DEEP;
            case ELEMENTS -> Rejection.XML_TOO_MANY_ELEMENTS;
            case ATTRIBUTES -> Rejection.XML_TOO_MANY_ATTRIBUTES;
            case TEXT -> Rejection.XML_TEXT_TOO_LONG;
        };
    }
}
