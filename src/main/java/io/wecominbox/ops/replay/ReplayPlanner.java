package io.wecominbox.ops.replay;

import io.wecominbox.callbacklog.CallbackLogEvents;
import io.wecominbox.callbacklog.CallbackLogEvents.FirstDelivery;
import io.wecominbox.callbacklog.DeliveryFilter;
import io.wecominbox.db.DatabaseFailure;
import io.wecominbox.handler.EventHandler;
import io.wecominbox.handler.HandlerCatalog;
import io.wecominbox.ops.replay.ReplayPlan.Event;
import io.wecominbox.ops.replay.ReplayPlan.Target;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
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

    private List<Event> events(DeliveryFilter selection) {
        try (Connection c = dataSource.getConnection()) {
            List<FirstDelivery> found = CallbackLogEvents.firstDeliveries(c, selection, maxEvents + 1);
            long erased = found.stream().filter(FirstDelivery::contentErased).count();
            if (erased > 0) {
                // the retention job erased what they said (docs/dba.md, "Retention"): nothing left to replay
                throw new InvalidReplayRequest(erased + " of the " + found.size() + " selected events are past"
                    + " wecom.retention.callback-log.erase-after: their content was erased; narrow the selection to"
                    + " newer deliveries");
            }
            return found.stream().map(f -> new Event(f.callbackLogId(), f.eventKey(), f.eventType(), f.receivedAt()))
                .toList();
        } catch (SQLException e) {
            throw DatabaseFailure.of("replay selection", e);
        }
    }
}
