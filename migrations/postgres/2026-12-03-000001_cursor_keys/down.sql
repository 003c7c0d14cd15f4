DROP INDEX idx_users_school_id_surname;
CREATE INDEX idx_users_school_id_surname ON users (school_id, surname, forename);
DROP INDEX idx_notifications_school_id_created_at;
CREATE INDEX idx_notifications_school_id_created_at ON notifications (school_id, created_at);
