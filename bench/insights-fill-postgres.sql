-- The same as insights-fill-sqlite.sql, in PostgreSQL's date arithmetic.
UPDATE notifications SET submission_due_date =
  TIMESTAMP '2026-09-07 15:00:00' + (CAST(SUBSTR(id, 9) AS INTEGER) % 80) * INTERVAL '1 day'
WHERE id LIKE 'bench-n-%';
UPDATE submissions s SET
  received_at = CASE WHEN s.received_at IS NOT NULL THEN
    n.submission_due_date + ((CAST(SUBSTR(s.id, 9) AS INTEGER) % 48) - 36) * INTERVAL '1 hour' END,
  feedback_sentiment = CASE WHEN s.marked_at IS NOT NULL THEN
    CASE CAST(SUBSTR(s.id, 9) AS INTEGER) % 3 WHEN 0 THEN 'POSITIVE' WHEN 1 THEN 'NEUTRAL' ELSE 'NEGATIVE' END END
FROM notifications n WHERE n.id = s.notification_id AND s.id LIKE 'bench-s-%';
UPDATE submissions SET marked_at = received_at + (CAST(SUBSTR(id, 9) AS INTEGER) % 97 + 1) * INTERVAL '1 hour'
WHERE id LIKE 'bench-s-%' AND marked_at IS NOT NULL;
UPDATE submissions SET feedback_released_at = marked_at WHERE id LIKE 'bench-s-%' AND marked_at IS NOT NULL;
INSERT INTO deliveries (id, school_id, notification_id, student_id, audience, address, not_sent_reason,
                        created_at, sent_at, bounced_at)
SELECT 'bench-d-' || SUBSTR(s.id, 9), n.school_id, s.notification_id, s.student_id, 'parent',
       CASE WHEN CAST(SUBSTR(s.id, 9) AS INTEGER) % 5 = 3 THEN NULL ELSE 'parent@families.test' END,
       CASE WHEN CAST(SUBSTR(s.id, 9) AS INTEGER) % 5 = 3 THEN 'NO_ADDRESS' END,
       n.submission_due_date - INTERVAL '7 days',
       CASE WHEN CAST(SUBSTR(s.id, 9) AS INTEGER) % 5 < 3 THEN n.submission_due_date - INTERVAL '7 days' END,
       CASE WHEN CAST(SUBSTR(s.id, 9) AS INTEGER) % 5 = 2 THEN n.submission_due_date - INTERVAL '6 days' END
FROM submissions s JOIN notifications n ON n.id = s.notification_id WHERE s.id LIKE 'bench-s-%';
