-- Voice notes a page at a time (issue 30, docs/scaling.md "Paged lists"): `voiceNote.list`
-- reads one owner's voice notes newest first, by (created_at, id), after a cursor. With the
-- time and id in the key each page is one range read of the index in list order, however
-- many notes the owner keeps; the key starts as the old (user_id, kind) index did, so every
-- query that used that one uses this one, and it goes.
DROP INDEX idx_stored_files_user_id_kind;
CREATE INDEX idx_stored_files_user_id_kind_created ON stored_files (user_id, kind, created_at, id);
