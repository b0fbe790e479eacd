package io.wecominbox.ops.replay;

import static io.wecominbox.JsonProviders.JSON;

import io.wecominbox.db.TextArrayConverter;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Converter;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.UniqueConstraint;
import java.io.StringReader;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * One row of replay_run. Inserted by {@link ReplayRuns} with a native statement (selection is jsonb and
 * handlers text[], which JPA binds as plain strings), read and locked through the mapping; the published
 * counter is advanced on the managed entity in the chunk's transaction.
 */
@Entity
@Table(name = "replay_run", uniqueConstraints = @UniqueConstraint(name = "replay_run_pkey",
    columnNames = "replay_id"))
public class ReplayRunEntry {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "replay_id")
    private Long replayId;

    @Column(name = "requested_by", nullable = false)
    private String requestedBy;

    @Column(name = "requested_at", insertable = false, updatable = false)
    private OffsetDateTime requestedAt;

    @Convert(converter = JsonbText.class)
    @Column(name = "selection", insertable = false, updatable = false)
    private JsonObject selection;

    @Convert(converter = TextArrayConverter.class)
    @Column(name = "handlers", insertable = false, updatable = false)
    private List<String> handlers;

    @Column(name = "batch_id")
    private String batchId;

    @Column(name = "reason")
    private String reason;

    @Column(name = "max_rate", nullable = false)
    private int maxRate;

    @Column(name = "state", nullable = false)
    private String state;

    @Column(name = "events_selected", nullable = false)
    private int eventsSelected;

    @Column(name = "messages_total", nullable = false)
    private int messagesTotal;

    @Column(name = "messages_published", nullable = false)
    private int messagesPublished;

    @Column(name = "runner_node", nullable = false)
    private String runnerNode;

    @Column(name = "started_at")
    private OffsetDateTime startedAt;

    @Column(name = "finished_at")
    private OffsetDateTime finishedAt;

    @Column(name = "failure")
    private String failure;

    protected ReplayRunEntry() {
    }

    boolean running() {
        return ReplayRun.RUNNING.equals(state);
    }

    /** A chunk of {@code messages} was sent in this transaction. */
    void published(int messages) {
        messagesPublished += messages;
    }

    /** The API's view; outcomes filled in by the caller when it reads them. */
    ReplayRun view(Map<String, ReplayRun.Outcome> outcomes, boolean settled) {
        OffsetDateTime end = finishedAt != null ? finishedAt : OffsetDateTime.now(ZoneOffset.UTC);
        return new ReplayRun(replayId, state, requestedBy, requestedAt, selection,
            handlers == null ? List.of() : List.copyOf(handlers), batchId,
            reason, maxRate, eventsSelected, messagesTotal, messagesPublished,
            ReplayRun.rate(messagesPublished, startedAt, end), startedAt, finishedAt, failure, outcomes, settled);
    }

    /** jsonb, read only: the driver hands it over as an object whose text is the JSON. */
    @Converter
    public static class JsonbText implements AttributeConverter<JsonObject, Object> {
        @Override
        public Object convertToDatabaseColumn(JsonObject json) {
            return json == null ? null : json.toString();
        }

        @Override
        public JsonObject convertToEntityAttribute(Object column) {
            if (column == null) {
                return null;
            }
            try (JsonReader reader = JSON.createReader(new StringReader(column.toString()))) {
                return reader.readObject();
            }
        }
    }
}
