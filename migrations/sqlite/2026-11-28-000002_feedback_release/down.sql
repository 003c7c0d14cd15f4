DROP INDEX idx_submissions_marked;
DROP INDEX idx_submissions_held;
ALTER TABLE submissions DROP COLUMN feedback_released_at;
ALTER TABLE notifications DROP COLUMN feedback_release_at;
ALTER TABLE notifications DROP COLUMN feedback_release;
