-- Voicemark initial schema (SQLite).
-- migrations/postgres/2026-11-21-000001_init/up.sql holds the same statements:
-- keep the two files in step, and server/src/db/schema.rs with them.
-- Conventions: ids are TEXT (UUIDv7 made in Rust); timestamps are TIMESTAMP
-- (diesel stores sortable text here), UTC by convention, bound from Rust;
-- enumerations are TEXT with a CHECK; JSON values are TEXT. See docs/data-model.md.

CREATE TABLE trusts (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE schools (
    id TEXT PRIMARY KEY NOT NULL,
    trust_id TEXT REFERENCES trusts (id) ON DELETE SET NULL,
    wonde_id TEXT,
    wonde_token TEXT,
    groupcall_id TEXT,
    groupcall_secret TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    last_full_sync TIMESTAMP,
    name TEXT NOT NULL,
    postcode TEXT,
    "type" TEXT NOT NULL DEFAULT 'SCHOOL' CHECK ("type" IN ('SCHOOL', 'BUSINESS')),
    stripe_customer_id TEXT,
    stripe_subscription_id TEXT,
    stripe_product_id TEXT,
    seats INTEGER,
    subscription_last_updated_at TIMESTAMP,
    redirect_to_leaders BOOLEAN NOT NULL DEFAULT FALSE,
    notify_parents_general BOOLEAN NOT NULL DEFAULT TRUE,
    notify_parents_assignment BOOLEAN NOT NULL DEFAULT TRUE,
    notifications_frequency TEXT NOT NULL DEFAULT 'IMMEDIATELY'
        CHECK (notifications_frequency IN ('DAILY', 'WEEKLY', 'IMMEDIATELY'))
);
CREATE INDEX idx_schools_trust_id ON schools (trust_id);

CREATE TABLE users (
    id TEXT PRIMARY KEY NOT NULL,
    groupcall_id TEXT,
    wonde_id TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    forename TEXT NOT NULL,
    surname TEXT NOT NULL,
    title TEXT,
    email TEXT NOT NULL UNIQUE,
    email_verified TIMESTAMP,
    staff_code TEXT,
    password_updated_at TIMESTAMP,
    password TEXT,
    pro BOOLEAN NOT NULL DEFAULT FALSE,
    activated BOOLEAN NOT NULL DEFAULT FALSE,
    send_all_cohorts BOOLEAN NOT NULL DEFAULT FALSE,
    has_completed_tutorial BOOLEAN NOT NULL DEFAULT FALSE,
    leader BOOLEAN NOT NULL DEFAULT FALSE,
    disabled BOOLEAN NOT NULL DEFAULT FALSE,
    last_active TIMESTAMP,
    school_id TEXT REFERENCES schools (id) ON DELETE SET NULL,
    role TEXT NOT NULL CHECK (role IN ('TEACHER', 'ADMIN', 'SUPERADMIN', 'ORG_ADMIN', 'MAT_USER'))
);
CREATE INDEX idx_users_school_id ON users (school_id);

CREATE TABLE organisation_memberships (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('TEACHER', 'ADMIN', 'SUPERADMIN', 'ORG_ADMIN', 'MAT_USER')),
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, school_id)
);
CREATE INDEX idx_organisation_memberships_school_id ON organisation_memberships (school_id);

CREATE TABLE year_groups (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    name TEXT NOT NULL UNIQUE
);

CREATE TABLE form_groups (
    id TEXT PRIMARY KEY NOT NULL,
    wonde_id TEXT,
    groupcall_id TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    name TEXT NOT NULL,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE
);
CREATE INDEX idx_form_groups_school_id ON form_groups (school_id);
CREATE UNIQUE INDEX idx_form_groups_school_id_wonde_id ON form_groups (school_id, wonde_id);
CREATE UNIQUE INDEX idx_form_groups_school_id_groupcall_id ON form_groups (school_id, groupcall_id);

CREATE TABLE classes (
    id TEXT PRIMARY KEY NOT NULL,
    wonde_id TEXT,
    groupcall_id TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    name TEXT NOT NULL,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE
);
CREATE INDEX idx_classes_school_id ON classes (school_id);
CREATE UNIQUE INDEX idx_classes_school_id_wonde_id ON classes (school_id, wonde_id);
CREATE UNIQUE INDEX idx_classes_school_id_groupcall_id ON classes (school_id, groupcall_id);

CREATE TABLE students (
    id TEXT PRIMARY KEY NOT NULL,
    wonde_id TEXT,
    groupcall_id TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    forename TEXT NOT NULL,
    surname TEXT NOT NULL,
    email TEXT,
    parent_email TEXT,
    upn TEXT,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    year_group_id TEXT REFERENCES year_groups (id) ON DELETE SET NULL,
    form_group_id TEXT REFERENCES form_groups (id) ON DELETE SET NULL
);
CREATE INDEX idx_students_school_id_surname_forename ON students (school_id, surname, forename);
CREATE INDEX idx_students_year_group_id ON students (year_group_id);
CREATE INDEX idx_students_form_group_id ON students (form_group_id);
CREATE UNIQUE INDEX idx_students_school_id_wonde_id ON students (school_id, wonde_id);
CREATE UNIQUE INDEX idx_students_school_id_groupcall_id ON students (school_id, groupcall_id);

CREATE TABLE class_students (
    class_id TEXT NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    student_id TEXT NOT NULL REFERENCES students (id) ON DELETE CASCADE,
    PRIMARY KEY (class_id, student_id)
);
CREATE INDEX idx_class_students_student_id ON class_students (student_id);

CREATE TABLE class_staff (
    class_id TEXT NOT NULL REFERENCES classes (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (class_id, user_id)
);
CREATE INDEX idx_class_staff_user_id ON class_staff (user_id);

CREATE TABLE student_comments (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    student_id TEXT NOT NULL REFERENCES students (id) ON DELETE CASCADE,
    comment TEXT NOT NULL
);
CREATE INDEX idx_student_comments_student_id ON student_comments (student_id);
CREATE INDEX idx_student_comments_user_id ON student_comments (user_id);

-- sender_id is RESTRICT: deleting a teacher must not silently delete the
-- messages pupils received and the work they handed in (disable the user instead).
CREATE TABLE notifications (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    "type" TEXT NOT NULL CHECK ("type" IN ('GENERAL', 'ASSIGNMENT')),
    title TEXT NOT NULL,
    custom_title TEXT,
    body TEXT NOT NULL DEFAULT '',
    send_date TIMESTAMP,
    submission_due_date TIMESTAMP,
    send_to_parent BOOLEAN NOT NULL DEFAULT FALSE,
    send_to_pupil BOOLEAN NOT NULL DEFAULT FALSE,
    filters TEXT NOT NULL DEFAULT '{}',
    sender_id TEXT NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE
);
CREATE INDEX idx_notifications_school_id_created_at ON notifications (school_id, created_at);
CREATE INDEX idx_notifications_sender_id ON notifications (sender_id);

CREATE TABLE notification_receipts (
    notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    student_id TEXT NOT NULL REFERENCES students (id) ON DELETE CASCADE,
    sent_at TIMESTAMP,
    PRIMARY KEY (notification_id, student_id)
);
CREATE INDEX idx_notification_receipts_student_id ON notification_receipts (student_id);

CREATE TABLE submissions (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    received_at TIMESTAMP,
    marked_at TIMESTAMP,
    content TEXT,
    s3_key TEXT,
    feedback TEXT,
    feedback_sentiment TEXT CHECK (feedback_sentiment IN ('NEUTRAL', 'POSITIVE', 'NEGATIVE')),
    token TEXT NOT NULL UNIQUE,
    notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    student_id TEXT NOT NULL REFERENCES students (id) ON DELETE CASCADE,
    UNIQUE (notification_id, student_id)
);
-- Feedback Hub count: submissions received but not yet marked.
CREATE INDEX idx_submissions_notification_id ON submissions (notification_id)
    WHERE received_at IS NOT NULL AND marked_at IS NULL;
CREATE INDEX idx_submissions_student_id ON submissions (student_id);

CREATE TABLE accounts (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    "type" TEXT NOT NULL,
    provider TEXT NOT NULL,
    provider_account_id TEXT NOT NULL,
    refresh_token TEXT,
    access_token TEXT,
    expires_at BIGINT,
    ext_expires_in INTEGER,
    token_type TEXT,
    scope TEXT,
    id_token TEXT,
    session_state TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (provider, provider_account_id)
);
CREATE INDEX idx_accounts_user_id ON accounts (user_id);

-- Keyed by the (lowercased) e-mail address rather than by user: parents get
-- messages and can set preferences without having an account.
CREATE TABLE email_preferences (
    email TEXT PRIMARY KEY NOT NULL,
    language TEXT NOT NULL DEFAULT 'en',
    general BOOLEAN NOT NULL DEFAULT TRUE,
    assignment BOOLEAN NOT NULL DEFAULT TRUE,
    frequency TEXT NOT NULL DEFAULT 'IMMEDIATELY'
        CHECK (frequency IN ('DAILY', 'WEEKLY', 'IMMEDIATELY')),
    token TEXT NOT NULL UNIQUE,
    last_digest_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE assistant_queries (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    filter_id TEXT,
    query TEXT NOT NULL,
    response TEXT,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX idx_assistant_queries_user_id ON assistant_queries (user_id);

CREATE TABLE tasks (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    title TEXT NOT NULL,
    visibility TEXT NOT NULL DEFAULT 'PERSONAL' CHECK (visibility IN ('PERSONAL', 'SCHOOL', 'MAT')),
    tags TEXT NOT NULL DEFAULT '[]',
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE
);
CREATE INDEX idx_tasks_school_id ON tasks (school_id);
CREATE INDEX idx_tasks_user_id ON tasks (user_id);

CREATE TABLE questions (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    text TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'TEXTAREA' CHECK ("type" IN ('TEXTAREA')),
    required BOOLEAN NOT NULL DEFAULT FALSE,
    position INTEGER NOT NULL DEFAULT 0,
    task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE
);
CREATE INDEX idx_questions_task_id_position ON questions (task_id, position);

CREATE TABLE task_submissions (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    draft BOOLEAN NOT NULL DEFAULT TRUE,
    title TEXT NOT NULL,
    submitted_at TIMESTAMP,
    tags TEXT NOT NULL DEFAULT '[]',
    task_id TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE
);
CREATE INDEX idx_task_submissions_task_id ON task_submissions (task_id);
CREATE INDEX idx_task_submissions_user_id ON task_submissions (user_id);

CREATE TABLE question_responses (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    submission_id TEXT NOT NULL REFERENCES task_submissions (id) ON DELETE CASCADE,
    question_id TEXT NOT NULL REFERENCES questions (id) ON DELETE CASCADE,
    answer TEXT NOT NULL DEFAULT '',
    UNIQUE (submission_id, question_id)
);
CREATE INDEX idx_question_responses_question_id ON question_responses (question_id);

CREATE TABLE resource_transcripts (
    key TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    transcript TEXT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    ip_address TEXT,
    user_agent TEXT
);
CREATE INDEX idx_sessions_user_id ON sessions (user_id);
CREATE INDEX idx_sessions_expires_at ON sessions (expires_at);

CREATE TABLE verification_tokens (
    token_hash TEXT PRIMARY KEY NOT NULL,
    identifier TEXT NOT NULL,
    purpose TEXT NOT NULL CHECK (purpose IN ('VERIFY_EMAIL', 'RESET_PASSWORD', 'SIGN_IN')),
    user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX idx_verification_tokens_identifier ON verification_tokens (identifier);
CREATE INDEX idx_verification_tokens_user_id ON verification_tokens (user_id);

-- Every link is SET NULL: the row outlives its owner so that a job can still
-- find the object in the store and delete it.
CREATE TABLE stored_files (
    id TEXT PRIMARY KEY NOT NULL,
    key TEXT NOT NULL UNIQUE,
    school_id TEXT REFERENCES schools (id) ON DELETE SET NULL,
    user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    task_id TEXT REFERENCES tasks (id) ON DELETE SET NULL,
    submission_id TEXT REFERENCES submissions (id) ON DELETE SET NULL,
    filename TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size_bytes BIGINT,
    expires_at TIMESTAMP,
    uploaded_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX idx_stored_files_expires_at ON stored_files (expires_at);
CREATE INDEX idx_stored_files_school_id ON stored_files (school_id);
CREATE INDEX idx_stored_files_user_id ON stored_files (user_id);
CREATE INDEX idx_stored_files_task_id ON stored_files (task_id);
CREATE INDEX idx_stored_files_submission_id ON stored_files (submission_id);

CREATE TABLE voice_notes (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    school_id TEXT REFERENCES schools (id) ON DELETE SET NULL,
    file_id TEXT NOT NULL REFERENCES stored_files (id) ON DELETE CASCADE,
    filename TEXT NOT NULL,
    personal_folder BOOLEAN NOT NULL DEFAULT TRUE,
    task_id TEXT REFERENCES tasks (id) ON DELETE SET NULL,
    duration_ms INTEGER
);
CREATE INDEX idx_voice_notes_user_id ON voice_notes (user_id);
CREATE INDEX idx_voice_notes_file_id ON voice_notes (file_id);
CREATE INDEX idx_voice_notes_task_id ON voice_notes (task_id);

CREATE TABLE jobs (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    status TEXT NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED')),
    run_at TIMESTAMP NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 5,
    locked_at TIMESTAMP,
    locked_by TEXT,
    last_error TEXT,
    finished_at TIMESTAMP,
    idempotency_key TEXT UNIQUE,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX idx_jobs_status_run_at ON jobs (status, run_at);

CREATE TABLE audit_log (
    id TEXT PRIMARY KEY NOT NULL,
    at TIMESTAMP NOT NULL,
    user_id TEXT REFERENCES users (id) ON DELETE SET NULL,
    school_id TEXT REFERENCES schools (id) ON DELETE SET NULL,
    action TEXT NOT NULL CHECK (action IN ('READ', 'CREATE', 'UPDATE', 'DELETE')),
    entity TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    detail TEXT,
    request_id TEXT
);
CREATE INDEX idx_audit_log_school_id_at ON audit_log (school_id, at);
CREATE INDEX idx_audit_log_entity_entity_id ON audit_log (entity, entity_id);
CREATE INDEX idx_audit_log_user_id ON audit_log (user_id);
