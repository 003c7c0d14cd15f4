DROP INDEX idx_submissions_marks;
CREATE INDEX idx_submissions_marked ON submissions (notification_id, marked_at)
    WHERE marked_at IS NOT NULL;
DROP INDEX idx_submissions_hand_ins;
