-- Direct uploads and voice notes keep their files in stored_files (docs/storage.md):
-- what kind of file a row is, whether a voice note is in its owner's personal folder,
-- and when the row last changed. Existing rows are pupils' submission files.
ALTER TABLE stored_files ADD COLUMN kind TEXT NOT NULL DEFAULT 'SUBMISSION'
    CHECK (kind IN ('SUBMISSION', 'UPLOAD', 'VOICE_NOTE'));
ALTER TABLE stored_files ADD COLUMN in_personal_folder BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE stored_files ADD COLUMN updated_at TIMESTAMP;
CREATE INDEX idx_stored_files_user_id_kind ON stored_files (user_id, kind);
