//! `admin.misSync`: the school's MIS sync health for Manage School's "MIS sync" tab: whether
//! Wonde is connected (its school id, and only *whether* a token is saved: the token never
//! leaves the server), the running sync's progress, the last full and delta sync times, the
//! last run's counts and error (in plain words when Wonde could not be reached), and the
//! data problems the school must fix in its MIS.

use super::require_admin;
use crate::models::mis::{self as store, run_status, SyncRun};
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// The most pupils listed per problem (the count says how many in all).
const LISTED: usize = 50;

rpc_type! {
    /// One sync run.
    pub struct SyncRunView {
        /// FULL or DELTA.
        pub kind: String,
        /// RUNNING, DONE or FAILED.
        pub status: String,
        pub started_at: JsDate,
        pub finished_at: Option<JsDate>,
        pub progress: String,
        pub added: i32,
        pub updated: i32,
        pub archived: i32,
        /// Why it failed, for the admin.
        pub error: Option<String>,
        /// Records the run could not take, and why.
        pub problems: Vec<String>,
    }
}

rpc_type! {
    /// A pupil named in a data problem.
    pub struct ProblemPupil {
        pub id: String,
        pub name: String,
    }
}

rpc_type! {
    /// An e-mail address more than one pupil has.
    pub struct DuplicateEmail {
        pub email: String,
        pub pupils: i64,
    }
}

rpc_type! {
    pub struct MisSyncStatus {
        /// The school's source: "WONDE", "GROUPCALL", or none yet.
        pub source: Option<String>,
        pub wonde_id: Option<String>,
        pub groupcall_id: Option<String>,
        /// Whether the source's token or secret is saved (never the value).
        pub token_saved: bool,
        pub running: Option<SyncRunView>,
        pub last_run: Option<SyncRunView>,
        pub last_full_sync: Option<JsDate>,
        pub last_delta_sync: Option<JsDate>,
        pub no_parent_count: i64,
        pub no_parent: Vec<ProblemPupil>,
        pub no_form_count: i64,
        pub no_form: Vec<ProblemPupil>,
        pub duplicate_emails: Vec<DuplicateEmail>,
        /// Pupils whose own or parent's address a mail server refused (docs/bounces.md).
        pub refused_addresses: Vec<super::refused_addresses::RefusedAddress>,
    }
}

/// A run's error as the admin reads it.
pub fn plain_error(error: &str) -> String {
    if error.starts_with("could not reach Wonde") || error.starts_with("Wonde did not answer") {
        format!("Wonde could not be reached, so nothing was changed. Check the connection and try again. ({error})")
    } else if error.starts_with("Wonde refused") {
        format!("Wonde refused the school id or token, so nothing was changed: check both and save them again. ({error})")
    } else if error.starts_with("could not reach Groupcall Xporter")
        || error.starts_with("Groupcall Xporter did not answer")
    {
        format!("Groupcall Xporter could not be reached, so nothing was changed. Check the connection and try again. ({error})")
    } else if error.starts_with("Groupcall Xporter refused") {
        format!("Groupcall Xporter refused the Groupcall id or secret, so nothing was changed: check both and save them again. ({error})")
    } else {
        format!("The sync failed and nothing was changed: {error}")
    }
}

impl From<SyncRun> for SyncRunView {
    fn from(run: SyncRun) -> Self {
        SyncRunView {
            kind: run.kind,
            status: run.status,
            started_at: run.started_at.into(),
            finished_at: run.finished_at.map(JsDate::from),
            progress: run.progress,
            added: run.added,
            updated: run.updated,
            archived: run.archived,
            error: run.error.as_deref().map(plain_error),
            problems: serde_json::from_str(&run.problems).unwrap_or_default(),
        }
    }
}

fn pupils(rows: Vec<(String, String, String)>) -> Vec<ProblemPupil> {
    rows.into_iter()
        .take(LISTED)
        .map(|(id, forename, surname)| ProblemPupil {
            id,
            name: format!("{forename} {surname}"),
        })
        .collect()
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<MisSyncStatus> {
    let school_id = require_admin(ctx)?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let (wonde_id, token) = store::wonde_credentials(&mut conn, school_id)
        .await?
        .unwrap_or((None, None));
    let (groupcall_id, secret) = store::groupcall_credentials(&mut conn, school_id)
        .await?
        .unwrap_or((None, None));
    let source = store::connected_source(&mut conn, school_id).await?;
    let runs = store::recent_runs(&mut conn, school_id, 10).await?;
    let running = runs
        .iter()
        .find(|r| r.status == run_status::RUNNING)
        .cloned()
        .map(SyncRunView::from);
    let last_run = runs
        .iter()
        .find(|r| r.status != run_status::RUNNING)
        .cloned()
        .map(SyncRunView::from);
    let last_full_sync = store::last_full_sync(&mut conn, school_id).await?;
    let last_delta_sync = store::last_done(&mut conn, school_id, Some("DELTA")).await?;
    let problems = store::data_problems(&mut conn, school_id).await?;
    let refused = crate::models::bounces::refusals_in_school(&mut conn, school_id).await?;
    Ok(MisSyncStatus {
        source: source.map(|s| s.as_str().to_owned()),
        wonde_id,
        groupcall_id,
        token_saved: match source {
            Some(crate::mis::Source::Groupcall) => secret.is_some(),
            _ => token.is_some(),
        },
        running,
        last_run,
        last_full_sync: last_full_sync.map(JsDate::from),
        last_delta_sync: last_delta_sync.map(JsDate::from),
        no_parent_count: problems.no_parent.len() as i64,
        no_parent: pupils(problems.no_parent),
        no_form_count: problems.no_form.len() as i64,
        no_form: pupils(problems.no_form),
        duplicate_emails: problems
            .duplicate_emails
            .into_iter()
            .map(|(email, pupils)| DuplicateEmail { email, pupils })
            .collect(),
        refused_addresses: refused.into_iter().map(Into::into).collect(),
    })
}
