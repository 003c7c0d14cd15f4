-- Billing (issue 12, docs/billing.md): each Stripe webhook event received, stored once by
-- its id (Stripe delivers at least once), with the raw body the job applies and when it was
-- applied. The schools' subscription columns already exist. migrations/sqlite/2026-11-25-000001_billing/up.sql
-- holds the same steps.
CREATE TABLE stripe_events (
    id TEXT PRIMARY KEY NOT NULL,
    type TEXT NOT NULL,
    created TIMESTAMP NOT NULL,
    payload TEXT NOT NULL,
    received_at TIMESTAMP NOT NULL,
    processed_at TIMESTAMP
);
