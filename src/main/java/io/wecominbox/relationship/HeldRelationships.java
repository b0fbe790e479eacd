package io.wecominbox.relationship;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The relationships held as current, as a reconcile pass sees them: it marks those a page lists and asks for
 * those it did not. The contact handler's store implements it, so reconcile never reaches into that handler.
 */
public interface HeldRelationships {

    /**
     * A reconcile page listed the relationship; returns false when we do not hold it as current (then it is
     * a record to publish). Runs in the page's transaction.
     */
    boolean seen(Relationship relationship, long runId, Instant at);

    /** Current relationships of these members, known before {@code knownBefore}, that run {@code runId} did not list. */
    List<Relationship> unlisted(Connection c, String app, List<String> members, Instant knownBefore, long runId)
        throws SQLException;
}
