-- The AI assistant's history (issue 14, docs/assistant.md): a school's admins may turn it
-- off, and then questions to the assistant and its answers are not kept.
ALTER TABLE schools ADD COLUMN assistant_history BOOLEAN NOT NULL DEFAULT TRUE;
-- The panel lists a user's own questions, newest first.
CREATE INDEX idx_assistant_queries_user_id_created_at ON assistant_queries (user_id, created_at);
