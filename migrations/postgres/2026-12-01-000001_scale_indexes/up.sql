-- A thousand schools (issue 30, docs/scaling.md "A thousand schools"): a school's
-- notifications as the Feedback Hub, the badge, the dashboard, Activity and Insights join
-- them to submissions and deliveries (by school, and by sender for a teacher's own), read
-- from this index alone. A school's 200 assignments lie on as many table pages once 1,000
-- schools share the table; the Hub's lists read 200 index entries instead (2 ms -> 0.1 ms
-- for that step, and PostgreSQL no longer prefers a parallel scan of the whole table).
CREATE INDEX idx_notifications_school_scope ON notifications (school_id, sender_id)
    INCLUDE (id, type, title, submission_due_date, feedback_release, feedback_release_at);
