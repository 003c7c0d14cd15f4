-- Best effort: the unique indexes and the health table go; year groups become shared
-- again, one per name (the schools' copies made by up.sql merge back by name, under a
-- fresh id; pupils are re-pointed). Notification filters are not rewritten back, and
-- twins renamed by up.sql keep their new names.
DROP TABLE health_checks;
DROP INDEX idx_students_school_id_upn;
DROP INDEX idx_form_groups_school_id_name;
DROP INDEX idx_classes_school_id_name;
DROP INDEX idx_year_groups_school_id_name;

CREATE TEMP TABLE year_group_names AS
    SELECT name, min(created_at) AS created_at, max(updated_at) AS updated_at,
        lower(hex(randomblob(16))) AS new_id
    FROM year_groups GROUP BY name;
CREATE TABLE year_groups_shared (
    id TEXT PRIMARY KEY NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    name TEXT NOT NULL UNIQUE
);
INSERT INTO year_groups_shared (id, created_at, updated_at, name)
    SELECT new_id, created_at, updated_at, name FROM year_group_names;
CREATE TEMP TABLE student_year_groups AS
    SELECT st.id AS student_id, n.new_id FROM students st
    JOIN year_groups y ON y.id = st.year_group_id JOIN year_group_names n ON n.name = y.name;
UPDATE students SET year_group_id = NULL WHERE year_group_id IS NOT NULL;
DROP TABLE year_groups;
ALTER TABLE year_groups_shared RENAME TO year_groups;
UPDATE students SET year_group_id = (
    SELECT p.new_id FROM student_year_groups p WHERE p.student_id = students.id)
WHERE id IN (SELECT student_id FROM student_year_groups);
DROP TABLE student_year_groups;
DROP TABLE year_group_names;
