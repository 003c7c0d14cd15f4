-- Reach (issue 29, docs/reach.md): one row per e-mail a notification's send decided on,
-- for each pupil and each audience (pupil, parent), including those not sent. The state a
-- user sees is computed from these facts (models/deliveries.rs), so it only moves forward:
-- Not sent (`not_sent_reason`: NO_ADDRESS, OPTED_OUT, REFUSED), Waiting (no `sent_at` yet:
-- queued, or in a digest not yet sent), Sent (`sent_at`: the SMTP server took it), Bounced
-- (`bounced_at`, `bounce_reason`), Opened (`opened_at`: a signed link in it was followed),
-- Handed in (the pupil's submission was received).
CREATE TABLE deliveries (
    id TEXT PRIMARY KEY NOT NULL,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    notification_id TEXT NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    student_id TEXT NOT NULL REFERENCES students (id) ON DELETE CASCADE,
    audience TEXT NOT NULL CHECK (audience IN ('pupil', 'parent')),
    address TEXT,
    not_sent_reason TEXT CHECK (not_sent_reason IN ('NO_ADDRESS', 'OPTED_OUT', 'REFUSED')),
    created_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP,
    bounced_at TIMESTAMP,
    bounce_reason TEXT,
    opened_at TIMESTAMP,
    UNIQUE (notification_id, student_id, audience)
);
CREATE INDEX idx_deliveries_school_created ON deliveries (school_id, created_at);
CREATE INDEX idx_deliveries_student ON deliveries (student_id);
CREATE INDEX idx_deliveries_address ON deliveries (address);

-- Addresses a mail server refused for good (an SMTP 5xx to RCPT, a hard bounce). Nothing
-- more is sent to one until someone edits the pupil's address (docs/reach.md).
CREATE TABLE address_refusals (
    address TEXT PRIMARY KEY NOT NULL,
    reason TEXT NOT NULL,
    refused_at TIMESTAMP NOT NULL
);
