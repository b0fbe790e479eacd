package io.wecominbox.ingest;

/** CDI event: a group commit stored this many callback_log rows, now waiting to be published. */
public record CallbackRowsCommitted(int rows) {
}
