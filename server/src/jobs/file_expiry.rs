//! `files.expire` `{}`: deletes expired files from the store and their rows, and uploads
//! whose bytes never arrived within a day. Scheduled like digests: queued for a moment
//! with an idempotency key (`files.expire:{time}`, times rounded up to 10 minutes), when an
//! upload is signed (for its expiry and for its one-day deadline), and by each run for the
//! next thing due. Running twice is harmless: a file already gone counts as deleted.
//! An upload in parts abandoned for a day has its parts dropped first (the store's abort).

use chrono::{Duration, NaiveDateTime, Timelike};
use serde::{Deserialize, Serialize};

use crate::db::DbConn;
use crate::jobs::{enqueue, BackgroundJob, Job, JobError};
use crate::models::{multipart_uploads, now, stored_files};
use crate::state::AppState;
use crate::storage::FileStore;

/// Removes the files due for removal and queues the next run. No payload: stored as `{}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpireFiles {}

/// The stored kind (also the prefix of the runs' keys).
pub const KIND: &str = <ExpireFiles as BackgroundJob>::KIND;
/// Files are removed in batches of this many (one query and one delete per batch).
const BATCH: i64 = 100;
/// At most this many batches per run; a longer backlog continues in the next run.
const MAX_BATCHES: usize = 50;
/// An upload whose bytes have not arrived after this long is abandoned.
pub const ABANDON_AFTER: Duration = Duration::days(1);

/// `at` rounded up to the next 10 minutes, so the files due in one window share one job.
fn slot(at: NaiveDateTime) -> NaiveDateTime {
    let floored = at
        .with_second(0)
        .and_then(|t| t.with_nanosecond(0))
        .and_then(|t| t.with_minute(t.minute() / 10 * 10))
        .unwrap_or(at);
    if floored == at {
        at
    } else {
        floored + Duration::minutes(10)
    }
}

/// Queues a run at (about) `at`, once per 10-minute slot.
pub async fn schedule(conn: &mut DbConn<'_>, at: NaiveDateTime) -> diesel::result::QueryResult<()> {
    let run_at = slot(at);
    let key = format!("{KIND}:{}", run_at.format("%Y-%m-%dT%H:%M"));
    enqueue(conn, &ExpireFiles {}, run_at, Some(key)).await?;
    Ok(())
}

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    pub deleted: usize,
    /// Pending uploads found complete in the store (S3 tells us only when asked).
    pub confirmed: usize,
    /// Uploads in parts abandoned for a day whose parts were dropped.
    pub aborted: usize,
}

/// Removes everything due at `at`; returns what it did. Errors from the store leave that
/// file's row for the next run.
pub async fn sweep(state: &AppState, at: NaiveDateTime) -> Result<Swept, JobError> {
    let mut swept = Swept::default();
    let mut failures = Vec::new();
    for _ in 0..MAX_BATCHES {
        let mut pooled = state.db.conn().await?;
        let due =
            stored_files::due_for_removal(&mut pooled.db(), at, at - ABANDON_AFTER, BATCH).await?;
        drop(pooled);
        let full = due.len() as i64 == BATCH;
        // Uploads in parts never completed: their parts go first (local: the part folder;
        // S3: AbortMultipartUpload, which deletes the parts it holds).
        let ids: Vec<String> = due.iter().map(|f| f.id.clone()).collect();
        let mut pooled = state.db.conn().await?;
        let under_way = multipart_uploads::of_files(&mut pooled.db(), &ids).await?;
        drop(pooled);
        let mut gone = Vec::new();
        for file in due {
            if let Some(upload) = under_way.iter().find(|u| u.file_id == file.id) {
                if let Err(err) = state
                    .storage
                    .abort_multipart(&file.key, &upload.store_upload_id)
                    .await
                {
                    failures.push(format!("{} (parts): {err}", file.key));
                    continue;
                }
                swept.aborted += 1;
            }
            let expired = file.expires_at.is_some_and(|e| e <= at);
            if !expired {
                // Never confirmed: the bytes may have reached S3 without telling us.
                let declared = file.size_bytes.map(|size| size.max(0) as u64);
                if let Ok(Some(size)) = state.storage.size(&file.key).await {
                    if core_wasm::uploads::arrived_whole(size, declared) {
                        let mut pooled = state.db.conn().await?;
                        stored_files::mark_uploaded(&mut pooled.db(), &file.id, size, at).await?;
                        swept.confirmed += 1;
                        continue;
                    }
                }
            }
            match state.storage.delete(&file.key).await {
                Ok(()) => gone.push(file.id),
                Err(err) => failures.push(format!("{}: {err}", file.key)),
            }
        }
        let mut pooled = state.db.conn().await?;
        multipart_uploads::delete_of_files(&mut pooled.db(), &gone).await?;
        swept.deleted += stored_files::delete_rows(&mut pooled.db(), &gone).await?;
        if !full || !failures.is_empty() {
            break;
        }
    }
    if !failures.is_empty() {
        return Err(JobError::Retry(format!(
            "could not delete {} file(s): {}",
            failures.len(),
            failures.join("; ")
        )));
    }
    Ok(swept)
}

impl BackgroundJob for ExpireFiles {
    const KIND: &'static str = "files.expire";

    async fn run(&self, state: &AppState, _job: &Job) -> Result<(), JobError> {
        let at = now();
        let swept = sweep(state, at).await?;
        if swept.deleted > 0 || swept.confirmed > 0 {
            tracing::info!(
                deleted = swept.deleted,
                confirmed = swept.confirmed,
                "files expired"
            );
        }
        // The chain: the next run at the next thing due (or right away if a backlog remains).
        let mut pooled = state.db.conn().await?;
        let mut conn = pooled.db();
        if let Some(next) = stored_files::next_due(&mut conn, at, ABANDON_AFTER).await? {
            schedule(&mut conn, next.max(at + Duration::minutes(1))).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_share_ten_minute_slots() {
        let at = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").expect("a time");
        assert_eq!(slot(at("2026-11-22 10:21:05")), at("2026-11-22 10:30:00"));
        assert_eq!(slot(at("2026-11-22 10:30:00")), at("2026-11-22 10:30:00"));
        assert_eq!(slot(at("2026-11-22 23:55:00")), at("2026-11-23 00:00:00"));
    }
}
