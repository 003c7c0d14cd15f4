DROP INDEX idx_stored_files_user_id_kind_created;
CREATE INDEX idx_stored_files_user_id_kind ON stored_files (user_id, kind);
