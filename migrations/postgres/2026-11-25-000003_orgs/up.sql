-- Organisations (issue 12, docs/organisations.md): the session's active school, and the
-- organisation a registrant asked for, kept until the e-mail address is confirmed.
-- migrations/sqlite/2026-11-25-000003_orgs/up.sql holds the same steps.
ALTER TABLE sessions ADD COLUMN active_school_id TEXT REFERENCES schools (id) ON DELETE SET NULL;

CREATE TABLE pending_signups (
    user_id TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    organisation_name TEXT NOT NULL,
    postcode TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('SCHOOL', 'BUSINESS')),
    created_at TIMESTAMP NOT NULL
);
