package io.wecominbox.event;

import java.util.Objects;

/**
 * The document is (as far as read) well-formed but larger than {@link XmlLimits} allows in one dimension.
 * Reading stopped at the first excess, so a hostile document costs at most the limit's worth of work.
 */
public class XmlLimitExceeded extends MalformedXmlException {

    private static final long serialVersionUID = 1L;

    private final XmlLimits.Limit limit;

    public XmlLimitExceeded(XmlLimits.Limit limit, String message) {
        super(message);
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    public XmlLimits.Limit limit() {
        return limit;
    }
}
