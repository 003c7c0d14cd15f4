//! Each recipient's e-mail choices, changed from the `/preferences/{token}` link.

use chrono::NaiveDateTime;
use core_wasm::NotificationFrequency;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::upsert::excluded;
use diesel_async::RunQueryDsl;

use crate::db::schema::email_preferences;
use crate::db::DbConn;
use crate::with_conn;

#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = email_preferences)]
pub struct NewEmailPreference {
    pub email: String,
    pub language: String,
    pub general: bool,
    pub assignment: bool,
    pub frequency: NotificationFrequency,
    pub token: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// The values one [`NewEmailPreference`] binds, for batch inserts' chunk size.
const NEW_EMAIL_PREFERENCE_COLUMNS: usize = 8;

pub async fn insert(conn: &mut DbConn<'_>, preference: &NewEmailPreference) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(email_preferences::table)
        .values(preference)
        .execute(c)
        .await)?;
    Ok(())
}

/// A recipient's choices, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = email_preferences)]
pub struct StoredChoices {
    pub general: bool,
    pub assignment: bool,
    pub frequency: NotificationFrequency,
    pub language: String,
}

/// The choices stored for `email`, if any.
pub async fn find_choices(
    conn: &mut DbConn<'_>,
    email: &str,
) -> QueryResult<Option<StoredChoices>> {
    with_conn!(conn, |c| email_preferences::table
        .find(email)
        .select(StoredChoices::as_select())
        .first(c)
        .await
        .optional())
}

/// Saves the choices in `preference`, creating the row on first save. An existing row keeps
/// its token, so links already sent stay valid.
pub async fn save_choices(
    conn: &mut DbConn<'_>,
    preference: &NewEmailPreference,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::insert_into(email_preferences::table)
        .values(preference)
        .on_conflict(email_preferences::email)
        .do_update()
        .set((
            email_preferences::language.eq(excluded(email_preferences::language)),
            email_preferences::general.eq(excluded(email_preferences::general)),
            email_preferences::assignment.eq(excluded(email_preferences::assignment)),
            email_preferences::frequency.eq(excluded(email_preferences::frequency)),
            email_preferences::updated_at.eq(excluded(email_preferences::updated_at)),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// A recipient's preference row as sending needs it.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = email_preferences)]
pub struct Preference {
    pub email: String,
    pub language: String,
    pub general: bool,
    pub assignment: bool,
    pub frequency: NotificationFrequency,
    pub token: String,
    pub last_digest_at: Option<NaiveDateTime>,
}

impl Preference {
    /// Whether this recipient wants e-mail about a notification of `kind`.
    pub fn allows(&self, kind: core_wasm::NotificationType) -> bool {
        match kind {
            core_wasm::NotificationType::General => self.general,
            core_wasm::NotificationType::Assignment => self.assignment,
        }
    }
}

/// The preference rows of `emails` (lower-case addresses), creating the missing ones with
/// both switches on, `frequency` and a fresh link token. Rows made concurrently by another
/// transaction are read back, never duplicated.
pub async fn ensure_for(
    conn: &mut DbConn<'_>,
    emails: &[String],
    frequency: NotificationFrequency,
) -> QueryResult<std::collections::HashMap<String, Preference>> {
    let mut found = find_many(conn, emails).await?;
    let at = crate::models::now();
    let missing: Vec<NewEmailPreference> = emails
        .iter()
        .filter(|e| !found.contains_key(e.as_str()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|email| NewEmailPreference {
            email: email.clone(),
            language: "en".into(),
            general: true,
            assignment: true,
            frequency,
            token: crate::ids::new_token(),
            created_at: at,
            updated_at: at,
        })
        .collect();
    if missing.is_empty() {
        return Ok(found);
    }
    let addresses: Vec<String> = missing.iter().map(|m| m.email.clone()).collect();
    crate::batch_insert!(
        conn,
        email_preferences::table,
        missing,
        columns = NEW_EMAIL_PREFERENCE_COLUMNS,
        |q| q.on_conflict_do_nothing()
    )?;
    found.extend(find_many(conn, &addresses).await?);
    Ok(found)
}

/// Sets the e-mail language of `email` (Manage School's pupil record, for a parent),
/// creating its preference row with the school's `frequency` when there is none yet.
pub async fn set_language(
    conn: &mut DbConn<'_>,
    email: &str,
    language: &str,
    frequency: NotificationFrequency,
) -> QueryResult<()> {
    ensure_for(conn, &[email.to_owned()], frequency).await?;
    with_conn!(conn, |c| diesel::update(email_preferences::table.find(email))
        .set((
            email_preferences::language.eq(language),
            email_preferences::updated_at.eq(crate::models::now()),
        ))
        .execute(c)
        .await)?;
    Ok(())
}

/// The rows of `emails`, by address.
pub async fn find_many(
    conn: &mut DbConn<'_>,
    emails: &[String],
) -> QueryResult<std::collections::HashMap<String, Preference>> {
    let mut out = std::collections::HashMap::with_capacity(emails.len());
    for chunk in emails.chunks(crate::db::rows_per_statement(1)) {
        let rows: Vec<Preference> = with_conn!(conn, |c| email_preferences::table
            .filter(email_preferences::email.eq_any(chunk))
            .select(Preference::as_select())
            .load(c)
            .await)?;
        out.extend(rows.into_iter().map(|p| (p.email.clone(), p)));
    }
    Ok(out)
}

/// The row of one address.
pub async fn find(conn: &mut DbConn<'_>, email: &str) -> QueryResult<Option<Preference>> {
    with_conn!(conn, |c| email_preferences::table
        .find(email)
        .select(Preference::as_select())
        .first(c)
        .await
        .optional())
}

/// The row whose `/preferences/{token}` link this is.
pub async fn find_by_token(conn: &mut DbConn<'_>, token: &str) -> QueryResult<Option<Preference>> {
    with_conn!(conn, |c| email_preferences::table
        .filter(email_preferences::token.eq(token))
        .select(Preference::as_select())
        .first(c)
        .await
        .optional())
}

/// Changes the choices of the row with `token`; false when no row has it.
pub async fn update_by_token(
    conn: &mut DbConn<'_>,
    token: &str,
    choices: &StoredChoices,
) -> QueryResult<bool> {
    let at = crate::models::now();
    let n = with_conn!(conn, |c| diesel::update(
        email_preferences::table.filter(email_preferences::token.eq(token))
    )
    .set((
        email_preferences::general.eq(choices.general),
        email_preferences::assignment.eq(choices.assignment),
        email_preferences::frequency.eq(choices.frequency),
        email_preferences::language.eq(&choices.language),
        email_preferences::updated_at.eq(at),
    ))
    .execute(c)
    .await)?;
    Ok(n == 1)
}

/// Records that the digest up to `period_end` went out (never moves backwards).
pub async fn mark_digest_sent(
    conn: &mut DbConn<'_>,
    email: &str,
    period_end: NaiveDateTime,
) -> QueryResult<()> {
    with_conn!(conn, |c| diesel::update(
        email_preferences::table.find(email).filter(
            email_preferences::last_digest_at
                .is_null()
                .or(email_preferences::last_digest_at.lt(period_end))
        )
    )
    .set(email_preferences::last_digest_at.eq(period_end))
    .execute(c)
    .await)?;
    Ok(())
}
