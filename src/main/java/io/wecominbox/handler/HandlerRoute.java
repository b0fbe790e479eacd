package io.wecominbox.handler;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How a handler's events reach it on the broker, derived from its {@link EventHandler#name()} and
 * {@link EventHandler#eventTypes()}: the handler's own queue {@code wecom.handler.<name>} and a divert from the
 * events address filtered on those types. The one place that turns the Java declaration into broker routing:
 * the shipped broker file's diverts are generated from it (BrokerFragmentTest) and readiness checks the live
 * broker against it.
 */
public record HandlerRoute(String handler, Set<String> eventTypes) {

    /** The address every accepted delivery is published to (server.xml's jmsTopic jms/topic/events). */
    public static final String EVENTS_ADDRESS = "wecom.events";
    public static final String QUEUE_PREFIX = "wecom.handler.";

    private static final Pattern ONE = Pattern.compile("\\s*eventType\\s*=\\s*'([^']*)'\\s*");
    private static final Pattern MANY = Pattern.compile("\\s*eventType\\s+IN\\s*\\((.*)\\)\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern QUOTED = Pattern.compile("'([^']*)'");

    public HandlerRoute {
        eventTypes = Set.copyOf(new TreeSet<>(eventTypes));
    }

    public static HandlerRoute of(EventHandler handler) {
        return new HandlerRoute(handler.name(), handler.eventTypes());
    }

    /** The handler's queue (and its anycast address of the same name); its dead letters go to DLQ.&lt;queue&gt;. */
    public String queue() {
        return QUEUE_PREFIX + handler;
    }

    /** The divert's name on the broker. */
    public String divert() {
        return EVENTS_ADDRESS + ".to." + handler;
    }

    /** The divert's filter: the eventType message property against the handler's types, in sorted order. */
    public String filter() {
        TreeSet<String> sorted = new TreeSet<>(eventTypes);
        if (sorted.size() == 1) {
            return "eventType = '" + sorted.first() + "'";
        }
        return sorted.stream().map(t -> "'" + t + "'").collect(Collectors.joining(",", "eventType IN (", ")"));
    }

    /** The event types a filter of the form {@link #filter()} writes selects; empty for any other filter. */
    public static Optional<Set<String>> typesOf(String filter) {
        if (filter == null) {
            return Optional.empty();
        }
        Matcher one = ONE.matcher(filter);
        if (one.matches()) {
            return Optional.of(Set.of(one.group(1)));
        }
        Matcher many = MANY.matcher(filter);
        if (!many.matches()) {
            return Optional.empty();
        }
        Set<String> types = new TreeSet<>();
        Matcher quoted = QUOTED.matcher(many.group(1));
        while (quoted.find()) {
            types.add(quoted.group(1));
        }
        return Optional.of(types);
    }
}
