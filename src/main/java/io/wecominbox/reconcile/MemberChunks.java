package io.wecominbox.reconcile;

import java.util.List;

/**
 * The member list cut into the chunks batch/get_by_user takes (at most 100 userids a call). A pass pages one
 * chunk after the other; its progress is the chunk index and the cursor within it, so a resumed pass with
 * the same stored member list pages the same chunks.
 */
record MemberChunks(List<String> members, int size) {

    MemberChunks {
        if (size < 1 || size > 100) {
            throw new IllegalArgumentException("members per call must be 1..100, was " + size);
        }
        members = List.copyOf(members);
    }

    int count() {
        return (members.size() + size - 1) / size;
    }

    List<String> chunk(int index) {
        if (index < 0 || index >= count()) {
            throw new IndexOutOfBoundsException("chunk " + index + " of " + count());
        }
        return members.subList(index * size, Math.min(members.size(), (index + 1) * size));
    }
}
