-- Reports (issue 11, docs/leaders.md "Report generator"): a leader's report written with the
-- chat model from tasks and voice notes, kept as Markdown and editable. Scoped to the
-- school and the user who wrote it. The sources are kept as JSON arrays of ids so the form
-- can be filled again. migrations/postgres/2026-11-24-000002_reports/up.sql holds the same steps.
CREATE TABLE reports (
    id TEXT PRIMARY KEY NOT NULL,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    instructions TEXT NOT NULL,
    body TEXT NOT NULL,
    task_ids TEXT NOT NULL,
    voice_note_ids TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX idx_reports_school_id_user_id ON reports (school_id, user_id, updated_at);
