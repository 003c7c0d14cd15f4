-- Manage Users: invitation links (purpose INVITE). SQLite cannot change a CHECK
-- constraint, so the table is rebuilt (nothing references it).
CREATE TABLE verification_tokens_new (
    token_hash TEXT PRIMARY KEY NOT NULL,
    identifier TEXT NOT NULL,
    purpose TEXT NOT NULL CHECK (purpose IN ('VERIFY_EMAIL', 'RESET_PASSWORD', 'SIGN_IN', 'INVITE')),
    user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
INSERT INTO verification_tokens_new SELECT token_hash, identifier, purpose, user_id, expires_at, used_at, created_at FROM verification_tokens;
DROP TABLE verification_tokens;
ALTER TABLE verification_tokens_new RENAME TO verification_tokens;
CREATE INDEX idx_verification_tokens_identifier ON verification_tokens (identifier);
CREATE INDEX idx_verification_tokens_user_id ON verification_tokens (user_id);
CREATE INDEX idx_users_school_id_surname ON users (school_id, surname, forename);
