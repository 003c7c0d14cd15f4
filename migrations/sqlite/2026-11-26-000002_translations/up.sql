-- Automatic translations of messages and assignments for parents and pupils whose e-mail
-- language is not English (issue 14, docs/translation.md). One row per (notification,
-- language), made once and reused by every e-mail and digest in that language;
-- `source_hash` names the title and body it was made from, so an edited notification is
-- translated again instead of sending a stale text.
CREATE TABLE notification_translations (
    id TEXT PRIMARY KEY NOT NULL,
    notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    language TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    notice TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX idx_notification_translations_notification_id_language
    ON notification_translations (notification_id, language);
