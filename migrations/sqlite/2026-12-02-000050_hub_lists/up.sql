-- The Feedback Hub's lists and its count at a thousand schools (issue 30 item 3,
-- docs/scaling.md "A thousand schools"). Submissions waiting for a mark (handed in, not
-- marked) of an assignment, oldest first: the waiting list takes its first 500 and the
-- badge counts them from this index alone, without visiting each handed-in row to read
-- `marked_at` (a school has about 17,000 handed in and 4,500 waiting).
CREATE INDEX idx_submissions_waiting ON submissions (notification_id, received_at, id, student_id)
    WHERE received_at IS NOT NULL AND marked_at IS NULL;
-- The Marked list's newest 200 and its count from the index alone: the same index as
-- before with the id, the list's tie-breaker, at its end.
DROP INDEX idx_submissions_marks;
CREATE INDEX idx_submissions_marks ON submissions
    (notification_id, marked_at, received_at, feedback_sentiment, student_id, id)
    WHERE marked_at IS NOT NULL;
