package io.wecominbox.simulator.directory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * WeCom's own record of who follows whom, kept consistent with the callbacks the platform side generates: an
 * add callback adds the relationship (whether or not the callback is ever delivered: WeCom knows it either
 * way), a delete callback removes it. The API side answers get_follow_user_list and batch/get_by_user from
 * it. Like WeCom, {@code createtime} is the FIRST time the member added the customer, kept across a delete and
 * re-add. Thread-safe.
 */
public final class CustomerDirectory {

    /** One current relationship as batch/get_by_user lists it. */
    public record Follow(String userId, String externalUserId, Instant createTime, String state) {
    }

    private final Map<String, Map<String, Follow>> current = new TreeMap<>(); // app → "userid\nexternal" → follow
    private final Map<String, Instant> firstAdded = new TreeMap<>(); // app\nuserid\nexternal → first add
    private final Map<String, Set<String>> members = new TreeMap<>(); // app → members with the feature

    public synchronized void added(String app, String userId, String externalUserId, String state, Instant at) {
        Instant first = firstAdded.computeIfAbsent(app + '\n' + userId + '\n' + externalUserId, k -> at);
        current.computeIfAbsent(app, a -> new TreeMap<>()).put(userId + '\n' + externalUserId,
            new Follow(userId, externalUserId, first, state == null ? "" : state));
        members.computeIfAbsent(app, a -> new TreeSet<>()).add(userId);
    }

    public synchronized void removed(String app, String userId, String externalUserId) {
        Map<String, Follow> follows = current.get(app);
        if (follows != null) {
            follows.remove(userId + '\n' + externalUserId);
        }
    }

    /** Members who have (or had) customers: get_follow_user_list. */
    public synchronized List<String> followUsers(String app) {
        return List.copyOf(members.getOrDefault(app, Set.of()));
    }

    /** The current relationships of these members, in a stable order (member, then customer). */
    public synchronized List<Follow> followsOf(String app, Set<String> userIds) {
        List<Follow> out = new ArrayList<>();
        for (Follow f : current.getOrDefault(app, Map.of()).values()) {
            if (userIds.contains(f.userId())) {
                out.add(f);
            }
        }
        return out;
    }

    public synchronized boolean follows(String app, String userId, String externalUserId) {
        return current.getOrDefault(app, Map.of()).containsKey(userId + '\n' + externalUserId);
    }

    public synchronized int size(String app) {
        return current.getOrDefault(app, Map.of()).size();
    }
}
