-- Uploads sent in parts (docs/storage.md, "Uploads in parts"): one row per multipart
-- upload under way, beside the stored_files row it fills. `store_upload_id` is the
-- store's own id (S3's UploadId; the local store's part folder). The row goes when the
-- upload completes or is aborted; `files.expire` aborts those abandoned for a day.
CREATE TABLE multipart_uploads (
    id TEXT PRIMARY KEY NOT NULL,
    file_id TEXT NOT NULL UNIQUE REFERENCES stored_files (id),
    store_upload_id TEXT NOT NULL,
    part_size BIGINT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX idx_multipart_uploads_created_at ON multipart_uploads (created_at);
