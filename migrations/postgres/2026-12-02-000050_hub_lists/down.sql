DROP INDEX idx_submissions_waiting;
DROP INDEX idx_submissions_marks;
CREATE INDEX idx_submissions_marks ON submissions
    (notification_id, marked_at, received_at, feedback_sentiment, student_id)
    WHERE marked_at IS NOT NULL;
