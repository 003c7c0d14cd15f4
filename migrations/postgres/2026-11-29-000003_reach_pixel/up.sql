-- Reach (issue 29, docs/reach.md "Opened"): a school may count opened e-mails with an
-- invisible image as well as by followed links. Off by default.
ALTER TABLE schools ADD COLUMN reach_pixel BOOLEAN NOT NULL DEFAULT FALSE;
