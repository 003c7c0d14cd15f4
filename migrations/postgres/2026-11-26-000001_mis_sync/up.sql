-- The MIS sync (issue 13, docs/mis-sync.md). A pupil who leaves the MIS is archived, never
-- deleted: archived pupils leave lists, the roster and audiences and keep their submissions.
ALTER TABLE students ADD COLUMN archived_at TIMESTAMP;

-- One row per sync run of a school, for the health view. At most one RUNNING run per
-- school (the partial unique index): this is what stops two processes syncing one school
-- at once. `heartbeat_at` moves while a run works; a RUNNING run whose heartbeat is older
-- than the lease was abandoned by a dead process and is failed before a new one starts.
CREATE TABLE mis_sync_runs (
    id TEXT PRIMARY KEY NOT NULL,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    source TEXT NOT NULL CHECK (source IN ('WONDE', 'GROUPCALL')),
    kind TEXT NOT NULL CHECK (kind IN ('FULL', 'DELTA')),
    status TEXT NOT NULL CHECK (status IN ('RUNNING', 'DONE', 'FAILED')),
    started_at TIMESTAMP NOT NULL,
    heartbeat_at TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    progress TEXT NOT NULL DEFAULT '',
    added INTEGER NOT NULL DEFAULT 0,
    updated INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    problems TEXT NOT NULL DEFAULT '[]',
    error TEXT
);
CREATE INDEX idx_mis_sync_runs_school_id_started_at ON mis_sync_runs (school_id, started_at);
CREATE UNIQUE INDEX idx_mis_sync_runs_one_running ON mis_sync_runs (school_id) WHERE status = 'RUNNING';
