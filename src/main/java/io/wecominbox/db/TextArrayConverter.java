package io.wecominbox.db;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import java.sql.Array;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * A PostgreSQL text[] column as a list, for reading (replay_run.handlers, reconcile_run.members): the driver
 * hands over a JDBC array, or its text form {a,b}. Rows with such columns are written by native statements.
 */
@Converter
public class TextArrayConverter implements AttributeConverter<List<String>, Object> {

    @Override
    public Object convertToDatabaseColumn(List<String> values) {
        return values == null ? null : values.toArray(String[]::new);
    }

    /** An empty list for an empty array; null only for SQL NULL (a value not there yet). */
    @Override
    public List<String> convertToEntityAttribute(Object column) {
        try {
            Object value = column instanceof Array a ? a.getArray() : column;
            if (value == null) {
                return null;
            }
            if (value instanceof Object[] items) {
                return Arrays.stream(items).map(String::valueOf).toList();
            }
            String text = value.toString().replaceAll("^\\{|}$", "");
            return text.isEmpty() ? List.of() : List.of(text.split(","));
        } catch (SQLException e) {
            throw new IllegalStateException("a text[] column could not be read", e);
        }
    }
}
