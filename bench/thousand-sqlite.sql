-- bench/thousand.sh, SQLite: the schools of bench/thousand-postgres.sql (read it for what a
-- school holds), in SQLite's dialect: recursive CTEs for generate_series, printf for lpad,
-- JSON arrays for the name lists, datetime() for the dates. `:schools` is replaced by the
-- number of schools before it runs; all schools are in one trust up to 50.
\echo trusts and schools
WITH RECURSIVE t(t) AS (SELECT 1 UNION ALL SELECT t + 1 FROM t WHERE t < (:schools + 49) / 50)
INSERT INTO trusts (id, name, created_at, updated_at)
SELECT 'bt-' || printf('%02d', t), 'Bench Trust ' || t, '2026-08-01 00:00:00', '2026-08-01 00:00:00' FROM t;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools)
INSERT INTO schools (id, trust_id, created_at, updated_at, name, postcode, stripe_product_id, seats)
SELECT 'bs-' || printf('%04d', s), 'bt-' || printf('%02d', (s - 1) / 50 + 1),
       '2026-08-01 00:00:00', '2026-08-01 00:00:00', 'Bench School ' || s, 'BN' || (s % 90 + 10) || ' 1AA', 'manual:pro', 120
FROM s;
\echo year, form groups and classes
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  y(y) AS (SELECT 0 UNION ALL SELECT y + 1 FROM y WHERE y < 6)
INSERT INTO year_groups (id, created_at, updated_at, name, school_id)
SELECT 'by-' || printf('%04d', s) || '-' || y, '2026-08-01 00:00:00', '2026-08-01 00:00:00', 'Year ' || (y + 7),
       'bs-' || printf('%04d', s)
FROM s, y;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  f(f) AS (SELECT 0 UNION ALL SELECT f + 1 FROM f WHERE f < 69)
INSERT INTO form_groups (id, created_at, updated_at, name, school_id)
SELECT 'bf-' || printf('%04d', s) || '-' || printf('%02d', f), '2026-08-01 00:00:00', '2026-08-01 00:00:00',
       (f / 10 + 7) || substr('ABCDEFGHJK', f % 10 + 1, 1), 'bs-' || printf('%04d', s)
FROM s, f;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  c(c) AS (SELECT 0 UNION ALL SELECT c + 1 FROM c WHERE c < 199)
INSERT INTO classes (id, created_at, updated_at, name, school_id)
SELECT 'bc-' || printf('%04d', s) || '-' || printf('%03d', c), '2026-08-01 00:00:00', '2026-08-01 00:00:00',
       json_extract('["English","Maths","Science","History","Geography","French","Art","Music","Computing","PE"]',
                    '$[' || (c % 10) || ']') || ' ' || (c / 10 + 1), 'bs-' || printf('%04d', s)
FROM s, c;
\echo staff
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  u(u) AS (SELECT 0 UNION ALL SELECT u + 1 FROM u WHERE u < 99)
INSERT INTO users (id, created_at, updated_at, forename, surname, email, email_verified, pro, activated,
                   has_completed_tutorial, leader, school_id, role, last_active)
SELECT 'bu-' || printf('%04d', s) || '-' || printf('%02d', u), '2026-08-01 00:00:00', '2026-08-01 00:00:00',
       json_extract('["Amy","Ben","Chloe","Dan","Ella","Finn","Grace","Harry","Isla","Jack","Kate","Liam","Maya","Noah",
                      "Olivia","Priya","Quinn","Ruth","Sam","Tom"]', '$[' || (u % 20) || ']'),
       json_extract('["Adams","Baker","Clarke","Davies","Evans","Fisher","Green","Hughes","Iqbal","Jones","Khan","Lewis",
                      "Morris","Nash","Owen","Patel","Reid","Smith","Taylor","Walker","Young","Zhang"]', '$[' || ((u * 7 + s) % 22) || ']'),
       'staff' || u || '@school' || s || '.bench.test', '2026-08-01 00:00:00', TRUE, TRUE, TRUE,
       u BETWEEN 1 AND 4, 'bs-' || printf('%04d', s),
       CASE WHEN u = 0 THEN 'ADMIN' WHEN u = 99 AND s % 50 = 1 THEN 'MAT_USER' ELSE 'TEACHER' END,
       datetime('2026-11-27 08:00:00', '+' || (u % 9) || ' hours')
FROM s, u;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  c(c) AS (SELECT 0 UNION ALL SELECT c + 1 FROM c WHERE c < 199)
INSERT INTO class_staff (class_id, user_id)
SELECT 'bc-' || printf('%04d', s) || '-' || printf('%03d', c), 'bu-' || printf('%04d', s) || '-' || printf('%02d', 5 + c % 95)
FROM s, c;
\echo pupils
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  i(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM i WHERE i < 1999)
INSERT INTO students (id, created_at, updated_at, forename, surname, email, parent_email, upn, school_id,
                      year_group_id, form_group_id)
SELECT 'bp-' || printf('%04d', s) || '-' || printf('%04d', i), '2026-08-01 00:00:00', '2026-08-01 00:00:00',
       json_extract('["Aaliyah","Alfie","Amelia","Archie","Ava","Charlie","Daisy","Ethan","Evie","Freddie","George",
                      "Harper","Henry","Ibrahim","Isabella","Jacob","Jessica","Leo","Lily","Logan","Lucas","Mia",
                      "Mohammed","Muhammad","Noah","Oliver","Oscar","Poppy","Rosie","Sophia","Theo","Willow","Zara",
                      "Zainab","Arthur","Ivy","Jack","Layla","Reuben","Sienna"]', '$[' || ((i * 13 + s) % 40) || ']'),
       json_extract('["Ahmed","Ali","Allen","Bailey","Begum","Bell","Brown","Campbell","Carter","Chen","Clarke",
                      "Collins","Cooper","Davies","Edwards","Evans","Green","Hall","Harris","Hill","Hughes","Hussain",
                      "Jackson","James","Johnson","Jones","King","Lee","Lewis","Martin","Mitchell","Moore","Morgan",
                      "Murphy","Nguyen","Parker","Patel","Phillips","Price","Roberts","Robinson","Scott","Shah","Singh",
                      "Smith","Taylor","Thomas","Thompson","Turner","Walker","Ward","Watson","White","Williams","Wilson",
                      "Wood","Wright","Young","de Souza","O''Brien"]', '$[' || ((i * 31 + s * 7) % 60) || ']'),
       CASE WHEN i % 7 >= 4 THEN 'p' || i || '.s' || s || '@pupils.bench.test' END,
       CASE WHEN (i * 2654435761) % 100 < 85 THEN 'parent' || i || '.s' || s || '@families.bench.test' END,
       'B' || printf('%04d', s) || printf('%05d', i),
       'bs-' || printf('%04d', s), 'by-' || printf('%04d', s) || '-' || (i % 7),
       'bf-' || printf('%04d', s) || '-' || printf('%02d', (i % 7) * 10 + (i / 7) % 10)
FROM s, i;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  i(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM i WHERE i < 1999),
  m(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM m WHERE m < 2)
INSERT INTO class_students (class_id, student_id)
SELECT 'bc-' || printf('%04d', s) || '-' || printf('%03d', (i / 30 + m * 67) % 200),
       'bp-' || printf('%04d', s) || '-' || printf('%04d', i)
FROM s, i, m;
\echo assignments
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < 199)
INSERT INTO notifications (id, created_at, updated_at, type, title, body, send_date, submission_due_date,
                           send_to_parent, send_to_pupil, filters, sender_id, school_id)
SELECT 'bn-' || printf('%04d', s) || '-' || printf('%03d', k), d, d, 'ASSIGNMENT',
       json_extract('["Essay","Worksheet","Reading log","Lab report","Practice questions","Poster","Quiz",
                      "Source analysis","Composition","Project"]', '$[' || (k % 10) || ']') || ' ' || (k / 10 + 1),
       'Hand in by the due date.', d, datetime(d, '+7 days'), k % 10 = 0, TRUE, '{}',
       'bu-' || printf('%04d', s) || '-' || printf('%02d', 5 + k % 95), 'bs-' || printf('%04d', s)
FROM (SELECT s, k, datetime('2026-09-07 08:00:00', '+' || (k * 80 / 200) || ' days', '+' || (k % 8) || ' hours') AS d
      FROM s, k);
\echo submissions
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  k(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM k WHERE k < 199),
  j(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM j WHERE j < 99)
INSERT INTO submissions (id, created_at, updated_at, received_at, marked_at, feedback, feedback_sentiment,
                         token, notification_id, student_id, feedback_released_at)
SELECT id, d, coalesce(marked, received, d), received, marked,
       CASE WHEN marked IS NOT NULL THEN
         json_extract('["Well done: clear and careful work.","Good effort; check your spelling.",
                        "Great detail in the second half.","Show your working next time.",
                        "Excellent: a real step forward."]', '$[' || (h % 5) || ']') END,
       CASE WHEN marked IS NOT NULL THEN
         CASE WHEN h % 20 < 10 THEN 'POSITIVE' WHEN h % 20 < 17 THEN 'NEUTRAL' ELSE 'NEGATIVE' END END,
       'bk-' || printf('%09d', n) || '-' || lower(hex(randomblob(16))), notification_id, student_id,
       CASE WHEN marked IS NOT NULL AND h % 50 <> 7 THEN marked END
FROM (
  SELECT n, h, d, id, notification_id, student_id, received,
         CASE WHEN received IS NOT NULL AND h2 < CASE WHEN d < '2026-11-07' THEN 85 ELSE 35 END
                   AND datetime(received, '+' || (1 + h % 120) || ' hours') < '2026-11-28 08:00:00'
              THEN datetime(received, '+' || (1 + h % 120) || ' hours') END AS marked
  FROM (
    SELECT n, h, h2, d, id, notification_id, student_id,
           CASE WHEN h < 85 AND datetime(d, '+' || r || ' minutes') < '2026-11-28 08:00:00'
                THEN datetime(d, '+' || r || ' minutes') END AS received
    FROM (
      SELECT n, (n * 2654435761 % 4294967291) % 100 AS h, (n * 40503 % 65521) % 100 AS h2,
             datetime('2026-09-07 08:00:00', '+' || (k * 80 / 200) || ' days', '+' || (k % 8) || ' hours') AS d,
             ((n * 69069 % 1000003) % CASE WHEN j % 10 = 3 THEN 240 ELSE 168 END) * 60 + 30 AS r,
             'bx-' || printf('%09d', n) AS id,
             'bn-' || printf('%04d', s) || '-' || printf('%03d', k) AS notification_id,
             'bp-' || printf('%04d', s) || '-' || printf('%04d', (k * 100 + j) % 2000) AS student_id
      FROM (SELECT s, k, j, ((s - 1) * 200 + k) * 100 + j AS n FROM s, k, j)
    )
  )
);
\echo receipts and parent deliveries
INSERT INTO notification_receipts (notification_id, student_id, sent_at)
SELECT notification_id, student_id, created_at FROM submissions WHERE id LIKE 'bx-%';
INSERT INTO deliveries (id, school_id, notification_id, student_id, audience, address, not_sent_reason,
                        created_at, sent_at, bounced_at, opened_at)
SELECT 'bd-' || substr(sub.id, 4), n.school_id, sub.notification_id, sub.student_id, 'parent', p.parent_email,
       CASE WHEN p.parent_email IS NULL THEN 'NO_ADDRESS' END, n.created_at,
       CASE WHEN p.parent_email IS NOT NULL THEN datetime(n.created_at, '+2 minutes') END,
       CASE WHEN p.parent_email IS NOT NULL AND substr(sub.id, 12, 1) = '7' AND substr(sub.id, 10, 1) = '3'
            THEN datetime(n.created_at, '+5 minutes') END,
       CASE WHEN p.parent_email IS NOT NULL AND substr(sub.id, 12, 1) IN ('0', '2', '4', '6', '8')
            THEN datetime(n.created_at, '+6 hours') END
FROM notifications n
JOIN submissions sub ON sub.notification_id = n.id
JOIN students p ON p.id = sub.student_id
WHERE n.id LIKE 'bn-%' AND n.send_to_parent;
\echo leaders: templates, tasks, reports, voice notes
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  m(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM m WHERE m < 4)
INSERT INTO tasks (id, created_at, updated_at, title, visibility, tags, user_id, school_id)
SELECT 'bm-' || printf('%04d', s) || '-' || m, '2026-08-20 00:00:00', '2026-08-20 00:00:00',
       json_extract('["Lesson observation","Book look","Learning walk","Pupil voice","Department review"]', '$[' || m || ']'),
       'SCHOOL', '["Quality"]', 'bu-' || printf('%04d', s) || '-01', 'bs-' || printf('%04d', s)
FROM s, m;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  m(m) AS (SELECT 0 UNION ALL SELECT m + 1 FROM m WHERE m < 4),
  q(q) AS (SELECT 0 UNION ALL SELECT q + 1 FROM q WHERE q < 2)
INSERT INTO questions (id, created_at, updated_at, text, required, position, task_id)
SELECT 'bq-' || printf('%04d', s) || '-' || m || '-' || q, '2026-08-20 00:00:00', '2026-08-20 00:00:00',
       json_extract('["What went well?","Even better if?","Next steps"]', '$[' || q || ']'), q = 0, q,
       'bm-' || printf('%04d', s) || '-' || m
FROM s, m, q;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  l(l) AS (SELECT 1 UNION ALL SELECT l + 1 FROM l WHERE l < 4),
  w(w) AS (SELECT 0 UNION ALL SELECT w + 1 FROM w WHERE w < 19)
INSERT INTO task_submissions (id, created_at, updated_at, draft, title, submitted_at, tags, task_id, user_id, school_id)
SELECT 'bw-' || printf('%04d', s) || '-' || l || '-' || printf('%02d', w), d, datetime(d, '+1 day'),
       w % 4 = 3, 'Visit ' || (w + 1), CASE WHEN w % 4 <> 3 THEN datetime(d, '+1 day') END, '["Term 1"]',
       'bm-' || printf('%04d', s) || '-' || (w % 5), 'bu-' || printf('%04d', s) || '-0' || l,
       'bs-' || printf('%04d', s)
FROM (SELECT s, l, w, datetime('2026-09-08 10:00:00', '+' || (w * 4) || ' days') AS d FROM s, l, w);
WITH RECURSIVE q(q) AS (SELECT 0 UNION ALL SELECT q + 1 FROM q WHERE q < 2)
INSERT INTO question_responses (id, created_at, updated_at, submission_id, question_id, answer)
SELECT 'br-' || substr(ts.id, 4) || '-' || q, ts.created_at, ts.updated_at, ts.id,
       'bq-' || substr(ts.task_id, 4) || '-' || q, 'Pupils were engaged and the pace was good.'
FROM task_submissions ts, q WHERE ts.id LIKE 'bw-%';
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  l(l) AS (SELECT 1 UNION ALL SELECT l + 1 FROM l WHERE l < 4),
  r(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM r WHERE r < 2)
INSERT INTO reports (id, school_id, user_id, title, instructions, body, task_ids, voice_note_ids, created_at, updated_at)
SELECT 'bz-' || printf('%04d', s) || '-' || l || '-' || r, 'bs-' || printf('%04d', s),
       'bu-' || printf('%04d', s) || '-0' || l, 'Half-term summary ' || (r + 1), 'Summarise strengths.',
       replace(printf('%.40c', '*'), '*', 'A paragraph of the report. '), '[]', '[]',
       datetime('2026-10-20 16:00:00', '+' || (r * 7) || ' days'), datetime('2026-10-20 16:00:00', '+' || (r * 7) || ' days')
FROM s, l, r;
WITH RECURSIVE s(s) AS (SELECT 1 UNION ALL SELECT s + 1 FROM s WHERE s < :schools),
  u(u) AS (SELECT 0 UNION ALL SELECT u + 1 FROM u WHERE u < 99),
  v(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM v WHERE v < 3)
INSERT INTO stored_files (id, key, school_id, user_id, filename, content_type, size_bytes, uploaded_at, created_at,
                          kind, in_personal_folder, updated_at)
SELECT 'bv-' || printf('%04d', s) || '-' || printf('%02d', u) || '-' || v,
       'voice-notes/bench/' || s || '/' || u || '/' || v || '.webm', 'bs-' || printf('%04d', s),
       'bu-' || printf('%04d', s) || '-' || printf('%02d', u), 'Voice note ' || (v + 1) || '.webm',
       'audio/webm', 48000 + v * 1000, d, d, 'VOICE_NOTE', TRUE, d
FROM (SELECT s, u, v, datetime('2026-09-10 12:00:00', '+' || ((u + v * 17) * 12) || ' hours') AS d FROM s, u, v);
