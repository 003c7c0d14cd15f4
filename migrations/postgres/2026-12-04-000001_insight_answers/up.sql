-- A trust's Insights answers, kept where every process finds them (issue 30, docs/insights.md
-- "Worked out ahead"): the answer a process worked out for a MAT user's schools, filters and
-- range, by the SHA-256 of that key, as JSON. Another process (or this one after a restart)
-- gives it at once and works it out again in the background, instead of making the first
-- view wait seconds. Rows older than a day are deleted as new ones are written.
CREATE TABLE insight_answers (
    key_hash TEXT PRIMARY KEY NOT NULL,
    body TEXT NOT NULL,
    worked_out_at TIMESTAMP NOT NULL
);
-- Old rows are deleted by age.
CREATE INDEX idx_insight_answers_worked_out_at ON insight_answers (worked_out_at);
