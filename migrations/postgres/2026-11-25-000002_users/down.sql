DROP INDEX IF EXISTS idx_users_school_id_surname;
DELETE FROM verification_tokens WHERE purpose = 'INVITE';
ALTER TABLE verification_tokens DROP CONSTRAINT verification_tokens_purpose_check;
ALTER TABLE verification_tokens ADD CONSTRAINT verification_tokens_purpose_check
    CHECK (purpose IN ('VERIFY_EMAIL', 'RESET_PASSWORD', 'SIGN_IN'));
