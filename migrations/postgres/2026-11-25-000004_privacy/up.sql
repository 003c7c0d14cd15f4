-- Receipts of messages sent to a pupil who was later erased (docs/privacy.md): which
-- notification went out and when, with nothing that names or identifies the pupil.
CREATE TABLE erased_receipts (
    id TEXT PRIMARY KEY NOT NULL,
    notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    sent_at TIMESTAMP,
    erased_at TIMESTAMP NOT NULL
);
CREATE INDEX idx_erased_receipts_notification_id ON erased_receipts (notification_id);
