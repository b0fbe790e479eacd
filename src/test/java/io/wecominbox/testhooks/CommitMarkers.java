package io.wecominbox.testhooks;

import io.wecominbox.callbacklog.IncomingDelivery;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * How the callback_log commit switches find their target: a marker configured in the test server
 * ({@code src/test/liberty/configDropins/overrides/dedup-test.xml}), a delivery of the commit whose plaintext
 * carries it, and an optional count written right after it ({@code MARKER*12}).
 */
final class CommitMarkers {

    private CommitMarkers() {
    }

    /** The marker configured under {@code property}, read on every call; empty when unset or blank. */
    static Optional<String> configured(String property) {
        return ConfigProvider.getConfig().getOptionalValue(property, String.class).filter(m -> !m.isBlank());
    }

    /** The first of {@code deliveries} whose plaintext contains the marker of {@code property}. */
    static Optional<IncomingDelivery> carrying(List<IncomingDelivery> deliveries, String property) {
        return configured(property).flatMap(m -> deliveries.stream()
            .filter(d -> d.plaintext() != null && d.plaintext().contains(m)).findFirst());
    }

    /** The count written after the marker of {@code property} in {@code plaintext}, else {@code otherwise}. */
    static int countAfter(String plaintext, String property, int otherwise) {
        Optional<String> marker = configured(property);
        if (marker.isEmpty()) {
            return otherwise;
        }
        Matcher count = Pattern.compile(Pattern.quote(marker.get()) + "\\*(\\d{1,6})").matcher(plaintext);
        return count.find() ? Integer.parseInt(count.group(1)) : otherwise;
    }
}
