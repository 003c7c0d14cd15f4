//! `feedback.list`: the Feedback Hub — submissions received and not marked that the
//! caller may mark, oldest received first, optionally of one notification or class; the
//! marked ones, newest marked first, with their release state; and the assignments with
//! held marks (docs/feedback-release.md). Each list answers its first page (500 waiting,
//! 200 marked) with the cursor of the next; `feedback.listMore` answers the pages after it
//! (docs/scaling.md "Paged lists").

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::result::QueryResult;

use crate::db::DbConn;
use crate::models::stored_files::SubmissionFile;
use crate::models::submissions::MarkerScope;
use crate::models::{marks, stored_files, waiting};
use crate::models::notifications::FeedbackRelease;
use crate::rpc::feedback::{scope, SentimentName};
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::{rpc_type, Ts, TsGen};
use crate::rpc::{cursor, Ctx, RpcResult};

/// A page of the waiting list (oldest first); `waitingCount` says how many wait.
pub const MAX_ITEMS: i64 = 500;

/// A page of the Marked list (newest marked first); `markedCount` says how many there are.
pub const MAX_MARKED: i64 = 200;

/// Where a mark's feedback is: with the pupil, or held until a date or by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ReleaseState {
    Released,
    OnDate,
    ByHand,
}

impl ReleaseState {
    const ALL: [ReleaseState; 3] = [
        ReleaseState::Released,
        ReleaseState::OnDate,
        ReleaseState::ByHand,
    ];

    fn as_str(self) -> &'static str {
        match self {
            ReleaseState::Released => "RELEASED",
            ReleaseState::OnDate => "ON_DATE",
            ReleaseState::ByHand => "BY_HAND",
        }
    }

    /// A held mark's state under its assignment's setting (WHEN_MARKED only holds a mark
    /// whose release is queued: shown as due now, like a date that has come).
    fn held(release: FeedbackRelease) -> ReleaseState {
        match release {
            FeedbackRelease::ByHand => ReleaseState::ByHand,
            FeedbackRelease::OnDate | FeedbackRelease::WhenMarked => ReleaseState::OnDate,
        }
    }
}

impl Ts for ReleaseState {
    fn ts(_: &mut TsGen) -> String {
        ReleaseState::ALL
            .iter()
            .map(|s| format!("'{}'", s.as_str()))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// A held group's state: `'ON_DATE' | 'BY_HAND'`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct HeldState(pub ReleaseState);

impl Ts for HeldState {
    fn ts(_: &mut TsGen) -> String {
        "'ON_DATE' | 'BY_HAND'".to_owned()
    }
}

rpc_type! {
    pub struct FeedbackListInput {
        pub notification_id: Option<String>,
        pub class_id: Option<String>,
    }
}

rpc_type! {
    pub struct HubFile {
        pub id: String,
        pub filename: String,
        pub size_bytes: i64,
        pub url: String,
    }
}

rpc_type! {
    /// A submission waiting for feedback.
    pub struct HubItem {
        pub submission_id: String,
        pub student_id: String,
        pub student_forename: String,
        pub student_surname: String,
        pub notification_id: String,
        pub notification_title: String,
        pub received_at: JsDate,
        pub late: bool,
        pub content: Option<String>,
        pub files: Vec<HubFile>,
    }
}

rpc_type! {
    /// A marked submission: every field of [`HubItem`] and its feedback and release state.
    pub struct MarkedItem {
        pub submission_id: String,
        pub student_id: String,
        pub student_forename: String,
        pub student_surname: String,
        pub notification_id: String,
        pub notification_title: String,
        pub received_at: JsDate,
        pub late: bool,
        pub content: Option<String>,
        pub files: Vec<HubFile>,
        pub marked_at: JsDate,
        pub feedback: String,
        pub feedback_sentiment: SentimentName,
        /// When pupils and parents got it; `null` while held.
        pub released_at: Option<JsDate>,
        /// The scheduled release of a mark held ON_DATE.
        pub release_at: Option<JsDate>,
        pub release: ReleaseState,
    }
}

rpc_type! {
    /// An assignment with held marks (whatever the filters).
    pub struct HeldGroup {
        pub notification_id: String,
        pub title: String,
        pub count: i64,
        pub release: HeldState,
        pub release_at: Option<JsDate>,
    }
}

rpc_type! {
    /// A choice for a filter.
    pub struct FilterOption {
        pub id: String,
        pub name: String,
    }
}

rpc_type! {
    pub struct FeedbackHub {
        pub items: Vec<HubItem>,
        /// Marked submissions, newest marked first, same filters; at most 200.
        pub marked: Vec<MarkedItem>,
        /// Every marked submission the filters match (the list may stop at 200).
        pub marked_count: i64,
        /// Every waiting submission the filters match (the list may stop at 500).
        pub waiting_count: i64,
        /// Where the waiting list's next page starts (`feedback.listMore`); none when all are listed.
        pub waiting_next: Option<String>,
        /// Where the Marked list's next page starts; none when all are listed.
        pub marked_next: Option<String>,
        pub held: Vec<HeldGroup>,
        /// The notifications with work waiting (unfiltered), for the filter.
        pub notifications: Vec<FilterOption>,
        /// The school's classes, for the filter.
        pub classes: Vec<FilterOption>,
    }
}

pub async fn handler(ctx: &Ctx, input: FeedbackListInput) -> RpcResult<FeedbackHub> {
    let scope = scope(ctx)?;
    let school_id = ctx.school_id()?;
    let filters = Filters {
        scope: &scope,
        notification_id: input.notification_id.as_deref().filter(|s| !s.is_empty()),
        class_id: input.class_id.as_deref().filter(|s| !s.is_empty()),
    };
    let db = &ctx.state.db;
    let mut first = db.conn().await?;
    // The three lanes go at once on connections free now, else one after another on the
    // one held (`Db::conns_if_free`, as a school's Insights overview).
    let more = db.conns_if_free(2).await;
    crate::metrics::reads("feedback.list", more.is_some());
    let (waiting, marked, choices) = match more {
        Some(mut more) => {
            let [b, d] = &mut more[..] else { unreachable!("two connections were asked for") };
            let (mut a, mut b, mut d) = (first.db(), b.db(), d.db());
            tokio::try_join!(
                waiting_lane(&mut a, &filters),
                marked_lane(&mut b, &filters),
                choices_lane(&mut d, &scope, school_id),
            )?
        }
        None => {
            let conn = &mut first.db();
            (
                waiting_lane(conn, &filters).await?,
                marked_lane(conn, &filters).await?,
                choices_lane(conn, &scope, school_id).await?,
            )
        }
    };
    drop(first);
    let Lane { rows, next: waiting_next, count: waiting_count, mut files } = waiting;
    let Lane { rows: marked_rows, next: marked_next, count: marked_count, files: mut marked_files } = marked;
    let items: Vec<HubItem> = rows.into_iter().map(|row| hub_item(&mut files, row)).collect();
    let marked: Vec<MarkedItem> =
        marked_rows.into_iter().map(|row| marked_item(&mut marked_files, row)).collect();
    let held = choices
        .held
        .into_iter()
        .map(|(notification_id, title, count, release, release_at)| {
            let release = ReleaseState::held(FeedbackRelease::from_stored(&release));
            HeldGroup {
                notification_id,
                title,
                count,
                release: HeldState(release),
                release_at: release_at
                    .filter(|_| release == ReleaseState::OnDate)
                    .map(JsDate::from),
            }
        })
        .collect();
    let options = |list: Vec<(String, String)>| -> Vec<FilterOption> {
        list.into_iter().map(|(id, name)| FilterOption { id, name }).collect()
    };
    Ok(FeedbackHub {
        items,
        marked,
        marked_count,
        waiting_count,
        waiting_next,
        marked_next,
        held,
        notifications: options(choices.notifications),
        classes: options(choices.classes),
    })
}

/// What both lists are filtered by.
struct Filters<'a> {
    scope: &'a MarkerScope,
    notification_id: Option<&'a str>,
    class_id: Option<&'a str>,
}

/// One list's first page: its rows, where it goes on, how many there are, the rows' files.
struct Lane<R> {
    rows: Vec<R>,
    next: Option<String>,
    count: i64,
    files: HashMap<String, Vec<SubmissionFile>>,
}

/// The waiting list's first page, how many wait (counted only when more than a page does)
/// and the listed submissions' files.
async fn waiting_lane(conn: &mut DbConn<'_>, f: &Filters<'_>) -> QueryResult<Lane<waiting::HubRow>> {
    // One more than a page tells whether another follows.
    let mut rows =
        waiting::waiting(conn, f.scope, f.notification_id, f.class_id, None, MAX_ITEMS + 1).await?;
    let next = next_waiting(&mut rows, MAX_ITEMS);
    let count = match next {
        None => rows.len() as i64,
        Some(_) => waiting::waiting_count(conn, f.scope, f.notification_id, f.class_id).await?,
    };
    let ids: Vec<&str> = rows.iter().map(|r| r.submission_id.as_str()).collect();
    let files = stored_files::of_submissions(conn, &ids).await?;
    Ok(Lane { rows, next, count, files })
}

/// The Marked list's first page, how many there are (counted only when more than a page)
/// and the listed submissions' files.
async fn marked_lane(conn: &mut DbConn<'_>, f: &Filters<'_>) -> QueryResult<Lane<marks::MarkedRow>> {
    let mut rows =
        marks::marked(conn, f.scope, f.notification_id, f.class_id, None, MAX_MARKED + 1).await?;
    let next = next_marked(&mut rows, MAX_MARKED);
    let count = match next {
        None => rows.len() as i64,
        Some(_) => marks::marked_count(conn, f.scope, f.notification_id, f.class_id).await?,
    };
    let ids: Vec<&str> = rows.iter().map(|r| r.hub.submission_id.as_str()).collect();
    let files = stored_files::of_submissions(conn, &ids).await?;
    Ok(Lane { rows, next, count, files })
}

type HeldRow = (String, String, i64, String, Option<NaiveDateTime>);

struct Choices {
    notifications: Vec<(String, String)>,
    held: Vec<HeldRow>,
    classes: Vec<(String, String)>,
}

/// What the filters offer, whatever they are set to: every notification with work waiting
/// (not only those among the first 500 listed) and the school's classes; and the
/// assignments with held marks.
async fn choices_lane(conn: &mut DbConn<'_>, scope: &MarkerScope, school_id: &str) -> QueryResult<Choices> {
    Ok(Choices {
        notifications: waiting::with_work_waiting(conn, scope).await?,
        held: marks::held_groups(conn, scope).await?,
        classes: crate::models::students::school_classes(conn, school_id).await?,
    })
}

/// Cuts `rows` (read one past `page`) to the page; answers the cursor after its last row
/// when more follow.
pub(crate) fn next_waiting(rows: &mut Vec<waiting::HubRow>, page: i64) -> Option<String> {
    if rows.len() as i64 <= page {
        return None;
    }
    rows.truncate(page as usize);
    rows.last().map(|r| cursor::of_time(r.received_at, &r.submission_id))
}

/// The same for the Marked list, by the time of the mark.
pub(crate) fn next_marked(rows: &mut Vec<marks::MarkedRow>, page: i64) -> Option<String> {
    if rows.len() as i64 <= page {
        return None;
    }
    rows.truncate(page as usize);
    rows.last().map(|r| cursor::of_time(r.marked_at, &r.hub.submission_id))
}

/// A waiting row as the Hub lists it, with its files (taken from `files`).
pub(crate) fn hub_item(files: &mut HashMap<String, Vec<SubmissionFile>>, row: waiting::HubRow) -> HubItem {
    let files = files.remove(&row.submission_id).unwrap_or_default();
    HubItem {
        files: files
            .into_iter()
            .map(|f| HubFile {
                url: format!(
                    "/api/submissions/{}/{}/files/{}",
                    row.submission_id, row.token, f.id
                ),
                id: f.id,
                filename: f.filename,
                size_bytes: f.size_bytes.unwrap_or(0),
            })
            .collect(),
        late: row
            .submission_due_date
            .is_some_and(|due| row.received_at > due),
        submission_id: row.submission_id,
        student_id: row.student_id,
        student_forename: row.student_forename,
        student_surname: row.student_surname,
        notification_id: row.notification_id,
        notification_title: row.notification_title,
        received_at: row.received_at.into(),
        content: row.content,
    }
}

pub(crate) fn marked_item(files: &mut HashMap<String, Vec<SubmissionFile>>, row: marks::MarkedRow) -> MarkedItem {
    let release = if row.feedback_released_at.is_some() {
        ReleaseState::Released
    } else {
        ReleaseState::held(row.release)
    };
    let release_at = row
        .release_at
        .filter(|_| release == ReleaseState::OnDate)
        .map(JsDate::from);
    let hub = hub_item(files, row.hub);
    MarkedItem {
        submission_id: hub.submission_id,
        student_id: hub.student_id,
        student_forename: hub.student_forename,
        student_surname: hub.student_surname,
        notification_id: hub.notification_id,
        notification_title: hub.notification_title,
        received_at: hub.received_at,
        late: hub.late,
        content: hub.content,
        files: hub.files,
        marked_at: row.marked_at.into(),
        feedback: row.feedback,
        feedback_sentiment: SentimentName(row.feedback_sentiment),
        released_at: row.feedback_released_at.map(JsDate::from),
        release_at,
        release,
    }
}
