package io.wecominbox.db;

import java.util.List;
import java.util.function.Function;

/** One field of each row, in row order: the column a batch insert binds as one array to {@code unnest(...)}. */
public final class ArrayColumns {

    private ArrayColumns() {
    }

    public static <T> Object[] column(List<T> rows, Function<T, ?> field) {
        return rows.stream().map(field).toArray();
    }
}
