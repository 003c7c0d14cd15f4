//! Privacy requests about one pupil (UK GDPR; the school is the controller): everything held
//! about them, read for an export, and their erasure. Every table that holds a pupil's data
//! is named here once; what happens to each on erasure is in docs/privacy.md. The profile-view
//! log is read from the audit log (`audit::views`).

use std::collections::BTreeSet;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel_async::RunQueryDsl;
use serde_json::{json, Value};

use crate::db::schema::{
    audit_log, class_students, classes, email_preferences, erased_receipts, form_groups, jobs,
    notification_receipts, notifications, stored_files, student_comments, students,
    submissions, users, year_groups,
};
use crate::db::DbConn;
use crate::ids::new_id;
use crate::models::now;
use crate::models::recipients::Filters;
use crate::with_conn;
use crate::db::changes::{self, Change};

/// The audit entities whose ids belong to one pupil's records.
pub const PUPIL_ENTITIES: [&str; 3] = ["student", "submission", "student_comment"];

/// A pupil as a privacy request names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PupilName {
    pub id: String,
    pub forename: String,
    pub surname: String,
}

/// The pupil `id` if they belong to `school_id`.
pub async fn pupil_in_school(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
) -> QueryResult<Option<PupilName>> {
    let row: Option<(String, String, String)> = with_conn!(conn, |c| students::table
        .filter(students::id.eq(id))
        .filter(students::school_id.eq(school_id))
        .select((students::id, students::forename, students::surname))
        .first(c)
        .await
        .optional())?;
    Ok(row.map(|(id, forename, surname)| PupilName { id, forename, surname }))
}

/// A file of the pupil's, to put in the export or delete from the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PupilFile {
    pub key: String,
    pub filename: String,
    pub submission_id: String,
}

/// Everything held about one pupil: JSON documents by file name, and their files.
#[derive(Debug, Clone)]
pub struct PupilRecords {
    pub documents: Vec<(&'static str, Value)>,
    pub files: Vec<PupilFile>,
}

fn at(value: Option<NaiveDateTime>) -> Value {
    value.map_or(Value::Null, |v| Value::String(v.format("%Y-%m-%dT%H:%M:%SZ").to_string()))
}

type StudentRow = (
    String,
    Option<String>,
    Option<String>,
    NaiveDateTime,
    NaiveDateTime,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// The ids of the pupil's submissions and comments (the audit log names them by these).
async fn record_ids(conn: &mut DbConn<'_>, id: &str) -> QueryResult<(Vec<String>, Vec<String>)> {
    let submission_ids: Vec<String> = with_conn!(conn, |c| submissions::table
        .filter(submissions::student_id.eq(id))
        .select(submissions::id)
        .load(c)
        .await)?;
    let comment_ids: Vec<String> = with_conn!(conn, |c| student_comments::table
        .filter(student_comments::student_id.eq(id))
        .select(student_comments::id)
        .load(c)
        .await)?;
    Ok((submission_ids, comment_ids))
}

/// The pupil's files: those handed in with their submissions, and a submission's single
/// file of older versions (`submissions.s3_key`).
async fn files_of(conn: &mut DbConn<'_>, id: &str) -> QueryResult<Vec<PupilFile>> {
    let rows: Vec<(String, String, Option<String>)> = with_conn!(conn, |c| stored_files::table
        .inner_join(submissions::table.on(stored_files::submission_id.eq(submissions::id.nullable())))
        .filter(submissions::student_id.eq(id))
        .order((stored_files::created_at.asc(), stored_files::id.asc()))
        .select((stored_files::key, stored_files::filename, stored_files::submission_id))
        .load(c)
        .await)?;
    let mut files: Vec<PupilFile> = rows
        .into_iter()
        .map(|(key, filename, submission_id)| PupilFile {
            key,
            filename,
            submission_id: submission_id.unwrap_or_default(),
        })
        .collect();
    let single: Vec<(String, Option<String>)> = with_conn!(conn, |c| submissions::table
        .filter(submissions::student_id.eq(id))
        .select((submissions::id, submissions::s3_key))
        .load(c)
        .await)?;
    for (submission_id, key) in single {
        if let Some(key) = key.filter(|k| !files.iter().any(|f| &f.key == k)) {
            let filename = key.rsplit('/').next().unwrap_or("file").to_owned();
            files.push(PupilFile { key, filename, submission_id });
        }
    }
    Ok(files)
}

/// Everything held about pupil `id` (already known to be the caller's school's).
pub async fn records(conn: &mut DbConn<'_>, id: &str) -> QueryResult<PupilRecords> {
    let student: StudentRow = with_conn!(conn, |c| students::table
        .left_join(year_groups::table)
        .left_join(form_groups::table)
        .filter(students::id.eq(id))
        .select((
            students::id,
            students::wonde_id,
            students::groupcall_id,
            students::created_at,
            students::updated_at,
            students::forename,
            students::surname,
            students::email,
            students::parent_email,
            students::upn,
            year_groups::name.nullable(),
            form_groups::name.nullable(),
        ))
        .first(c)
        .await)?;
    let class_names: Vec<String> = with_conn!(conn, |c| classes::table
        .inner_join(class_students::table)
        .filter(class_students::student_id.eq(id))
        .order(classes::name.asc())
        .select(classes::name)
        .load(c)
        .await)?;
    let (sid, wonde, groupcall, created, updated, forename, surname, email, parent, upn, year, form) =
        student;
    let profile = json!({
        "id": sid, "forename": forename, "surname": surname, "email": email,
        "parentEmail": parent, "upn": upn, "wondeId": wonde, "groupcallId": groupcall,
        "yearGroup": year, "formGroup": form, "classes": class_names,
        "createdAt": at(Some(created)), "updatedAt": at(Some(updated)),
    });

    let addresses: Vec<String> = [email.clone(), parent.clone()]
        .into_iter()
        .flatten()
        .map(|a| a.trim().to_lowercase())
        .collect();
    type PrefRow = (String, String, bool, bool, String, Option<NaiveDateTime>);
    let prefs: Vec<PrefRow> = with_conn!(conn, |c| email_preferences::table
        .filter(email_preferences::email.eq_any(&addresses))
        .select((
            email_preferences::email,
            email_preferences::language,
            email_preferences::general,
            email_preferences::assignment,
            email_preferences::frequency,
            email_preferences::last_digest_at,
        ))
        .load(c)
        .await)?;
    let contacts = json!({
        "pupilEmail": email,
        "parentEmail": parent,
        "emailPreferences": prefs.into_iter().map(|(address, language, general, assignment, frequency, last)| json!({
            "email": address, "language": language, "general": general,
            "assignment": assignment, "frequency": frequency, "lastDigestAt": at(last),
        })).collect::<Vec<_>>(),
    });

    type SubRow = (
        String,
        NaiveDateTime,
        Option<NaiveDateTime>,
        Option<NaiveDateTime>,
        Option<String>,
        Option<String>,
        Option<String>,
        String,
    );
    let subs: Vec<SubRow> = with_conn!(conn, |c| submissions::table
        .inner_join(notifications::table)
        .filter(submissions::student_id.eq(id))
        .order(submissions::created_at.asc())
        .select((
            submissions::id,
            submissions::created_at,
            submissions::received_at,
            submissions::marked_at,
            submissions::content,
            submissions::feedback,
            submissions::feedback_sentiment,
            notifications::title,
        ))
        .load(c)
        .await)?;
    let files = files_of(conn, id).await?;
    let submissions_json: Vec<Value> = subs
        .iter()
        .map(|(sub_id, created, received, _, content, _, _, title)| {
            json!({
                "id": sub_id, "task": title, "createdAt": at(Some(*created)),
                "handedInAt": at(*received), "content": content,
                "files": files.iter().filter(|f| &f.submission_id == sub_id)
                    .map(|f| format!("files/{}/{}", f.submission_id, f.filename)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let feedback_json: Vec<Value> = subs
        .iter()
        .filter(|s| s.5.is_some() || s.3.is_some())
        .map(|(sub_id, _, _, marked, _, feedback, sentiment, title)| {
            json!({"submissionId": sub_id, "task": title, "markedAt": at(*marked),
                   "feedback": feedback, "sentiment": sentiment})
        })
        .collect();

    let comments: Vec<(String, NaiveDateTime, String, String, String)> =
        with_conn!(conn, |c| student_comments::table
            .inner_join(users::table)
            .filter(student_comments::student_id.eq(id))
            .order(student_comments::created_at.asc())
            .select((
                student_comments::id,
                student_comments::created_at,
                users::forename,
                users::surname,
                student_comments::comment,
            ))
            .load(c)
            .await)?;
    let comments_json: Vec<Value> = comments
        .into_iter()
        .map(|(cid, created, f, s, text)| {
            json!({"id": cid, "createdAt": at(Some(created)), "author": format!("{f} {s}"), "comment": text})
        })
        .collect();

    let receipts: Vec<(String, String, Option<NaiveDateTime>)> =
        with_conn!(conn, |c| notification_receipts::table
            .inner_join(notifications::table)
            .filter(notification_receipts::student_id.eq(id))
            .order(notifications::created_at.asc())
            .select((notifications::id, notifications::title, notification_receipts::sent_at))
            .load(c)
            .await)?;
    let receipts_json: Vec<Value> = receipts
        .into_iter()
        .map(|(nid, title, sent)| json!({"notificationId": nid, "title": title, "sentAt": at(sent)}))
        .collect();

    let (submission_ids, comment_ids) = record_ids(conn, id).await?;
    let mut entity_ids = submission_ids;
    entity_ids.extend(comment_ids);
    entity_ids.push(id.to_owned());
    type AuditRow = (NaiveDateTime, String, String, String, Option<String>, Option<String>, Option<String>);
    let audit: Vec<AuditRow> = with_conn!(conn, |c| audit_log::table
        .left_join(users::table)
        .filter(audit_log::entity.eq_any(PUPIL_ENTITIES))
        .filter(audit_log::entity_id.eq_any(&entity_ids))
        .order((audit_log::at.asc(), audit_log::id.asc()))
        .select((
            audit_log::at,
            audit_log::action,
            audit_log::entity,
            audit_log::entity_id,
            audit_log::detail,
            users::forename.nullable(),
            users::surname.nullable(),
        ))
        .load(c)
        .await)?;
    let audit_json: Vec<Value> = audit
        .into_iter()
        .map(|(when, action, entity, entity_id, detail, f, s)| {
            let who = match (f, s) {
                (Some(f), Some(s)) => Value::String(format!("{f} {s}")),
                _ => Value::Null,
            };
            json!({"at": at(Some(when)), "action": action, "entity": entity,
                   "entityId": entity_id, "detail": detail, "by": who})
        })
        .collect();

    Ok(PupilRecords {
        documents: vec![
            ("profile.json", profile),
            ("contacts.json", contacts),
            ("submissions.json", Value::Array(submissions_json)),
            ("feedback.json", Value::Array(feedback_json)),
            ("comments.json", Value::Array(comments_json)),
            ("notification-receipts.json", Value::Array(receipts_json)),
            ("audit-log.json", Value::Array(audit_json)),
        ],
        files,
    })
}

/// What an erasure leaves to do after its transaction commits: the store keys to delete.
#[derive(Debug, Clone, Default)]
pub struct Erased {
    pub keys: Vec<String>,
}

/// Erases pupil `id` of `school_id` (call inside one transaction); `tombstone` replaces
/// their ids in the audit log. Returns the store keys to delete once committed.
pub async fn erase(
    conn: &mut DbConn<'_>,
    school_id: &str,
    id: &str,
    tombstone: &str,
) -> QueryResult<Erased> {
    let (email, parent): (Option<String>, Option<String>) = with_conn!(conn, |c| students::table
        .find(id)
        .select((students::email, students::parent_email))
        .first(c)
        .await)?;
    let (submission_ids, comment_ids) = record_ids(conn, id).await?;
    let keys: Vec<String> = files_of(conn, id).await?.into_iter().map(|f| f.key).collect();

    // Receipts of sent messages stay, without the pupil.
    let sent: Vec<(String, Option<NaiveDateTime>)> =
        with_conn!(conn, |c| notification_receipts::table
            .filter(notification_receipts::student_id.eq(id))
            .filter(notification_receipts::sent_at.is_not_null())
            .select((notification_receipts::notification_id, notification_receipts::sent_at))
            .load(c)
            .await)?;
    let erased_at = now();
    for (notification_id, sent_at) in sent {
        with_conn!(conn, |c| diesel::insert_into(erased_receipts::table)
            .values((
                erased_receipts::id.eq(new_id()),
                erased_receipts::notification_id.eq(&notification_id),
                erased_receipts::sent_at.eq(sent_at),
                erased_receipts::erased_at.eq(erased_at),
            ))
            .execute(c)
            .await)?;
    }

    // The pupil named in a notification's audience.
    let pattern = format!("%{id}%");
    let audiences: Vec<(String, String)> = with_conn!(conn, |c| notifications::table
        .filter(notifications::school_id.eq(school_id))
        .filter(notifications::filters.like(&pattern))
        .select((notifications::id, notifications::filters))
        .load(c)
        .await)?;
    for (notification_id, stored) in audiences {
        let mut filters = Filters::from_stored(&stored);
        filters.students.retain(|s| s != id);
        let text = serde_json::to_string(&filters).unwrap_or_else(|_| "{}".into());
        with_conn!(conn, |c| diesel::update(notifications::table.find(&notification_id))
            .set(notifications::filters.eq(&text))
            .execute(c)
            .await)?;
    }

    // Audit rows about the pupil's records keep who did what and when, not whom.
    let mut entity_ids = submission_ids.clone();
    entity_ids.extend(comment_ids);
    entity_ids.push(id.to_owned());
    with_conn!(conn, |c| diesel::update(
        audit_log::table
            .filter(audit_log::entity.eq_any(PUPIL_ENTITIES))
            .filter(audit_log::entity_id.eq_any(&entity_ids))
    )
    .set(audit_log::entity_id.eq(tombstone))
    .execute(c)
    .await)?;

    // Jobs that name the pupil, their submissions or their addresses (queued e-mails among
    // them) go: nothing is sent to or about an erased pupil.
    let mut needles: Vec<String> = submission_ids.clone();
    needles.push(id.to_owned());
    needles.extend(email.iter().chain(parent.iter()).map(|a| a.trim().to_lowercase()));
    for needle in &needles {
        let pattern = crate::db::sql::like_pattern(needle);
        with_conn!(conn, |c| diesel::delete(
            jobs::table.filter(crate::db::sql::lower(jobs::payload).like(&pattern).escape('\\'))
        )
        .execute(c)
        .await)?;
    }

    // The comment bank's phrase counts taken from feedback to the pupil (their kept wording
    // may name them).
    let feedbacks: Vec<String> = with_conn!(conn, |c| submissions::table
        .filter(submissions::student_id.eq(id))
        .filter(submissions::feedback.is_not_null())
        .select(submissions::feedback.assume_not_null())
        .load(c)
        .await)?;
    crate::models::comment_bank::forget_phrases(conn, school_id, &feedbacks).await?;

    // File rows, then the pupil (class places, comments, receipts and submissions cascade).
    if !submission_ids.is_empty() {
        with_conn!(conn, |c| diesel::delete(
            stored_files::table.filter(stored_files::submission_id.eq_any(&submission_ids))
        )
        .execute(c)
        .await)?;
    }
    with_conn!(conn, |c| diesel::delete(
        submissions::table.filter(submissions::student_id.eq(id))
    )
    .execute(c)
    .await)?;
    with_conn!(conn, |c| diesel::delete(students::table.find(id)).execute(c).await)?;

    // E-mail preferences (and refusals) of addresses no other pupil and no user has.
    let addresses: BTreeSet<String> = email
        .iter()
        .chain(parent.iter())
        .map(|a| a.trim().to_lowercase())
        .collect();
    for address in addresses {
        let still_used: i64 = with_conn!(conn, |c| students::table
            .filter(
                crate::db::sql::lower(students::email).eq(&address)
                    .or(crate::db::sql::lower(students::parent_email).eq(&address)),
            )
            .count()
            .get_result(c)
            .await)?;
        let user: i64 = with_conn!(conn, |c| users::table
            .filter(crate::db::sql::lower(users::email).eq(&address))
            .count()
            .get_result(c)
            .await)?;
        if still_used == 0 && user == 0 {
            with_conn!(conn, |c| diesel::delete(email_preferences::table.find(&address))
                .execute(c)
                .await)?;
            // A refused address is personal data too (docs/reach.md).
            crate::models::address_refusals::clear(conn, &address).await?;
        }
    }
    changes::publish(conn, Change::Roster).await?;
    changes::publish(conn, Change::Submissions { school: Some(school_id) }).await?;
    Ok(Erased { keys })
}
