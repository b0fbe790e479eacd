package io.wecominbox.handler;

import io.wecominbox.dedup.DedupPolicy;
import io.wecominbox.messaging.JndiNames;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A handler class's {@link HandlerDescriptor}, read once per class and checked, with the names the server
 * configuration derives from it. Those names are today's hand-written ones (e.g. activation spec
 * {@code wecom-inbox/CrmEventConsumer}), so generating them changed nothing Liberty sees.
 */
public record DeclaredHandler(String name, Set<String> eventTypes, boolean keyedByRelationship,
                              boolean deadlineLane, Urgency urgency, int sessions, DedupPolicy policy) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");

    private static final ClassValue<DeclaredHandler> BY_CLASS = new ClassValue<>() {
        @Override
        protected DeclaredHandler computeValue(Class<?> type) {
            HandlerDescriptor d = type.getAnnotation(HandlerDescriptor.class);
            if (d == null) {
                throw new IllegalStateException(type.getName() + " has no @HandlerDescriptor");
            }
            return of(d);
        }
    };

    public DeclaredHandler {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("handler name '" + name + "' is not " + NAME);
        }
        if (eventTypes.isEmpty() || sessions < 1 || urgency == null) {
            throw new IllegalArgumentException("handler " + name
                + " needs event types, an urgency and at least one session");
        }
        eventTypes = Set.copyOf(new TreeSet<>(eventTypes));
    }

    /** The declaration on {@code type} (or a superclass of a proxy); cached per class. */
    public static DeclaredHandler of(Class<?> type) {
        return BY_CLASS.get(type);
    }

    static DeclaredHandler of(HandlerDescriptor d) {
        DedupPolicy policy = d.naturallyIdempotent() ? DedupPolicy.naturallyIdempotentHandler()
            : DedupPolicy.builder().onHotStoreDown(d.onHotStoreDown()).onColdStoreDown(d.onColdStoreDown())
                .hotWindow(window(d.hotWindow(), DedupPolicy.DEFAULT_HOT_WINDOW))
                .coldWindow(window(d.coldWindow(), DedupPolicy.DEFAULT_COLD_WINDOW)).build();
        return new DeclaredHandler(d.name(), Set.of(d.eventTypes()), d.keyedByRelationship(), d.deadlineLane(),
            d.urgency(), d.sessions(), policy);
    }

    private static Duration window(String text, Duration otherwise) {
        return text.isEmpty() ? otherwise : Duration.parse(text);
    }

    /** The server variable that sizes the consumer ({@code handler.<name>.sessions}, env HANDLER_<NAME>_SESSIONS). */
    public String sessionsVariable() {
        return "handler." + name + ".sessions";
    }

    /** The jmsQueue's JNDI name. */
    public String queueJndiName() {
        return JndiNames.handlerQueue(name);
    }

    /** The jmsQueue's id in the server configuration, e.g. {@code crmHandlerQueue}. */
    public String queueId() {
        String camel = camel();
        return Character.toLowerCase(camel.charAt(0)) + camel.substring(1) + "HandlerQueue";
    }

    /** The consumer's EJB name; with the application's, its activation spec id (wecom-inbox/CrmEventConsumer). */
    public String consumerBean() {
        return camel() + "EventConsumer";
    }

    /** The broker routing of these types ({@link HandlerRoute}). */
    public HandlerRoute route() {
        return new HandlerRoute(name, eventTypes);
    }

    private String camel() {
        return Arrays.stream(name.split("-")).filter(p -> !p.isEmpty())
            .map(p -> Character.toUpperCase(p.charAt(0)) + p.substring(1)).collect(Collectors.joining());
    }
}
