DROP INDEX idx_reports_school_id_user_id;
DROP TABLE reports;
