-- Exactly-once mutations (issue 27, docs/offline.md "Exactly once on the server"): each
-- (user, key) that the browser's outbox sent, with the first answer (superjson text), kept
-- at least 7 days. Written in the same transaction as the change, so a replay finds it and
-- creates nothing. A NULL response means "in progress" (notification.analyseImage, whose
-- provider call runs outside any transaction).
CREATE TABLE idempotency_keys (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    procedure TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    response TEXT,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, key)
);
-- The sweep deletes by age.
CREATE INDEX idx_idempotency_keys_created_at ON idempotency_keys (created_at);
