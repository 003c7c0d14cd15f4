DROP INDEX idx_students_roster;
