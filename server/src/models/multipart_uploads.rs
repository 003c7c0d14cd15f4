//! `multipart_uploads`: the uploads sent in parts that are still under way, one per
//! `stored_files` row they fill (docs/storage.md, "Uploads in parts"). A row goes when its
//! upload completes or is aborted; the expiry sweep aborts those abandoned for a day.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;

use crate::db::schema::{multipart_uploads, stored_files};
use crate::db::DbConn;
use crate::models::stored_files::StoredFile;
use crate::with_conn;

/// An upload in parts under way.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = multipart_uploads)]
pub struct MultipartUpload {
    /// The id the browser holds (`uploadId`).
    pub id: String,
    pub file_id: String,
    /// The store's own id: S3's `UploadId`, the local store's part folder.
    pub store_upload_id: String,
    pub part_size: i64,
    pub created_at: NaiveDateTime,
}

pub async fn insert(conn: &mut DbConn<'_>, upload: &MultipartUpload) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(multipart_uploads::table)
        .values(upload)
        .execute(c)
        .await)?;
    Ok(())
}

/// The upload `id` with its file, when the file is at `key` and belongs to `user_id` in
/// `school_id` (someone else's is `None`).
pub async fn find_owned(
    conn: &mut DbConn<'_>,
    school_id: &str,
    user_id: &str,
    key: &str,
    id: &str,
) -> QueryResult<Option<(MultipartUpload, StoredFile)>> {
    with_conn!(conn, |c| multipart_uploads::table
        .inner_join(stored_files::table)
        .filter(multipart_uploads::id.eq(id))
        .filter(stored_files::key.eq(key))
        .filter(stored_files::school_id.eq(school_id))
        .filter(stored_files::user_id.eq(user_id))
        .select((MultipartUpload::as_select(), StoredFile::as_select()))
        .first(c)
        .await
        .optional())
}

/// The upload whose store id is `store_upload_id`, with its file (the local part URL's
/// lookup: the signature, not the caller, is the credential there).
pub async fn find_by_store_id(
    conn: &mut DbConn<'_>,
    store_upload_id: &str,
) -> QueryResult<Option<(MultipartUpload, StoredFile)>> {
    with_conn!(conn, |c| multipart_uploads::table
        .inner_join(stored_files::table)
        .filter(multipart_uploads::store_upload_id.eq(store_upload_id))
        .select((MultipartUpload::as_select(), StoredFile::as_select()))
        .first(c)
        .await
        .optional())
}

/// The uploads under way for the files `file_ids` (the sweep aborts them first).
pub async fn of_files(
    conn: &mut DbConn<'_>,
    file_ids: &[String],
) -> QueryResult<Vec<MultipartUpload>> {
    if file_ids.is_empty() {
        return Ok(Vec::new());
    }
    with_conn!(conn, |c| multipart_uploads::table
        .filter(multipart_uploads::file_id.eq_any(file_ids))
        .select(MultipartUpload::as_select())
        .load(c)
        .await)
}

/// Forgets the upload `id` (completed or aborted).
pub async fn delete(conn: &mut DbConn<'_>, id: &str) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::delete(multipart_uploads::table.find(id))
        .execute(c)
        .await)?;
    Ok(())
}

/// Forgets the uploads of the files `file_ids` (before their rows are deleted).
pub async fn delete_of_files(conn: &mut DbConn<'_>, file_ids: &[String]) -> QueryResult<usize> {
    if file_ids.is_empty() {
        return Ok(0);
    }
    with_conn!(conn, |c| diesel::delete(
        multipart_uploads::table.filter(multipart_uploads::file_id.eq_any(file_ids))
    )
    .execute(c)
    .await)
}
