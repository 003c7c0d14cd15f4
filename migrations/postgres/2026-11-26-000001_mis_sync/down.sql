DROP TABLE mis_sync_runs;
ALTER TABLE students DROP COLUMN archived_at;
