-- Insights' 'Pupils to look at' (docs/performance.md "Insights"): the missed assignments of
-- a pupil are read from the hand-ins index alone, and the latest hand-in of the few pupils
-- who missed enough from the pupil's index alone. Both replace an index with the same first
-- columns (the same rows), so every earlier reader reads them as before.
DROP INDEX idx_submissions_hand_ins;
CREATE INDEX idx_submissions_hand_ins ON submissions (notification_id, received_at, student_id);
DROP INDEX idx_submissions_student_id;
CREATE INDEX idx_submissions_student_id ON submissions (student_id, received_at, notification_id);
-- Parents not reached in the last month: the few parent deliveries not sent or bounced, by
-- school and date, read from this small index alone.
CREATE INDEX idx_deliveries_unreached ON deliveries (school_id, created_at, student_id, notification_id)
    WHERE audience = 'parent' AND (not_sent_reason IS NOT NULL OR bounced_at IS NOT NULL);
