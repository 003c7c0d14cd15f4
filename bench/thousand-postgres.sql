-- bench/thousand.sh, PostgreSQL: SCHOOLS schools (psql variable :schools) in trusts of 50,
-- on a database the migrations made (voicemark migrate). Per school: 7 year groups, 70
-- form groups, 200 classes (three per pupil, about 30 pupils each, one teacher each),
-- 2,000 pupils, 100 staff (an admin, four leaders, 95 teachers; a MAT user in the first
-- school of each trust), 200 assignments over a 12-week term sent to 100 pupils each, so
-- 20,000 submissions, with a receipt each, and a parent delivery for every tenth
-- assignment; templates, tasks, reports and voice notes for the leaders.
-- Ids are short and zero-padded so that each table's primary key grows in order.
-- The "random" spreads come from a multiplicative hash of the row number (h(n) below), so
-- every run makes the same data.
\set ON_ERROR_STOP on
SET synchronous_commit = off;
SET maintenance_work_mem = '1GB';
SET max_parallel_maintenance_workers = 2;
SET work_mem = '256MB';
-- Foreign keys are not checked row by row during the load (their triggers are off for this
-- session only; the schema is untouched): every id below is made from the same numbers as
-- the row it points at. bench/thousand.sh checks them all afterwards.
SET session_replication_role = replica;

\echo trusts and schools
INSERT INTO trusts (id, name, created_at, updated_at)
SELECT 'bt-' || lpad(t::text, 2, '0'), 'Bench Trust ' || t, '2026-08-01', '2026-08-01'
FROM generate_series(1, (:schools + 49) / 50) t;
INSERT INTO schools (id, trust_id, created_at, updated_at, name, postcode, stripe_product_id, seats)
SELECT 'bs-' || lpad(s::text, 4, '0'), 'bt-' || lpad(((s - 1) / 50 + 1)::text, 2, '0'),
       '2026-08-01', '2026-08-01', 'Bench School ' || s, 'BN' || (s % 90 + 10) || ' 1AA', 'manual:pro', 120
FROM generate_series(1, :schools) s;

\echo year, form groups and classes
INSERT INTO year_groups (id, created_at, updated_at, name, school_id)
SELECT 'by-' || lpad(s::text, 4, '0') || '-' || y, '2026-08-01', '2026-08-01', 'Year ' || (y + 7),
       'bs-' || lpad(s::text, 4, '0')
FROM generate_series(1, :schools) s, generate_series(0, 6) y;
INSERT INTO form_groups (id, created_at, updated_at, name, school_id)
SELECT 'bf-' || lpad(s::text, 4, '0') || '-' || lpad(f::text, 2, '0'), '2026-08-01', '2026-08-01',
       (f / 10 + 7) || substr('ABCDEFGHJK', f % 10 + 1, 1), 'bs-' || lpad(s::text, 4, '0')
FROM generate_series(1, :schools) s, generate_series(0, 69) f;
INSERT INTO classes (id, created_at, updated_at, name, school_id)
SELECT 'bc-' || lpad(s::text, 4, '0') || '-' || lpad(c::text, 3, '0'), '2026-08-01', '2026-08-01',
       (ARRAY['English','Maths','Science','History','Geography','French','Art','Music','Computing','PE'])[c % 10 + 1]
         || ' ' || (c / 10 + 1), 'bs-' || lpad(s::text, 4, '0')
FROM generate_series(1, :schools) s, generate_series(0, 199) c;

\echo staff
-- User u of a school: 0 the admin, 1-4 leaders, 5-99 teachers (the last of the trust's first
-- school a MAT user).
INSERT INTO users (id, created_at, updated_at, forename, surname, email, email_verified, pro, activated,
                   has_completed_tutorial, leader, school_id, role, last_active)
SELECT 'bu-' || lpad(s::text, 4, '0') || '-' || lpad(u::text, 2, '0'), '2026-08-01', '2026-08-01',
       (ARRAY['Amy','Ben','Chloe','Dan','Ella','Finn','Grace','Harry','Isla','Jack','Kate','Liam','Maya','Noah',
              'Olivia','Priya','Quinn','Ruth','Sam','Tom'])[u % 20 + 1],
       (ARRAY['Adams','Baker','Clarke','Davies','Evans','Fisher','Green','Hughes','Iqbal','Jones','Khan','Lewis',
              'Morris','Nash','Owen','Patel','Reid','Smith','Taylor','Walker','Young','Zhang'])[(u * 7 + s) % 22 + 1],
       'staff' || u || '@school' || s || '.bench.test', '2026-08-01', TRUE, TRUE, TRUE,
       u BETWEEN 1 AND 4, 'bs-' || lpad(s::text, 4, '0'),
       CASE WHEN u = 0 THEN 'ADMIN' WHEN u = 99 AND s % 50 = 1 THEN 'MAT_USER' ELSE 'TEACHER' END,
       TIMESTAMP '2026-11-27 08:00' + (u % 9) * INTERVAL '1 hour'
FROM generate_series(1, :schools) s, generate_series(0, 99) u;
INSERT INTO class_staff (class_id, user_id)
SELECT 'bc-' || lpad(s::text, 4, '0') || '-' || lpad(c::text, 3, '0'),
       'bu-' || lpad(s::text, 4, '0') || '-' || lpad((5 + c % 95)::text, 2, '0')
FROM generate_series(1, :schools) s, generate_series(0, 199) c;

\echo pupils
-- Pupil i: year i % 7, form (i % 7) * 10 + (i / 7) % 10; parent e-mail for 85 %, own
-- e-mail for the older years.
INSERT INTO students (id, created_at, updated_at, forename, surname, email, parent_email, upn, school_id,
                      year_group_id, form_group_id)
SELECT 'bp-' || lpad(s::text, 4, '0') || '-' || lpad(i::text, 4, '0'), '2026-08-01', '2026-08-01',
       (ARRAY['Aaliyah','Alfie','Amelia','Archie','Ava','Charlie','Daisy','Ethan','Evie','Freddie','George',
              'Harper','Henry','Ibrahim','Isabella','Jacob','Jessica','Leo','Lily','Logan','Lucas','Mia',
              'Mohammed','Muhammad','Noah','Oliver','Oscar','Poppy','Rosie','Sophia','Theo','Willow','Zara',
              'Zainab','Arthur','Ivy','Jack','Layla','Reuben','Sienna'])[(i * 13 + s) % 40 + 1],
       (ARRAY['Ahmed','Ali','Allen','Bailey','Begum','Bell','Brown','Campbell','Carter','Chen','Clarke',
              'Collins','Cooper','Davies','Edwards','Evans','Green','Hall','Harris','Hill','Hughes','Hussain',
              'Jackson','James','Johnson','Jones','King','Lee','Lewis','Martin','Mitchell','Moore','Morgan',
              'Murphy','Nguyen','Parker','Patel','Phillips','Price','Roberts','Robinson','Scott','Shah','Singh',
              'Smith','Taylor','Thomas','Thompson','Turner','Walker','Ward','Watson','White','Williams','Wilson',
              'Wood','Wright','Young','de Souza','O''Brien'])[(i * 31 + s * 7) % 60 + 1],
       CASE WHEN i % 7 >= 4 THEN 'p' || i || '.s' || s || '@pupils.bench.test' END,
       CASE WHEN (i * 2654435761) % 100 < 85 THEN 'parent' || i || '.s' || s || '@families.bench.test' END,
       'B' || lpad(s::text, 4, '0') || lpad(i::text, 5, '0'),
       'bs-' || lpad(s::text, 4, '0'), 'by-' || lpad(s::text, 4, '0') || '-' || (i % 7),
       'bf-' || lpad(s::text, 4, '0') || '-' || lpad(((i % 7) * 10 + (i / 7) % 10)::text, 2, '0')
FROM generate_series(1, :schools) s, generate_series(0, 1999) i;
-- Three classes a pupil, in blocks of 30: block b = i / 30 (0-66) is in classes b, b + 67
-- and b + 134 (mod 200).
INSERT INTO class_students (class_id, student_id)
SELECT 'bc-' || lpad(s::text, 4, '0') || '-' || lpad(((i / 30 + m * 67) % 200)::text, 3, '0'),
       'bp-' || lpad(s::text, 4, '0') || '-' || lpad(i::text, 4, '0')
FROM generate_series(1, :schools) s, generate_series(0, 1999) i, generate_series(0, 2) m;

\echo assignments
-- Assignment k of a school: set by teacher 5 + k % 95 on day k * 80 / 200 of the term
-- (07/09 to 25/11/2026), due a week later; every tenth also goes to parents.
INSERT INTO notifications (id, created_at, updated_at, type, title, body, send_date, submission_due_date,
                           send_to_parent, send_to_pupil, filters, sender_id, school_id)
SELECT 'bn-' || lpad(s::text, 4, '0') || '-' || lpad(k::text, 3, '0'), d, d, 'ASSIGNMENT',
       (ARRAY['Essay','Worksheet','Reading log','Lab report','Practice questions','Poster','Quiz',
              'Source analysis','Composition','Project'])[k % 10 + 1] || ' ' || (k / 10 + 1),
       'Hand in by the due date.', d, d + INTERVAL '7 days', k % 10 = 0, TRUE, '{}',
       'bu-' || lpad(s::text, 4, '0') || '-' || lpad((5 + k % 95)::text, 2, '0'), 'bs-' || lpad(s::text, 4, '0')
FROM generate_series(1, :schools) s, generate_series(0, 199) k,
     LATERAL (SELECT TIMESTAMP '2026-09-07 08:00' + (k * 80 / 200) * INTERVAL '1 day'
                     + (k % 8) * INTERVAL '1 hour' AS d) t;

\echo submissions
-- Submission j of assignment k goes to pupil (k * 100 + j) % 2000: every pupil has ten.
-- 85 % handed in within the week (if that is before 28/11/2026 08:00), 10 % of them late;
-- 85 % of hand-ins to assignments due before 14/11 are marked, 35 % of the later ones,
-- between 1 and 120 hours after (none after 28/11 08:00); 2 % of marks held; sentiments 50/35/15.
-- OFFSET 0 keeps each level a level of its own: pulled up into one, PostgreSQL would work
-- out `received` again wherever `marked` names it (7.2 s instead of 1.7 s for 400,000 rows).
INSERT INTO submissions (id, created_at, updated_at, received_at, marked_at, feedback, feedback_sentiment,
                         token, notification_id, student_id, feedback_released_at)
SELECT id, d, coalesce(marked, received, d), received, marked,
       CASE WHEN marked IS NOT NULL THEN
         (ARRAY['Well done: clear and careful work.','Good effort; check your spelling.',
                'Great detail in the second half.','Show your working next time.',
                'Excellent: a real step forward.'])[h % 5 + 1] END,
       CASE WHEN marked IS NOT NULL THEN
         CASE WHEN h % 20 < 10 THEN 'POSITIVE' WHEN h % 20 < 17 THEN 'NEUTRAL' ELSE 'NEGATIVE' END END,
       'bk-' || lpad(n::text, 9, '0') || '-' || md5(n::text), notification_id, student_id,
       CASE WHEN marked IS NOT NULL AND h % 50 <> 7 THEN marked END
FROM (
  SELECT n, h, d, id, notification_id, student_id, received,
         CASE WHEN received IS NOT NULL AND h2 < CASE WHEN d < TIMESTAMP '2026-11-07' THEN 85 ELSE 35 END
                   AND received + (1 + h % 120) * INTERVAL '1 hour' < TIMESTAMP '2026-11-28 08:00'
              THEN received + (1 + h % 120) * INTERVAL '1 hour' END AS marked
  FROM (
    SELECT n, h, h2, d, id, notification_id, student_id,
           CASE WHEN h < 85 AND d + r < TIMESTAMP '2026-11-28 08:00' THEN d + r END AS received
    FROM (
      SELECT ((s - 1) * 200 + k) * 100 + j AS n,
             ((((s - 1) * 200 + k) * 100 + j)::bigint * 2654435761 % 4294967291) % 100 AS h,
             ((((s - 1) * 200 + k) * 100 + j)::bigint * 40503 % 65521) % 100 AS h2,
             TIMESTAMP '2026-09-07 08:00' + (k * 80 / 200) * INTERVAL '1 day' + (k % 8) * INTERVAL '1 hour' AS d,
             -- mostly within the week, one in ten up to three days late
             (((((s - 1) * 200 + k) * 100 + j)::bigint * 69069 % 1000003) % CASE WHEN j % 10 = 3 THEN 240 ELSE 168 END)
               * INTERVAL '1 hour' + 30 * INTERVAL '1 minute' AS r,
             'bx-' || lpad((((s - 1) * 200 + k) * 100 + j)::text, 9, '0') AS id,
             'bn-' || lpad(s::text, 4, '0') || '-' || lpad(k::text, 3, '0') AS notification_id,
             'bp-' || lpad(s::text, 4, '0') || '-' || lpad(((k * 100 + j) % 2000)::text, 4, '0') AS student_id
      FROM generate_series(1, :schools) s, generate_series(0, 199) k, generate_series(0, 99) j
    OFFSET 0) a
  OFFSET 0) b
OFFSET 0) c;

\echo receipts and parent deliveries
INSERT INTO notification_receipts (notification_id, student_id, sent_at)
SELECT notification_id, student_id, created_at FROM submissions WHERE id LIKE 'bx-%';
INSERT INTO deliveries (id, school_id, notification_id, student_id, audience, address, not_sent_reason,
                        created_at, sent_at, bounced_at, opened_at)
SELECT 'bd-' || substr(sub.id, 4), n.school_id, sub.notification_id, sub.student_id, 'parent', p.parent_email,
       CASE WHEN p.parent_email IS NULL THEN 'NO_ADDRESS' END, n.created_at,
       CASE WHEN p.parent_email IS NOT NULL THEN n.created_at + INTERVAL '2 minutes' END,
       CASE WHEN p.parent_email IS NOT NULL AND substr(sub.id, 12, 1) = '7' AND substr(sub.id, 10, 1) = '3'
            THEN n.created_at + INTERVAL '5 minutes' END,
       CASE WHEN p.parent_email IS NOT NULL AND substr(sub.id, 12, 1) IN ('0', '2', '4', '6', '8')
            THEN n.created_at + INTERVAL '6 hours' END
FROM notifications n
JOIN submissions sub ON sub.notification_id = n.id
JOIN students p ON p.id = sub.student_id
WHERE n.id LIKE 'bn-%' AND n.send_to_parent;

\echo leaders: templates, tasks, reports, voice notes
-- Five school templates per school (by leader 1), three questions each; each leader has
-- 20 tasks (one template each, 15 submitted), 3 reports; every member of staff 4 voice notes.
INSERT INTO tasks (id, created_at, updated_at, title, visibility, tags, user_id, school_id)
SELECT 'bm-' || lpad(s::text, 4, '0') || '-' || m, '2026-08-20', '2026-08-20',
       (ARRAY['Lesson observation','Book look','Learning walk','Pupil voice','Department review'])[m + 1],
       'SCHOOL', '["Quality"]', 'bu-' || lpad(s::text, 4, '0') || '-01', 'bs-' || lpad(s::text, 4, '0')
FROM generate_series(1, :schools) s, generate_series(0, 4) m;
INSERT INTO questions (id, created_at, updated_at, text, required, position, task_id)
SELECT 'bq-' || lpad(s::text, 4, '0') || '-' || m || '-' || q, '2026-08-20', '2026-08-20',
       (ARRAY['What went well?','Even better if?','Next steps'])[q + 1], q = 0, q,
       'bm-' || lpad(s::text, 4, '0') || '-' || m
FROM generate_series(1, :schools) s, generate_series(0, 4) m, generate_series(0, 2) q;
INSERT INTO task_submissions (id, created_at, updated_at, draft, title, submitted_at, tags, task_id, user_id, school_id)
SELECT 'bw-' || lpad(s::text, 4, '0') || '-' || l || '-' || lpad(w::text, 2, '0'), d, d + INTERVAL '1 day',
       w % 4 = 3, 'Visit ' || (w + 1), CASE WHEN w % 4 <> 3 THEN d + INTERVAL '1 day' END, '["Term 1"]',
       'bm-' || lpad(s::text, 4, '0') || '-' || (w % 5), 'bu-' || lpad(s::text, 4, '0') || '-0' || l,
       'bs-' || lpad(s::text, 4, '0')
FROM generate_series(1, :schools) s, generate_series(1, 4) l, generate_series(0, 19) w,
     LATERAL (SELECT TIMESTAMP '2026-09-08 10:00' + w * 4 * INTERVAL '1 day' AS d) t;
INSERT INTO question_responses (id, created_at, updated_at, submission_id, question_id, answer)
SELECT 'br-' || substr(ts.id, 4) || '-' || q, ts.created_at, ts.updated_at, ts.id,
       'bq-' || substr(ts.task_id, 4) || '-' || q, 'Pupils were engaged and the pace was good.'
FROM task_submissions ts, generate_series(0, 2) q WHERE ts.id LIKE 'bw-%';
INSERT INTO reports (id, school_id, user_id, title, instructions, body, task_ids, voice_note_ids, created_at, updated_at)
SELECT 'bz-' || lpad(s::text, 4, '0') || '-' || l || '-' || r, 'bs-' || lpad(s::text, 4, '0'),
       'bu-' || lpad(s::text, 4, '0') || '-0' || l, 'Half-term summary ' || (r + 1), 'Summarise strengths.',
       repeat('A paragraph of the report. ', 40), '[]', '[]',
       TIMESTAMP '2026-10-20 16:00' + r * INTERVAL '7 days', TIMESTAMP '2026-10-20 16:00' + r * INTERVAL '7 days'
FROM generate_series(1, :schools) s, generate_series(1, 4) l, generate_series(0, 2) r;
INSERT INTO stored_files (id, key, school_id, user_id, filename, content_type, size_bytes, uploaded_at, created_at,
                          kind, in_personal_folder, updated_at)
SELECT 'bv-' || lpad(s::text, 4, '0') || '-' || lpad(u::text, 2, '0') || '-' || v,
       'voice-notes/bench/' || s || '/' || u || '/' || v || '.webm', 'bs-' || lpad(s::text, 4, '0'),
       'bu-' || lpad(s::text, 4, '0') || '-' || lpad(u::text, 2, '0'), 'Voice note ' || (v + 1) || '.webm',
       'audio/webm', 48000 + v * 1000, d, d, 'VOICE_NOTE', TRUE, d
FROM generate_series(1, :schools) s, generate_series(0, 99) u, generate_series(0, 3) v,
     LATERAL (SELECT TIMESTAMP '2026-09-10 12:00' + (u + v * 17) * INTERVAL '1 day' / 2 AS d) t;
