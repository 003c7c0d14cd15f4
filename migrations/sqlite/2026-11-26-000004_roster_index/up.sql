-- The roster (school.listStudents, issue 15): a school's current pupils in name order, read
-- from the index alone (no table lookups, no sort).
CREATE INDEX idx_students_roster ON students (school_id, surname, forename, id, year_group_id, form_group_id) WHERE archived_at IS NULL;
