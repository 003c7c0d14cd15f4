-- Insights' bench data on top of bench/fill.sql (SQLite): due dates over 80 days from
-- 07/09/2026, hand-ins from 36 hours before to 11 hours after the due date, marks 1 to 97
-- hours after the hand-in with a sentiment, and a parent delivery per submission (40 % sent,
-- 20 % bounced, 20 % not sent, 20 % waiting).
UPDATE notifications SET submission_due_date =
  datetime('2026-09-07 15:00:00', (CAST(SUBSTR(id, 9) AS INTEGER) % 80) || ' days')
WHERE id LIKE 'bench-n-%';
UPDATE submissions SET
  received_at = CASE WHEN received_at IS NOT NULL THEN datetime(
    (SELECT submission_due_date FROM notifications n WHERE n.id = submissions.notification_id),
    ((CAST(SUBSTR(id, 9) AS INTEGER) % 48) - 36) || ' hours') END,
  feedback_sentiment = CASE WHEN marked_at IS NOT NULL THEN
    CASE CAST(SUBSTR(id, 9) AS INTEGER) % 3 WHEN 0 THEN 'POSITIVE' WHEN 1 THEN 'NEUTRAL' ELSE 'NEGATIVE' END END
WHERE id LIKE 'bench-s-%';
UPDATE submissions SET marked_at = datetime(received_at, (CAST(SUBSTR(id, 9) AS INTEGER) % 97 + 1) || ' hours'),
  feedback_released_at = NULL
WHERE id LIKE 'bench-s-%' AND marked_at IS NOT NULL;
UPDATE submissions SET feedback_released_at = marked_at WHERE id LIKE 'bench-s-%' AND marked_at IS NOT NULL;
INSERT INTO deliveries (id, school_id, notification_id, student_id, audience, address, not_sent_reason,
                        created_at, sent_at, bounced_at)
SELECT 'bench-d-' || SUBSTR(s.id, 9), n.school_id, s.notification_id, s.student_id, 'parent',
       CASE WHEN CAST(SUBSTR(s.id, 9) AS INTEGER) % 5 = 3 THEN NULL ELSE 'parent@families.test' END,
       CASE WHEN CAST(SUBSTR(s.id, 9) AS INTEGER) % 5 = 3 THEN 'NO_ADDRESS' END,
       datetime(n.submission_due_date, '-7 days'),
       CASE WHEN CAST(SUBSTR(s.id, 9) AS INTEGER) % 5 < 3 THEN datetime(n.submission_due_date, '-7 days') END,
       CASE WHEN CAST(SUBSTR(s.id, 9) AS INTEGER) % 5 = 2 THEN datetime(n.submission_due_date, '-6 days') END
FROM submissions s JOIN notifications n ON n.id = s.notification_id WHERE s.id LIKE 'bench-s-%';
