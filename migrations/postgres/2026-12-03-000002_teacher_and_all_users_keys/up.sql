-- Two more paged lists read as one index range (issue 30, docs/scaling.md "Paged lists"):
-- a teacher's own Activity (their school's messages they sent, newest first), which read the
-- school's index from the cursor and skipped every colleague's message; and the superadmin's
-- Users (every user, by name), which had no index in that order and sorted each page.
CREATE INDEX idx_notifications_school_sender_created_at ON notifications (school_id, sender_id, created_at, id);
CREATE INDEX idx_users_surname_forename_id ON users (surname, forename, id);
