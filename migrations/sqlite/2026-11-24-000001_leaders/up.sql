-- The leaders' area (issue 11, docs/leaders.md): templates can be archived; a task
-- (task_submissions) belongs to a school and may be shared with colleagues; an answer
-- carries a version so two editors never overwrite each other silently; a task's content
-- items (files, voice notes, photo notes, recordings) with their processing state.
-- migrations/postgres/2026-11-24-000001_leaders/up.sql holds the same steps.

-- 1. Templates (`tasks`): archived instead of deleted once a task uses them.
ALTER TABLE tasks ADD COLUMN archived_at TIMESTAMP;

-- 2. Tasks (`task_submissions`) are scoped to a school, like every tenant row.
ALTER TABLE task_submissions ADD COLUMN school_id TEXT REFERENCES schools (id) ON DELETE CASCADE;
UPDATE task_submissions SET school_id = (SELECT u.school_id FROM users u WHERE u.id = task_submissions.user_id);
CREATE INDEX idx_task_submissions_school_id_user_id ON task_submissions (school_id, user_id, created_at);

-- 3. Answers: a version per answer (compare-and-set) and who wrote it last.
ALTER TABLE question_responses ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE question_responses ADD COLUMN updated_by_id TEXT REFERENCES users (id) ON DELETE SET NULL;

-- 4. Colleagues of the same school a task is shared with (Pro).
CREATE TABLE task_collaborators (
    submission_id TEXT NOT NULL REFERENCES task_submissions (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (submission_id, user_id)
);
CREATE INDEX idx_task_collaborators_user_id ON task_collaborators (user_id);

-- 5. A task's content: one row per item. Files, voice notes and recordings point at their
--    stored file (its key is the resource_transcripts key); photo notes keep the vision
--    model's text in `notes`. `status` is the processing state shown in the overview.
CREATE TABLE task_items (
    id TEXT PRIMARY KEY NOT NULL,
    submission_id TEXT NOT NULL REFERENCES task_submissions (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('FILE', 'VOICE_NOTE', 'PHOTO_NOTES', 'RECORDING')),
    file_id TEXT REFERENCES stored_files (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    content_type TEXT,
    notes TEXT,
    status TEXT NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'PROCESSING', 'READY', 'FAILED')),
    error TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX idx_task_items_submission_id ON task_items (submission_id, created_at);
CREATE UNIQUE INDEX idx_task_items_submission_id_file_id ON task_items (submission_id, file_id);
CREATE INDEX idx_task_items_file_id ON task_items (file_id);
