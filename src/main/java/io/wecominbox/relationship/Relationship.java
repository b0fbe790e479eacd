package io.wecominbox.relationship;

/** One relationship: a member of an app and one of their customers. */
public record Relationship(String app, String userId, String externalUserId) {
}
