-- Read after bench/insights-fill-{sqlite,postgres}.sql by bench/insights.sh: the same SQL on
-- both databases.
-- Classes as a secondary school has them: 350 classes of about 29 pupils, every pupil in
-- five (so turnaround per class counts each mark in five classes).
WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 349)
INSERT INTO classes (id, created_at, updated_at, name, school_id)
SELECT 'bench-c-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Bench class ' || n,
       (SELECT school_id FROM users WHERE email = 'teacher@northbridge.test')
FROM seq;
WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 9999)
INSERT INTO class_students (class_id, student_id)
SELECT 'bench-c-' || ((n % 5) * 70 + (n / 5) % 70), 'bench-p-' || (n / 5 + 1) FROM seq;
-- The Reach tab's figure (issue 29): one message to all 2,000 pupils and their parents
-- (4,000 deliveries), sent, a third of them opened.
INSERT INTO notifications (id, created_at, updated_at, type, title, body, send_to_parent, send_to_pupil, filters, sender_id, school_id)
SELECT 'bench-reach', '2026-11-20 10:00:00', '2026-11-20 10:00:00', 'GENERAL', 'Bench reach', '', TRUE, TRUE, '{}', id, school_id
FROM users WHERE email = 'teacher@northbridge.test';
INSERT INTO deliveries (id, school_id, notification_id, student_id, audience, address, created_at, sent_at)
SELECT 'bench-r-' || a.audience || '-' || p.id, p.school_id, 'bench-reach', p.id, a.audience, 'someone@families.test',
       '2026-11-20 10:00:00', '2026-11-20 10:00:00'
FROM students p CROSS JOIN (SELECT 'pupil' AS audience UNION ALL SELECT 'parent') a WHERE p.id LIKE 'bench-p-%';
UPDATE deliveries SET opened_at = '2026-11-20 12:00:00'
WHERE notification_id = 'bench-reach' AND CAST(SUBSTR(student_id, 9) AS INTEGER) % 3 = 0;
