-- A thousand schools (issue 30, docs/scaling.md "A thousand schools"): a school's
-- notifications as the Feedback Hub, the badge, the dashboard, Activity and Insights join
-- them to submissions and deliveries (by school, and by sender for a teacher's own), read
-- from this index alone (SQLite has no INCLUDE: the same columns, in the key).
CREATE INDEX idx_notifications_school_scope ON notifications
    (school_id, sender_id, id, type, title, submission_due_date, feedback_release, feedback_release_at);
