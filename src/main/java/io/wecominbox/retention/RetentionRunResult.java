package io.wecominbox.retention;

import static io.wecominbox.JsonProviders.JSON;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.List;
import java.util.Map;

/**
 * What one retention run did. Counts by table; partitions by name (kept: a month past its window that still
 * holds unpublished rows, or whose lock was not had in time, named with the reason).
 */
public record RetentionRunResult(boolean ran, Map<String, Long> erased, Map<String, Long> deleted,
                                 List<String> partitionsMade, List<String> partitionsDropped,
                                 Map<String, String> partitionsKept, long defaultPartitionRows, long millis) {

    static RetentionRunResult skipped() {
        return new RetentionRunResult(false, Map.of(), Map.of(), List.of(), List.of(), Map.of(), 0, 0);
    }

    public long rowsRemoved() {
        return deleted.values().stream().mapToLong(Long::longValue).sum();
    }

    public JsonObject toJson() {
        JsonObjectBuilder erasedJson = JSON.createObjectBuilder();
        erased.forEach(erasedJson::add);
        JsonObjectBuilder deletedJson = JSON.createObjectBuilder();
        deleted.forEach(deletedJson::add);
        JsonObjectBuilder kept = JSON.createObjectBuilder();
        partitionsKept.forEach(kept::add);
        return JSON.createObjectBuilder()
            .add("ran", ran)
            .add("erased", erasedJson)
            .add("deleted", deletedJson)
            .add("partitionsMade", JSON.createArrayBuilder(partitionsMade))
            .add("partitionsDropped", JSON.createArrayBuilder(partitionsDropped))
            .add("partitionsKept", kept)
            .add("defaultPartitionRows", defaultPartitionRows)
            .add("millis", millis)
            .build();
    }
}
