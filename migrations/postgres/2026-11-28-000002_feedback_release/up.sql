-- Feedback released when the teacher says (issue 28, docs/feedback-release.md). An
-- assignment's `feedback_release` is WHEN_MARKED (as before: a mark goes to the pupil at
-- once), ON_DATE (held until `feedback_release_at`) or BY_HAND (held until the teacher
-- presses 'Release feedback'). A submission's feedback is visible to pupils and parents,
-- and e-mailed, only once `feedback_released_at` is set; a mark with it NULL is held.
ALTER TABLE notifications ADD COLUMN feedback_release TEXT NOT NULL DEFAULT 'WHEN_MARKED';
ALTER TABLE notifications ADD COLUMN feedback_release_at TIMESTAMP;
ALTER TABLE submissions ADD COLUMN feedback_released_at TIMESTAMP;
-- Everything marked before this went out when it was marked.
UPDATE submissions SET feedback_released_at = marked_at WHERE marked_at IS NOT NULL;
-- The held marks of an assignment (the release, the Hub's and Activity's held counts).
CREATE INDEX idx_submissions_held ON submissions (notification_id)
    WHERE marked_at IS NOT NULL AND feedback_released_at IS NULL;
-- The Hub's Marked list: an assignment's marked submissions, newest first.
CREATE INDEX idx_submissions_marked ON submissions (notification_id, marked_at)
    WHERE marked_at IS NOT NULL;
