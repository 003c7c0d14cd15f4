-- Best effort: the unique indexes and the health table go; year groups become shared
-- again, one per name (the schools' copies made by up.sql merge back by name, the
-- oldest kept; pupils are re-pointed). Notification filters are not rewritten back, and
-- twins renamed by up.sql keep their new names.
DROP TABLE health_checks;
DROP INDEX idx_students_school_id_upn;
DROP INDEX idx_form_groups_school_id_name;
DROP INDEX idx_classes_school_id_name;
DROP INDEX idx_year_groups_school_id_name;

CREATE TEMP TABLE year_group_keep AS
    SELECT y.id AS old_id, (SELECT k.id FROM year_groups k WHERE k.name = y.name
        ORDER BY k.created_at, k.id LIMIT 1) AS keep_id
    FROM year_groups y;
UPDATE students st SET year_group_id = k.keep_id
    FROM year_group_keep k WHERE k.old_id = st.year_group_id;
DELETE FROM year_groups WHERE id NOT IN (SELECT keep_id FROM year_group_keep);
DROP TABLE year_group_keep;
ALTER TABLE year_groups DROP COLUMN school_id;
ALTER TABLE year_groups ADD CONSTRAINT year_groups_name_key UNIQUE (name);
