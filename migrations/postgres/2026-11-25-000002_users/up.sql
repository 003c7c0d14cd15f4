-- Manage Users: invitation links (purpose INVITE).
ALTER TABLE verification_tokens DROP CONSTRAINT verification_tokens_purpose_check;
ALTER TABLE verification_tokens ADD CONSTRAINT verification_tokens_purpose_check
    CHECK (purpose IN ('VERIFY_EMAIL', 'RESET_PASSWORD', 'SIGN_IN', 'INVITE'));
CREATE INDEX idx_users_school_id_surname ON users (school_id, surname, forename);
