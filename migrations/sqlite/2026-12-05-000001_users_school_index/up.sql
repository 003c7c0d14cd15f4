-- users (school_id) is the first column of idx_users_school_id_surname (school_id, surname,
-- forename, id), which serves every lookup by school the one-column index served; one
-- index fewer to write for each user made or changed (docs/scaling.md, stop 47).
DROP INDEX idx_users_school_id;
