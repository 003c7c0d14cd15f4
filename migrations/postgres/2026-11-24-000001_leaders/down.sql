DROP TABLE task_items;
DROP TABLE task_collaborators;
ALTER TABLE question_responses DROP COLUMN updated_by_id;
ALTER TABLE question_responses DROP COLUMN version;
DROP INDEX idx_task_submissions_school_id_user_id;
ALTER TABLE task_submissions DROP COLUMN school_id;
ALTER TABLE tasks DROP COLUMN archived_at;
