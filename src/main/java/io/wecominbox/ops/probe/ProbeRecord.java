package io.wecominbox.ops.probe;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** A probe sent through the database + broker XA path (table pipeline_probe). */
@Entity
@Table(name = "pipeline_probe")
public class ProbeRecord {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "probe_id")
    private Long id;

    @Column(name = "label", nullable = false)
    private String label;

    @Column(name = "sent_at", nullable = false)
    private OffsetDateTime sentAt;

    protected ProbeRecord() {
    }

    public ProbeRecord(String label, OffsetDateTime sentAt) {
        this.label = label;
        this.sentAt = sentAt;
    }

    public Long id() {
        return id;
    }

    public String label() {
        return label;
    }

    public OffsetDateTime sentAt() {
        return sentAt;
    }
}
