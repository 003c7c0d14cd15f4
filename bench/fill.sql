-- The issue-15 benchmark data (bench/hot-paths.sh, bench/insights.sh), added to the demo
-- school (Northbridge Academy): 2,000 pupils, 49 more teachers, 500 assignments, 100,000
-- submissions. Runs as is on SQLite; PostgreSQL needs `THEN '` typed as `THEN TIMESTAMP '`.
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 7)
INSERT INTO year_groups (id, created_at, updated_at, name, school_id)
SELECT 'bench-y-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Bench year ' || n,
       (SELECT school_id FROM users WHERE email = 'teacher@northbridge.test')
FROM seq;
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 70)
INSERT INTO form_groups (id, created_at, updated_at, name, school_id)
SELECT 'bench-f-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Bench form ' || n,
       (SELECT school_id FROM users WHERE email = 'teacher@northbridge.test')
FROM seq;
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 2000)
INSERT INTO students (id, created_at, updated_at, forename, surname, school_id, year_group_id, form_group_id)
SELECT 'bench-p-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Pupil', 'Bench ' || n,
       (SELECT school_id FROM users WHERE email = 'teacher@northbridge.test'),
       'bench-y-' || (n % 7 + 1), 'bench-f-' || (n % 70 + 1)
FROM seq;
WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 49)
INSERT INTO users (id, created_at, updated_at, forename, surname, email, pro, activated, send_all_cohorts,
                   has_completed_tutorial, leader, disabled, school_id, role)
SELECT 'bench-t-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Bench', 'Teacher ' || n,
       'bench-teacher-' || n || '@northbridge.test', FALSE, TRUE, FALSE, TRUE, FALSE, FALSE,
       (SELECT school_id FROM users WHERE email = 'teacher@northbridge.test'), 'TEACHER'
FROM seq;
WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 499)
INSERT INTO notifications (id, created_at, updated_at, type, title, body, send_to_parent, send_to_pupil, filters, sender_id, school_id)
SELECT 'bench-n-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'ASSIGNMENT', 'Bench ' || n, '', FALSE, TRUE, '{}',
       CASE WHEN n / 10 = 0 THEN (SELECT id FROM users WHERE email = 'teacher@northbridge.test')
            ELSE 'bench-t-' || (n / 10) END,
       (SELECT school_id FROM users WHERE email = 'teacher@northbridge.test')
FROM seq;
WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 99999)
INSERT INTO submissions (id, created_at, updated_at, received_at, marked_at, token, notification_id, student_id)
SELECT 'bench-s-' || n, '2026-11-02 10:00:00', '2026-11-02 10:00:00',
       CASE WHEN n % 10 < 8 THEN '2026-11-02 10:00:00' END,
       CASE WHEN n % 10 BETWEEN 3 AND 7 THEN '2026-11-03 10:00:00' END,
       'bench-k-' || n, 'bench-n-' || (n / 200),
       'bench-p-' || (((n / 200) * 200 + n % 200) % 2000 + 1)
FROM seq;
