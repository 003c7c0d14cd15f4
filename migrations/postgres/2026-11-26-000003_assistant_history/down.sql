DROP INDEX idx_assistant_queries_user_id_created_at;
ALTER TABLE schools DROP COLUMN assistant_history;
