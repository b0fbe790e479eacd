package io.wecominbox.ops.probe;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** One consumed probe message (table pipeline_probe_receipt; deliberately not unique per probe). */
@Entity
@Table(name = "pipeline_probe_receipt")
public class ProbeReceipt {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "receipt_id")
    private Long id;

    @Column(name = "probe_id", nullable = false)
    private long probeId;

    @Column(name = "received_at", nullable = false)
    private OffsetDateTime receivedAt;

    @Column(name = "delivery_count", nullable = false)
    private int deliveryCount;

    protected ProbeReceipt() {
    }

    public ProbeReceipt(long probeId, OffsetDateTime receivedAt, int deliveryCount) {
        this.probeId = probeId;
        this.receivedAt = receivedAt;
        this.deliveryCount = deliveryCount;
    }
}
