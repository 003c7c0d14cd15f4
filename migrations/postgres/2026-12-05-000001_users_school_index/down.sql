CREATE INDEX idx_users_school_id ON users (school_id);
