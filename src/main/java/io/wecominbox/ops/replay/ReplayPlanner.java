package io.wecominbox.ops.replay;

import io.wecominbox.db.DatabaseFailure;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandlerCatalog;
import io.wecominbox.ops.replay.ReplayPlan.Event;
import io.wecominbox.ops.replay.ReplayPlan.Target;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Turns a request into a plan: the selected events from callback_log and the handlers they go to. */
@ApplicationScoped
public class ReplayPlanner {

    // Retries of one event are one event: the distinct keys of the matched deliveries, each from its first
    // delivery (its lowest callback_log_id), whichever of its deliveries the selection matched.
    private static final String EVENTS = """
            SELECT DISTINCT ON (c.event_key) c.callback_log_id, c.event_key, c.event_type, c.received_at,
                c.content_erased_at IS NOT NULL
            FROM callback_log c
            WHERE c.event_key IN (SELECT s.event_key FROM callback_log s WHERE %s)
            ORDER BY c.event_key, c.callback_log_id
            LIMIT ?
            """;

    @Resource(lookup = "jdbc/wecom")
    private DataSource dataSource;

    @Inject
    HandlerCatalog catalog;

    @Inject
    @ConfigProperty(name = "wecom.replay.max-events", defaultValue = "100000")
    int maxEvents;

    public ReplayPlan plan(ReplayRequest request, OffsetDateTime now) {
        List<Event> events = events(request.selection());
        if (events.isEmpty()) {
            throw new InvalidReplayRequest("the selection matches no callback_log delivery");
        }
        if (events.size() > maxEvents) {
            throw new InvalidReplayRequest("the selection matches more than " + maxEvents
                + " events (wecom.replay.max-events); narrow it or split it by time");
        }
        Set<String> types = new TreeSet<>();
        events.forEach(e -> types.add(e.eventType()));
        return ReplayPlan.of(events, targets(request.handlers(), types), now);
    }

    private List<Target> targets(List<String> requested, Set<String> types) {
        List<Target> targets = new ArrayList<>();
        if (requested.isEmpty()) {
            for (EventHandler handler : catalog.handlers()) {
                if (takesAny(handler, types)) {
                    targets.add(target(handler));
                }
            }
            if (targets.isEmpty()) {
                throw new InvalidReplayRequest("no handler takes the selected event types " + types);
            }
            return targets;
        }
        for (String name : requested) {
            EventHandler handler = catalog.byName(name).orElseThrow(() -> new InvalidReplayRequest(
                "unknown handler " + name + "; deployed: " + catalog.handlers().stream().map(EventHandler::name).toList()));
            if (!takesAny(handler, types)) {
                throw new InvalidReplayRequest("handler " + name + " takes none of the selected event types " + types
                    + " (it takes " + new TreeSet<>(handler.eventTypes()) + ")");
            }
            targets.add(target(handler));
        }
        return targets;
    }

    private Target target(EventHandler handler) {
        return Target.of(handler.name(), handler.eventTypes(), catalog.policyOf(handler));
    }

    private static boolean takesAny(EventHandler handler, Set<String> types) {
        Set<String> common = new HashSet<>(handler.eventTypes());
        common.retainAll(types);
        return !common.isEmpty();
    }

    private List<Event> events(ReplaySelection selection) {
        ReplaySelection.Condition condition = selection.condition("s");
        try (Connection c = dataSource.getConnection();
             PreparedStatement query = c.prepareStatement(EVENTS.formatted(condition.sql()))) {
            int i = 0;
            for (Object parameter : condition.parameters()) {
                if (parameter instanceof String[] strings) {
                    query.setArray(++i, c.createArrayOf("text", strings));
                } else if (parameter instanceof Long[] ids) {
                    query.setArray(++i, c.createArrayOf("bigint", ids));
                } else {
                    query.setObject(++i, parameter);
                }
            }
            query.setInt(++i, maxEvents + 1);
            List<Event> events = new ArrayList<>();
            int erased = 0;
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    events.add(new Event(rs.getLong(1), rs.getString(2), rs.getString(3),
                        rs.getObject(4, OffsetDateTime.class)));
                    erased += rs.getBoolean(5) ? 1 : 0;
                }
            }
            if (erased > 0) {
                // the retention job erased what they said (docs/dba.md, "Retention"): nothing left to replay
                throw new InvalidReplayRequest(erased + " of the " + events.size() + " selected events are past"
                    + " wecom.retention.callback-log.erase-after: their content was erased; narrow the selection to"
                    + " newer deliveries");
            }
            return events;
        } catch (SQLException e) {
            throw DatabaseFailure.of("replay selection", e);
        }
    }
}
