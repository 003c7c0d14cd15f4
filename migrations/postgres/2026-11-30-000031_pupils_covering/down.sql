DROP INDEX idx_deliveries_unreached;
DROP INDEX idx_submissions_student_id;
CREATE INDEX idx_submissions_student_id ON submissions (student_id);
DROP INDEX idx_submissions_hand_ins;
CREATE INDEX idx_submissions_hand_ins ON submissions (notification_id, received_at);
