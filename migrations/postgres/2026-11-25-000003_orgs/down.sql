DROP TABLE pending_signups;
ALTER TABLE sessions DROP COLUMN active_school_id;
