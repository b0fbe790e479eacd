package io.wecominbox.event;

/**
 * How much XML one document may make us build. Anyone on the internet reaches the parser before the signature
 * is checked, so every dimension an input could blow up is bounded; each limit sits far above any real WeCom
 * callback (depth 3: {@code xml > MemChangeList > Item}; a few dozen elements, a 2,000-member chat list at most;
 * no attributes; the largest text node is the envelope's Encrypt, under the 64 KiB body cap).
 *
 * @param maxChars      the whole document, in characters, checked before parsing
 * @param maxDepth      nesting of elements, the root being depth 1
 * @param maxElements   elements in the whole document
 * @param maxAttributes attributes on one element
 * @param maxTextChars  one text or CDATA node
 */
public record XmlLimits(int maxChars, int maxDepth, int maxElements, int maxAttributes, int maxTextChars) {

    public static final XmlLimits CALLBACKS = new XmlLimits(256 * 1024, 32, 10_000, 16, 128 * 1024);

    public XmlLimits {
        if (maxChars < 1 || maxDepth < 1 || maxElements < 1 || maxAttributes < 0 || maxTextChars < 1) {
            throw new IllegalArgumentException("XML limits must be positive");
        }
    }

    /** Which limit a document broke. */
    public enum Limit {
        DEPTH, ELEMENTS, ATTRIBUTES, TEXT
    }
}
