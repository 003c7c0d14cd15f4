//! One sync run of one school, start to end: take the school's run lock (one RUNNING run
//! per school, across processes), open the sealed token, read the MIS (progress recorded
//! as pages arrive), apply everything in one transaction, record the run's counts or its
//! error. The school's [`Source`] (Wonde or Groupcall Xporter; a school has one) decides
//! which reader fills the snapshot; the apply step is the same. Called by the `mis.sync`
//! job and by `voicemark sync wonde|groupcall`.

use chrono::Duration;

use super::{apply, groupcall, wonde, Applied, Progress, Source, SyncKind};
use crate::crypto::OpenError;
use crate::db::Db;
use crate::models::mis::{self as store, RunResult};
use crate::models::now;
use crate::providers::wonde::WondeError;
use crate::providers::xporter::XporterError;
use crate::state::AppState;

/// A RUNNING run whose heartbeat is older than this was left by a process that died.
pub const RUN_LEASE: Duration = Duration::minutes(15);

/// Why a sync did not run or did not finish. Nothing was changed in either case.
#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error("This school is not connected to its MIS: enter its Wonde or Groupcall Xporter details first.")]
    NotConnected,
    #[error("The saved MIS token or secret cannot be opened: {0}. Enter it again.")]
    Token(OpenError),
    #[error("{0}")]
    Wonde(WondeError),
    #[error("{0}")]
    Xporter(XporterError),
    #[error("database: {0}")]
    Db(#[from] crate::db::DbError),
}

impl From<diesel::result::Error> for SyncError {
    fn from(err: diesel::result::Error) -> Self {
        SyncError::Db(err.into())
    }
}

/// A finished run.
#[derive(Debug, Clone)]
pub struct SyncReport {
    pub run_id: String,
    pub kind: SyncKind,
    pub applied: Applied,
}

/// Progress written to the run as pages arrive (each write also renews its heartbeat).
struct RunProgress<'a> {
    db: &'a Db,
    run_id: &'a str,
}

impl Progress for RunProgress<'_> {
    async fn report(&mut self, text: String) {
        // Progress is a courtesy: a failed write must not fail the sync.
        if let Ok(mut pooled) = self.db.conn().await {
            if let Err(err) = store::set_progress(&mut pooled.db(), self.run_id, &text).await {
                tracing::warn!(%err, "cannot record sync progress");
            }
        }
    }
}

/// Runs a sync of `kind` for the school. `Ok(None)`: another run of this school is in
/// progress (in this process or another), so this one did nothing. A delta with no earlier
/// good run is done as a full sync.
pub async fn run(
    state: &AppState,
    school_id: &str,
    kind: SyncKind,
) -> Result<Option<SyncReport>, SyncError> {
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let source = store::connected_source(&mut conn, school_id)
        .await?
        .ok_or(SyncError::NotConnected)?;
    let credentials = match source {
        Source::Wonde => store::wonde_credentials(&mut conn, school_id).await?,
        Source::Groupcall => store::groupcall_credentials(&mut conn, school_id).await?,
    };
    let (mis_id, sealed) = match credentials {
        Some((Some(id), Some(secret))) => (id, secret),
        _ => return Err(SyncError::NotConnected),
    };
    let secret = state.secrets.open(&sealed).map_err(SyncError::Token)?;
    let since = match kind {
        SyncKind::Full => None,
        SyncKind::Delta => store::last_done(&mut conn, school_id, None).await?,
    };
    let kind = if since.is_some() { SyncKind::Delta } else { SyncKind::Full };
    let Some(run_id) = store::start_run(
        &mut conn,
        school_id,
        source.as_str(),
        kind.as_str(),
        now() - RUN_LEASE,
    )
    .await?
    else {
        return Ok(None);
    };
    drop(pooled);
    let outcome = read_and_apply(state, school_id, source, &mis_id, &secret, since, &run_id).await;
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    match outcome {
        Ok(applied) => {
            let result = RunResult {
                added: applied.added as i32,
                updated: applied.updated as i32,
                archived: applied.archived as i32,
                problems: applied.problems.clone(),
                error: None,
            };
            store::finish_run(&mut conn, &run_id, &result).await?;
            Ok(Some(SyncReport {
                run_id,
                kind,
                applied,
            }))
        }
        Err(err) => {
            let result = RunResult {
                error: Some(err.to_string()),
                ..RunResult::default()
            };
            store::finish_run(&mut conn, &run_id, &result).await?;
            Err(err)
        }
    }
}

async fn read_and_apply(
    state: &AppState,
    school_id: &str,
    source: Source,
    mis_id: &str,
    secret: &str,
    since: Option<chrono::NaiveDateTime>,
    run_id: &str,
) -> Result<Applied, SyncError> {
    let mut progress = RunProgress {
        db: &state.db,
        run_id,
    };
    let snapshot = match source {
        Source::Wonde => {
            let Some(client) = state.providers.wonde.as_ref() else {
                return Err(SyncError::Wonde(WondeError::Unreachable(
                    "no Wonde client on this server".into(),
                )));
            };
            wonde::read_school(client, secret, mis_id, since, &mut progress)
                .await
                .map_err(SyncError::Wonde)?
        }
        Source::Groupcall => {
            let Some(client) = state.providers.xporter.as_ref() else {
                return Err(SyncError::Xporter(XporterError::Unreachable(
                    "no Groupcall Xporter client on this server".into(),
                )));
            };
            groupcall::read_school(client, mis_id, secret, since, &mut progress)
                .await
                .map_err(SyncError::Xporter)?
        }
    };
    progress
        .report(format!("Saving {} pupils", snapshot.pupils.len()))
        .await;
    let at = now();
    let config = state.config.clone();
    let mut pooled = state.db.conn().await?;
    let mut conn = pooled.db();
    let applied = crate::transaction!(&mut conn, |tx| {
        let applied = apply(tx, &config, school_id, &snapshot, at).await?;
        if snapshot.kind == SyncKind::Full {
            store::set_last_full_sync(tx, school_id, at).await?;
        }
        Ok::<_, diesel::result::Error>(applied)
    })?;
    Ok(applied)
}

/// Stores the school's Wonde id and its token, sealed (never the plain token); false when
/// the school does not exist. The caller checks who may do it.
pub async fn save_wonde_credentials(
    conn: &mut crate::db::DbConn<'_>,
    secrets: &crate::crypto::SecretBox,
    school_id: &str,
    wonde_id: &str,
    token: &str,
) -> diesel::result::QueryResult<bool> {
    store::set_wonde_credentials(conn, school_id, wonde_id.trim(), &secrets.seal(token.trim())).await
}

/// Stores the school's Groupcall Xporter id and its secret, sealed (never the plain
/// secret), and clears Wonde's (a school has one source); false when the school does not
/// exist. The caller checks who may do it.
pub async fn save_groupcall_credentials(
    conn: &mut crate::db::DbConn<'_>,
    secrets: &crate::crypto::SecretBox,
    school_id: &str,
    groupcall_id: &str,
    secret: &str,
) -> diesel::result::QueryResult<bool> {
    store::set_groupcall_credentials(conn, school_id, groupcall_id.trim(), &secrets.seal(secret.trim()))
        .await
}
