-- Insights (docs/insights.md): the assignments of a school due in a range.
CREATE INDEX idx_notifications_school_type_due ON notifications (school_id, type, submission_due_date);
