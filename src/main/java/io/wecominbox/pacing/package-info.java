/**
 * Who gets the CPU when there is not enough of it. WeCom's callbacks must be answered within milliseconds
 * whatever the consumers are doing, so this node watches whether the callback path has room
 * ({@link CallbackPressure}: is the executor prompt, are the group-commit writers keeping up?), and while it has
 * not, the consumers without a customer-facing deadline hold back before their next batch
 * ({@link ConsumerPacing}), by their handler's {@link Urgency}. Pipeline-level: it uses nothing of the ingest or
 * the handlers; the writers report to it and the consumers ask it.
 */
package io.wecominbox.pacing;
