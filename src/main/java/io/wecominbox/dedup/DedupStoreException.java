package io.wecominbox.dedup;

/** A dedup store failed inside the transaction: the delivery rolls back and JMS redelivers it. */
public class DedupStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DedupStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
