-- Attempt limits shared by every server process (docs/scaling.md, auth/rate_limit.rs): one
-- row per reserved attempt. PostgreSQL counts here; SQLite (one process) keeps the table in
-- step but counts in memory.
CREATE TABLE attempts (
    id TEXT PRIMARY KEY NOT NULL,
    limit_key TEXT NOT NULL,
    at TIMESTAMP NOT NULL
);
CREATE INDEX idx_attempts_key_at ON attempts (limit_key, at);
CREATE INDEX idx_attempts_at ON attempts (at);
