-- Hardening (issue 10): year groups belong to a school; natural keys are unique per
-- school so a double submit cannot create twins; a one-row table the health check
-- writes to. migrations/sqlite/2026-11-23-000001_hardening/up.sql holds the same
-- steps in SQLite's dialect. docs/data-model.md explains each decision.

-- 1. Year groups per school. Every (year group, school) pair in use -- a pupil of the
--    school in it, or a notification of the school filtering on it -- becomes a year
--    group of that school's own, with a fresh id. A year group nobody uses goes to the
--    school when there is exactly one (a single-school install keeps its list), else it
--    is dropped: no data points at it, and showing it to every school was the leak.
ALTER TABLE year_groups DROP CONSTRAINT IF EXISTS year_groups_name_key;
ALTER TABLE year_groups ADD COLUMN school_id TEXT REFERENCES schools (id) ON DELETE CASCADE;

CREATE TEMP TABLE year_group_uses AS
    SELECT DISTINCT year_group_id AS old_id, school_id FROM students
        WHERE year_group_id IS NOT NULL
    UNION
    SELECT y.id, n.school_id FROM notifications n JOIN year_groups y
        ON position('"' || y.id || '"' IN n.filters) > 0;
INSERT INTO year_group_uses (old_id, school_id)
    SELECT y.id, (SELECT id FROM schools) FROM year_groups y
    WHERE (SELECT count(*) FROM schools) = 1
      AND NOT EXISTS (SELECT 1 FROM year_group_uses u WHERE u.old_id = y.id);

CREATE TEMP TABLE year_group_split AS
    SELECT old_id, school_id, gen_random_uuid()::text AS new_id FROM year_group_uses;

INSERT INTO year_groups (id, created_at, updated_at, name, school_id)
    SELECT s.new_id, y.created_at, y.updated_at, y.name, s.school_id
    FROM year_group_split s JOIN year_groups y ON y.id = s.old_id;

UPDATE students st SET year_group_id = s.new_id
    FROM year_group_split s
    WHERE s.old_id = st.year_group_id AND s.school_id = st.school_id;

-- A notification's filters (JSON text) name year groups by id: one replace per split
-- pair. Ids are random, so the quoted id matches nothing else in the text.
DO $$
DECLARE pair record;
BEGIN
    FOR pair IN SELECT old_id, new_id, school_id FROM year_group_split LOOP
        UPDATE notifications
            SET filters = replace(filters, '"' || pair.old_id || '"', '"' || pair.new_id || '"')
            WHERE school_id = pair.school_id
              AND position('"' || pair.old_id || '"' IN filters) > 0;
    END LOOP;
END $$;

DELETE FROM year_groups WHERE school_id IS NULL;
ALTER TABLE year_groups ALTER COLUMN school_id SET NOT NULL;
DROP TABLE year_group_split;
DROP TABLE year_group_uses;

-- 2. Natural keys, unique per school and without regard to case (the app matches names
--    that way). Existing twins keep their data; all but the oldest get the end of their
--    id added to the name so the unique indexes can be built.
UPDATE year_groups SET name = name || ' (' || substr(id, length(id) - 7) || ')'
WHERE EXISTS (SELECT 1 FROM year_groups o WHERE o.school_id = year_groups.school_id
    AND lower(o.name) = lower(year_groups.name)
    AND (o.created_at < year_groups.created_at
         OR (o.created_at = year_groups.created_at AND o.id < year_groups.id)));
UPDATE classes SET name = name || ' (' || substr(id, length(id) - 7) || ')'
WHERE EXISTS (SELECT 1 FROM classes o WHERE o.school_id = classes.school_id
    AND lower(o.name) = lower(classes.name)
    AND (o.created_at < classes.created_at
         OR (o.created_at = classes.created_at AND o.id < classes.id)));
UPDATE form_groups SET name = name || ' (' || substr(id, length(id) - 7) || ')'
WHERE EXISTS (SELECT 1 FROM form_groups o WHERE o.school_id = form_groups.school_id
    AND lower(o.name) = lower(form_groups.name)
    AND (o.created_at < form_groups.created_at
         OR (o.created_at = form_groups.created_at AND o.id < form_groups.id)));
UPDATE students SET upn = upn || '-' || substr(id, length(id) - 7)
WHERE upn IS NOT NULL AND EXISTS (SELECT 1 FROM students o
    WHERE o.school_id = students.school_id AND o.upn = students.upn
    AND (o.created_at < students.created_at
         OR (o.created_at = students.created_at AND o.id < students.id)));

CREATE UNIQUE INDEX idx_year_groups_school_id_name ON year_groups (school_id, lower(name));
CREATE UNIQUE INDEX idx_classes_school_id_name ON classes (school_id, lower(name));
CREATE UNIQUE INDEX idx_form_groups_school_id_name ON form_groups (school_id, lower(name));
CREATE UNIQUE INDEX idx_students_school_id_upn ON students (school_id, upn);

-- 3. What GET /api/health writes to prove the database accepts writes.
CREATE TABLE health_checks (
    id INTEGER PRIMARY KEY NOT NULL,
    checked_at TIMESTAMP NOT NULL
);
INSERT INTO health_checks (id, checked_at) VALUES (1, CURRENT_TIMESTAMP);
