DROP INDEX idx_stored_files_user_id_kind;
ALTER TABLE stored_files DROP COLUMN updated_at;
ALTER TABLE stored_files DROP COLUMN in_personal_folder;
ALTER TABLE stored_files DROP COLUMN kind;
