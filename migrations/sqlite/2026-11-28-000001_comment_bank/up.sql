-- The comment bank (docs/comment-bank.md). `bank_comments` holds a teacher's personal
-- comments (`user_id` set, status ACTIVE) and the school's shared bank (`user_id` NULL):
-- ACTIVE once an admin approved it (or added it), PROPOSED while it waits for review
-- (`proposed_by` names the teacher). `normalised` is the text as the three-times rule
-- compares it (core-wasm comment_bank::normalise_phrase); `tags` is the written list
-- ("English; Year 7").
CREATE TABLE bank_comments (
    id TEXT PRIMARY KEY NOT NULL,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
    proposed_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    text TEXT NOT NULL,
    normalised TEXT NOT NULL,
    sentiment TEXT NOT NULL CHECK (sentiment IN ('NEUTRAL', 'POSITIVE', 'NEGATIVE')),
    tags TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'PROPOSED')),
    use_count BIGINT NOT NULL DEFAULT 0,
    last_used_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
-- One personal comment per wording (a double submit of 'Add' cannot make two; the school's
-- rows, user_id NULL, are kept unique by the procedures).
CREATE UNIQUE INDEX uq_bank_comments_personal ON bank_comments (school_id, user_id, normalised);
CREATE INDEX idx_bank_comments_status ON bank_comments (school_id, status);
CREATE INDEX idx_bank_comments_user_id ON bank_comments (user_id);
CREATE INDEX idx_bank_comments_proposed_by ON bank_comments (proposed_by);

-- The three-times rule: how often each teacher wrote each normalised phrase in feedback,
-- with one original wording to show. `state` is COUNTING until the teacher answers the
-- suggestion: ADDED or DISMISSED (never suggested again).
CREATE TABLE phrase_counts (
    id TEXT PRIMARY KEY NOT NULL,
    school_id TEXT NOT NULL REFERENCES schools (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    normalised TEXT NOT NULL,
    sample TEXT NOT NULL,
    count BIGINT NOT NULL,
    state TEXT NOT NULL DEFAULT 'COUNTING' CHECK (state IN ('COUNTING', 'ADDED', 'DISMISSED')),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    UNIQUE (user_id, normalised)
);
CREATE INDEX idx_phrase_counts_pending ON phrase_counts (user_id, state, count);
CREATE INDEX idx_phrase_counts_school_id ON phrase_counts (school_id);
