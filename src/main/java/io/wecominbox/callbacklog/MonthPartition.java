package io.wecominbox.callbacklog;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One month's partition of callback_log (V73: callback_log_pYYYYMM, the month in UTC, its end excluded). Only
 * names of that form are ever dropped: the default partition and anything else attached stays.
 */
public record MonthPartition(YearMonth month) {

    private static final Pattern NAME = Pattern.compile("callback_log_p(\\d{4})(\\d{2})");
    private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("yyyyMM");

    public static Optional<MonthPartition> ofName(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        int month = Integer.parseInt(m.group(2));
        return month < 1 || month > 12 ? Optional.empty()
            : Optional.of(new MonthPartition(YearMonth.of(Integer.parseInt(m.group(1)), month)));
    }

    public static MonthPartition containing(Instant instant) {
        return new MonthPartition(YearMonth.from(instant.atZone(ZoneOffset.UTC)));
    }

    public String name() {
        return "callback_log_p" + month.format(SUFFIX);
    }

    public Instant start() {
        return month.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** The first instant no longer in this month. */
    public Instant end() {
        return month.plusMonths(1).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    public MonthPartition next() {
        return new MonthPartition(month.plusMonths(1));
    }

    /** Every row it can hold is older than {@code cutoff}: dropping it removes nothing younger. */
    public boolean entirelyBefore(Instant cutoff) {
        return !end().isAfter(cutoff);
    }
}
