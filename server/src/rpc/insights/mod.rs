//! `insights.*`: the leaders' Insights page and the pupil profile's view of the same
//! numbers (issue 29 items 4 and 5, docs/insights.md). Who sees what ([`scope_of`]):
//! admins and org admins (and a superadmin in the organisation they chose) the whole
//! school; MAT users every school they may act in, with a school filter; anyone else only
//! the assignments they sent (the Feedback Hub's rule). The SQL is `models::insights`.

pub mod filters;
pub mod overview;
pub mod prepare;
pub mod pupils;
pub mod student;

use chrono::{Datelike, NaiveDate, NaiveDateTime};
use core_wasm::UserRole;

use serde::de::DeserializeOwned;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::cache::ProcessCache;
use crate::db::{Db, DbConn};
use crate::models::insights::{answers, Filter, Scope};
use crate::models::organisations;
use crate::rpc::encoded::Cached;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Query "insights.filters" => filters),
        procedure!(Query "insights.overview" => overview),
        procedure!(Query "insights.pupils" => pupils),
        procedure!(Query "insights.student" => student),
    ]
}

/// How long a MAT user's trust-wide answer is kept ([`trust_key`]).
pub const TRUST_TTL: std::time::Duration = std::time::Duration::from_secs(60);

/// How long past [`TRUST_TTL`] a trust's kept answer is still given at once while it is
/// worked out again in the background: a trust's figures are at most five minutes old,
/// and about one while its people use the page.
pub const TRUST_STALE: std::time::Duration = std::time::Duration::from_secs(4 * 60);

/// A cache of trust-wide answers ([`trust_key`]): kept [`TRUST_TTL`], then answered for
/// [`TRUST_STALE`] more while read again in the background (`ProcessCache::get_or_refresh`).
pub fn trust_cache<V: Clone>() -> crate::cache::ProcessCache<String, V> {
    crate::cache::ProcessCache::new(crate::cache::CacheKind::TrustInsights, TRUST_TTL, std::time::Duration::ZERO, 200)
        .serving_stale_for(TRUST_STALE)
}

/// How many trust-wide readings one process makes at once (each holds a connection and a
/// core for seconds, and its groups in memory): the rest wait their turn, so a process's
/// first minutes with twenty trusts' leaders neither take the whole pool nor the memory.
const TRUST_READINGS_AT_ONCE: usize = 2;

/// Runs one trust-wide reading, at most [`TRUST_READINGS_AT_ONCE`] together.
pub async fn trust_reading<T>(reading: impl std::future::Future<Output = RpcResult<T>>) -> RpcResult<T> {
    static READINGS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(TRUST_READINGS_AT_ONCE);
    let _turn = READINGS.acquire().await.map_err(|_| crate::rpc::RpcError::internal("the readings' semaphore closed"))?;
    reading.await
}

/// How old a trust's answer kept in the database may be and still be given at once to a
/// process that holds none (another process's, this one's before it restarted, or the one
/// prepared before the day started: [`prepare`]), while it is worked out again in the
/// background: the page says when it was worked out, and shows the newer figures by itself
/// when they are ready ([`overview::InsightsOverview`]'s `refreshing`). A day, as long as
/// answers are kept (`answers::KEEP_FOR`); older, the request waits for the reading.
pub const STORED_FOR: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// Where a trust's answer of type `V` to `key` is kept in the database: the SHA-256 of both
/// (the overview's and the pupils' keys must never meet).
fn answer_hash<V>(key: &str) -> String {
    hex::encode(Sha256::digest(format!("{} {key}", std::any::type_name::<V>()).as_bytes()))
}

/// Keeps `value`, worked out at `worked_out_at`, as the answer to `key` for every process.
async fn keep<V: Serialize>(db: &Db, key: &str, value: &V, worked_out_at: NaiveDateTime) -> RpcResult<()> {
    let body = serde_json::to_string(value).map_err(|err| RpcError::internal(format!("an answer to keep: {err}")))?;
    answers::keep(&mut db.conn().await?.db(), &answer_hash::<V>(key), &body, worked_out_at).await?;
    Ok(())
}

/// A trust's answer for `key` (a [`trust_key`]), from the process's `cache`, else from the
/// database, else worked out by `read` (at most [`TRUST_READINGS_AT_ONCE`] together):
/// * kept in the process: given as `ProcessCache::get_or_refresh` says (fresh for
///   [`TRUST_TTL`], then given while it is read again in the background);
/// * not kept here, but in the database (`models::insights::answers`, written by every
///   reading): given at once when it is younger than [`STORED_FOR`], fresh for what is left
///   of its minute and otherwise read again in the background;
/// * a reading first takes another process's answer younger than [`TRUST_TTL`], so a trust
///   is read about once a minute however many processes serve it.
///
/// The database keeps a `V` as JSON; the process keeps what `kept` makes of it (`K`): the
/// value itself where each request adds to it (the overview's `refreshing`), or its encoded
/// answer ([`Cached`]), sent as it is and compressed once (the pupils to look at: 50
/// schools' list, some 60 KB compressed, was encoded and compressed for every request).
pub async fn trust_answer<V, K, Fut>(
    ctx: &Ctx,
    cache: &'static ProcessCache<String, K>,
    key: String,
    kept: fn(V) -> RpcResult<K>,
    read: impl FnOnce(Db) -> Fut + Send + 'static,
) -> RpcResult<K>
where
    V: Serialize + DeserializeOwned + Send + Sync + 'static,
    K: Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = RpcResult<V>> + Send + 'static,
{
    let hash = answer_hash::<V>(&key);
    if cache.keeps() && !cache.holds(&key) {
        let generation = cache.generation();
        if let Some((value, age)) = stored::<V>(&ctx.state.db, &hash, STORED_FOR).await? {
            cache.put_aged(key.clone(), kept(value)?, generation, age.min(TRUST_TTL));
        }
    }
    let db = ctx.state.db.clone();
    // With the cache turned off (`VOICEMARK_READ_CACHES`) every request is worked out afresh.
    let shared = cache.keeps();
    let kept_as = key.clone();
    cache
        .get_or_refresh(key, move || {
            trust_reading(async move {
                if shared {
                    // Past its minute (a refresh's usual case) the body is not even read.
                    if let Some((value, _)) = stored::<V>(&db, &hash, TRUST_TTL).await? {
                        return kept(value);
                    }
                }
                let worked_out_at = crate::models::now();
                let value = read(db.clone()).await?;
                if shared {
                    keep(&db, &kept_as, &value, worked_out_at).await?;
                }
                kept(value)
            })
        })
        .await
}

/// `value` encoded once: to keep in the process and send as it is ([`trust_answer`]), or,
/// not `kept`, to send for one request.
pub fn encoded<V: Serialize>(value: V, kept: bool) -> RpcResult<Cached<V>> {
    Cached::encode(&value, kept).map_err(|err| RpcError::internal(format!("an answer to encode: {err}")))
}

/// The answer kept in the database under `hash` and its age, if younger than `within`;
/// `None` when there is none so young or it no longer reads as a `V` (kept by an older
/// release).
async fn stored<V: DeserializeOwned>(db: &Db, hash: &str, within: std::time::Duration) -> RpcResult<Option<(V, std::time::Duration)>> {
    let now = crate::models::now();
    let since = chrono::Duration::from_std(within).ok().and_then(|d| now.checked_sub_signed(d)).unwrap_or(NaiveDateTime::MIN);
    let Some(row) = answers::find(&mut db.conn().await?.db(), hash, since).await? else {
        return Ok(None);
    };
    let age = (now - row.worked_out_at).to_std().unwrap_or_default();
    Ok(serde_json::from_str(&row.body).ok().map(|value| (value, age)))
}

/// The caller's checked scope and filters, read on a connection given back before the
/// figures are worked out (a trust's are worked out on a connection of their own).
pub async fn checked(ctx: &Ctx, input: &InsightsInput) -> RpcResult<(Checked, UserRole)> {
    let mut pooled = ctx.conn().await?;
    let (scope, role) = scope_of(ctx, &mut pooled.db()).await?;
    Ok((check(input, scope)?, role))
}

/// A trust's Insights (a MAT user's schools: up to 50 schools and a million submissions,
/// 2-3 s of database work) are kept in the process for [`TRUST_TTL`] by this key (the
/// schools, the teacher, the filters, the range and `extra`), shared by every MAT user of
/// the trust and worked out once however many ask together (`cache::ProcessCache`). They
/// are not emptied by the change feed: hand-ins and marks in 50 schools would empty them
/// every second. So a trust's figures are at most a minute old (docs/insights.md); a
/// school's and a teacher's are always worked out afresh. `None` for anyone but a MAT user.
pub fn trust_key(c: &Checked, role: UserRole, extra: &str) -> Option<String> {
    (role == UserRole::MatUser).then(|| {
        format!("{:?} {:?} {:?} {} {} {extra}", c.scope.school_ids, c.scope.sender_id, c.filter, c.from, c.to)
    })
}

/// How many weeks the range covers when none is given.
pub const DEFAULT_WEEKS: i64 = 12;
/// The longest range, in days (two school years).
pub const MAX_DAYS: i64 = 800;

rpc_type! {
    /// The page's filters: dates `yyyy-MM-dd` (both included; default the last 12 weeks),
    /// and ids (null = all).
    pub struct InsightsInput {
        pub from: Option<String>,
        pub to: Option<String>,
        pub school_id: Option<String>,
        pub year_group_id: Option<String>,
        pub form_group_id: Option<String>,
        pub class_id: Option<String>,
        pub teacher_id: Option<String>,
    }
}

/// What the caller sees: `SCHOOL` (the whole school), `TRUST` (a MAT user's schools) or
/// `OWN` (the assignments they sent).
pub fn scope_name(scope: &Scope, role: UserRole) -> &'static str {
    if scope.sender_id.is_some() {
        "OWN"
    } else if role == UserRole::MatUser {
        "TRUST"
    } else {
        "SCHOOL"
    }
}

/// The caller's scope, before the school filter.
pub async fn scope_of(ctx: &Ctx, conn: &mut DbConn<'_>) -> RpcResult<(Scope, UserRole)> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?.to_owned();
    let scope = match user.role {
        UserRole::Admin | UserRole::OrgAdmin | UserRole::Superadmin => Scope {
            school_ids: vec![school_id],
            sender_id: None,
        },
        UserRole::MatUser => {
            let home = ctx.home_school_id().or(Some(school_id.as_str()));
            trust_scope(conn, &user.id, home, school_id.clone()).await?
        }
        UserRole::Teacher => Scope {
            school_ids: vec![school_id],
            sender_id: Some(user.id.clone()),
        },
    };
    Ok((scope, user.role))
}

/// A MAT user's scope: every school they may act in from `home`, and the one they act in.
pub async fn trust_scope(conn: &mut DbConn<'_>, user_id: &str, home: Option<&str>, acting: String) -> RpcResult<Scope> {
    let mut ids = organisations::acting_school_ids(conn, user_id, home).await?;
    if !ids.contains(&acting) {
        ids.push(acting);
    }
    Ok(Scope {
        school_ids: ids,
        sender_id: None,
    })
}

/// The checked range `[from, to + 1 day)` and filter of `input` for `scope`: a school
/// outside the scope matches nothing; a teacher's teacher filter is themselves.
#[derive(Debug, Clone)]
pub struct Checked {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub scope: Scope,
    pub filter: Filter,
}

impl Checked {
    pub fn start(&self) -> NaiveDateTime {
        self.from.and_hms_opt(0, 0, 0).expect("midnight")
    }
    pub fn end(&self) -> NaiveDateTime {
        (self.to + chrono::Duration::days(1)).and_hms_opt(0, 0, 0).expect("midnight")
    }
}

fn day(fields: &mut FieldErrors, name: &str, value: Option<&str>) -> Option<NaiveDate> {
    let value = value.map(str::trim).filter(|v| !v.is_empty())?;
    let parsed = NaiveDate::parse_from_str(value, "%Y-%m-%d").ok();
    if parsed.is_none() {
        fields.add(name, "Enter a date as dd/MM/yyyy.");
    }
    parsed
}

/// The range of `from`/`to` (`yyyy-MM-dd`), by default the 12 weeks up to today.
pub fn range(from: Option<&str>, to: Option<&str>) -> RpcResult<(NaiveDate, NaiveDate)> {
    let mut fields = FieldErrors::default();
    let today = crate::models::now().date();
    let to = day(&mut fields, "to", to).unwrap_or(today);
    let from = day(&mut fields, "from", from)
        .unwrap_or(to - chrono::Duration::days(DEFAULT_WEEKS * 7 - 1));
    if fields.is_empty() && from > to {
        fields.add("to", "The end date must not be before the start date.");
    } else if fields.is_empty() && (to - from).num_days() > MAX_DAYS {
        fields.add("from", "Choose a range of at most two years.");
    }
    fields.into_result()?;
    Ok((from, to))
}

pub fn check(input: &InsightsInput, mut scope: Scope) -> RpcResult<Checked> {
    let (from, to) = range(input.from.as_deref(), input.to.as_deref())?;
    let clean = |v: &Option<String>| v.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
    if let Some(school) = clean(&input.school_id) {
        scope.school_ids.retain(|id| *id == school);
    }
    let teacher_id = match &scope.sender_id {
        Some(_) => None,
        None => clean(&input.teacher_id),
    };
    Ok(Checked {
        from,
        to,
        filter: Filter {
            year_group_id: clean(&input.year_group_id),
            form_group_id: clean(&input.form_group_id),
            class_id: clean(&input.class_id),
            teacher_id,
        },
        scope,
    })
}

/// The Monday of `day`'s week (`yyyy-MM-dd` text; anything else is `None`).
pub fn week_of(day: &str) -> Option<NaiveDate> {
    let date = NaiveDate::parse_from_str(day.get(..10)?, "%Y-%m-%d").ok()?;
    Some(date - chrono::Duration::days(date.weekday().num_days_from_monday() as i64))
}

/// The Mondays of the weeks from `from` to `to`, as `yyyy-MM-dd`.
pub fn weeks(from: NaiveDate, to: NaiveDate) -> Vec<String> {
    let mut monday = from - chrono::Duration::days(from.weekday().num_days_from_monday() as i64);
    let mut out = Vec::new();
    while monday <= to {
        out.push(monday.format("%Y-%m-%d").to_string());
        monday += chrono::Duration::days(7);
    }
    out
}

/// `part` of `whole` in percent to one decimal; `None` of nothing.
pub fn percent(part: i64, whole: i64) -> Option<f64> {
    (whole > 0).then(|| (part as f64 * 1000.0 / whole as f64).round() / 10.0)
}

/// Hours to one decimal.
pub fn hours(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weeks_cover_the_range_from_its_monday() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        assert_eq!(weeks(d("2026-11-04"), d("2026-11-16")), vec!["2026-11-02", "2026-11-09", "2026-11-16"]);
        assert_eq!(percent(1, 3), Some(33.3));
        assert_eq!(percent(0, 0), None);
    }

    #[test]
    fn weeks_start_on_monday() {
        assert_eq!(week_of("2026-11-27"), NaiveDate::from_ymd_opt(2026, 11, 23));
        assert_eq!(week_of("2026-11-23 10:00:00"), NaiveDate::from_ymd_opt(2026, 11, 23));
        assert_eq!(week_of("x"), None);
    }

    #[test]
    fn ranges_default_to_twelve_weeks_and_refuse_backwards() {
        let (from, to) = range(None, Some("2026-11-27")).unwrap();
        assert_eq!((to - from).num_days(), 83);
        assert!(range(Some("2026-11-28"), Some("2026-11-27")).is_err());
        assert!(range(Some("27/11/2026"), None).is_err());
    }
}
