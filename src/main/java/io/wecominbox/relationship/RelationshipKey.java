package io.wecominbox.relationship;

/**
 * What the relationship's generations make of an event for a handler: keep the ingest's event key, use the
 * relationship-generation key instead, or skip (a pulled record older than a delete we already hold).
 */
public record RelationshipKey(Kind kind, String eventKey) {

    public enum Kind { UNCHANGED, KEYED, STALE }

    static RelationshipKey unchanged() {
        return new RelationshipKey(Kind.UNCHANGED, null);
    }

    static RelationshipKey stale() {
        return new RelationshipKey(Kind.STALE, null);
    }

    static RelationshipKey keyed(String eventKey) {
        return new RelationshipKey(Kind.KEYED, eventKey);
    }
}
