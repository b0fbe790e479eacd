package io.wecominbox.ops.replay;

import io.wecominbox.dedup.DedupPolicy;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a replay will publish: for each selected event (its first delivery), one message to each chosen handler
 * that takes its type, in callback_log order; and which pairs are too old to replay. Pure logic.
 */
public record ReplayPlan(int eventsSelected, List<Item> items, List<TooOld> tooOld) {

    /** One event as selected: its first delivery. */
    public record Event(long callbackLogId, String eventKey, String eventType, OffsetDateTime firstReceivedAt) {
    }

    /** A handler as the plan needs it: what it takes, and how old an event it may be given again. */
    public record Target(String handler, Set<String> eventTypes, Optional<Duration> maxAge) {

        /** The agreed maximum replay age: as long as the handler's dedup still remembers an event. */
        public static Target of(String handler, Set<String> eventTypes, DedupPolicy policy) {
            return new Target(handler, Set.copyOf(eventTypes), policy.remembersFor());
        }
    }

    /** One message to publish. */
    public record Item(long callbackLogId, String handler) {
    }

    /** An event a handler would get although its dedup window no longer covers it. */
    public record TooOld(long callbackLogId, String eventKey, String handler, long ageSeconds, String maxAge) {
    }

    public static ReplayPlan of(List<Event> events, List<Target> targets, OffsetDateTime now) {
        List<Event> ordered = events.stream().sorted(Comparator.comparingLong(Event::callbackLogId)).toList();
        List<Item> items = new ArrayList<>();
        List<TooOld> tooOld = new ArrayList<>();
        for (Event event : ordered) {
            for (Target target : targets) {
                if (!target.eventTypes().contains(event.eventType())) {
                    continue;
                }
                Duration age = Duration.between(event.firstReceivedAt(), now);
                if (target.maxAge().isPresent() && age.compareTo(target.maxAge().get()) > 0) {
                    tooOld.add(new TooOld(event.callbackLogId(), event.eventKey(), target.handler(), age.toSeconds(),
                        target.maxAge().get().toString()));
                }
                items.add(new Item(event.callbackLogId(), target.handler()));
            }
        }
        return new ReplayPlan(ordered.size(), List.copyOf(items), List.copyOf(tooOld));
    }

    /** Messages per handler, in handler order of the targets. */
    public Map<String, Integer> perHandler() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        items.forEach(i -> counts.merge(i.handler(), 1, Integer::sum));
        return counts;
    }
}
