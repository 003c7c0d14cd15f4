DROP TABLE pending_signups;
-- SQLite cannot drop a column that carries a foreign key: the table is rebuilt.
CREATE TABLE sessions_before_orgs (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    ip_address TEXT,
    user_agent TEXT
);
INSERT INTO sessions_before_orgs
    SELECT token_hash, user_id, created_at, expires_at, last_seen_at, ip_address, user_agent FROM sessions;
DROP TABLE sessions;
ALTER TABLE sessions_before_orgs RENAME TO sessions;
CREATE INDEX idx_sessions_user_id ON sessions (user_id);
CREATE INDEX idx_sessions_expires_at ON sessions (expires_at);
