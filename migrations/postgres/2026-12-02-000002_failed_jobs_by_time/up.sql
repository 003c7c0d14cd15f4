-- The jobs view's failed jobs a page at a time (docs/jobs-view.md, docs/scaling.md "Paged
-- lists"): newest first by (updated_at, id) after a cursor. The queue's own index
-- (status, run_at) would make every page sort all the failed jobs; this one reads a page
-- as one range in the page's order.
CREATE INDEX idx_jobs_status_updated_at ON jobs (status, updated_at, id);
