-- V1: the pipeline probe, an operator's self-test of the path every callback takes:
-- a row and a JMS message committed together (two-phase), then a message-driven bean that records the
-- receipt in its own XA transaction. Used after a deploy, a broker move or a crash.

CREATE TABLE pipeline_probe (
    probe_id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    label       text        NOT NULL DEFAULT '',
    sent_at     timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE pipeline_probe IS
    'One row per probe sent through the database + broker XA path (POST /api/ops/probes).';
COMMENT ON COLUMN pipeline_probe.probe_id IS 'Probe id; also carried by the JMS message as property probeId.';
COMMENT ON COLUMN pipeline_probe.label IS 'Free text from the operator or test that sent the probe.';
COMMENT ON COLUMN pipeline_probe.sent_at IS 'When the sending transaction wrote the row (commit follows within ms).';

CREATE TABLE pipeline_probe_receipt (
    receipt_id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    probe_id        bigint      NOT NULL,
    received_at     timestamptz NOT NULL DEFAULT now(),
    delivery_count  integer     NOT NULL
);
-- Deliberately NOT unique on probe_id and NOT a foreign key: a second receipt for one probe (a committed
-- message delivered twice), or a receipt whose probe row does not exist (a message sent although its
-- row rolled back), each means the XA path is broken. The probe and the crash tests look for exactly that.
CREATE INDEX pipeline_probe_receipt_probe_idx ON pipeline_probe_receipt (probe_id);
COMMENT ON TABLE pipeline_probe_receipt IS
    'One row per probe message consumed (committed) by PipelineProbeConsumer. Exactly one per probe when XA works.';
COMMENT ON COLUMN pipeline_probe_receipt.receipt_id IS 'Receipt id.';
COMMENT ON COLUMN pipeline_probe_receipt.probe_id IS 'The probe whose message was consumed.';
COMMENT ON COLUMN pipeline_probe_receipt.received_at IS 'When the consuming transaction wrote this row.';
COMMENT ON COLUMN pipeline_probe_receipt.delivery_count IS
    'JMSXDeliveryCount of the consumed delivery: above 1 means earlier attempts rolled back.';
COMMENT ON INDEX pipeline_probe_receipt_probe_idx IS 'All receipts of one probe (non-unique on purpose).';
