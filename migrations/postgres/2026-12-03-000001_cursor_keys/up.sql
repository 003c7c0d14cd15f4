-- Paged lists read a deep page as one range of an index (issue 30, docs/scaling.md "Paged
-- lists"). The page after a cursor is `(time, id) < key` or `(surname, forename, id) > key`,
-- a row comparison; a planner bounds an index scan by all of it only where the index holds
-- every column of the key, id included, in the list's order. Without the id the index
-- gives the order only up to the id, so both databases also sorted each page (PostgreSQL
-- at times every user of the school for a page of Manage Users).
DROP INDEX idx_notifications_school_id_created_at;
CREATE INDEX idx_notifications_school_id_created_at ON notifications (school_id, created_at, id);
DROP INDEX idx_users_school_id_surname;
CREATE INDEX idx_users_school_id_surname ON users (school_id, surname, forename, id);
