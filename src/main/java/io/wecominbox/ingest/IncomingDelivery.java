package io.wecominbox.ingest;

import java.time.OffsetDateTime;

/** A verified, decrypted delivery waiting for the group commit that stores it. */
record IncomingDelivery(OpenedCallback callback, OffsetDateTime receivedAt, String remoteAddr) {
}
