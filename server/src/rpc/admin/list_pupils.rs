//! `admin.listPupils`: one page (50) of the school's pupils by name after a stable cursor
//! (docs/scaling.md "Paged lists"), searchable by name, e-mail or UPN.

use super::require_admin;
use crate::models::email_preferences;
use crate::models::students::{self, PupilRow};
use crate::rpc::typescript::rpc_type;
use crate::models::NameKey;
use crate::rpc::{cursor, Ctx, RpcResult};

/// Pupils per page.
pub const PAGE_SIZE: i64 = 50;

rpc_type! {
    pub struct ListPupils {
        pub search: Option<String>,
        /// `nextCursor` of the page before; absent = the first page.
        pub cursor: Option<String>,
    }
}

rpc_type! {
    /// A pupil as Manage School shows and edits them.
    pub struct Pupil {
        pub id: String,
        pub forename: String,
        pub surname: String,
        pub email: Option<String>,
        pub parent_email: Option<String>,
        /// The parent's e-mail language (ISO 639-1), where the parent address has a
        /// preference row; `None` reads as English.
        pub parent_language: Option<String>,
        pub upn: Option<String>,
        pub year_group_id: Option<String>,
        pub year_group: Option<String>,
        pub form_group_id: Option<String>,
        pub form_group: Option<String>,
        pub class_ids: Vec<String>,
    }
}

impl From<PupilRow> for Pupil {
    fn from(r: PupilRow) -> Self {
        Pupil {
            id: r.id,
            forename: r.forename,
            surname: r.surname,
            email: r.email,
            parent_email: r.parent_email,
            parent_language: None,
            upn: r.upn,
            year_group_id: r.year_group_id,
            year_group: r.year_group,
            form_group_id: r.form_group_id,
            form_group: r.form_group,
            class_ids: r.class_ids,
        }
    }
}

rpc_type! {
    pub struct PupilPage {
        pub pupils: Vec<Pupil>,
        pub total: i64,
        pub page_size: i64,
        /// Where the next page starts; none on the last page.
        pub next_cursor: Option<String>,
    }
}

/// Fills each pupil's `parent_language` from the parents' preference rows.
pub async fn with_parent_languages(
    conn: &mut crate::db::DbConn<'_>,
    mut pupils: Vec<Pupil>,
) -> RpcResult<Vec<Pupil>> {
    let addresses: Vec<String> = pupils.iter().filter_map(|p| p.parent_email.clone()).collect();
    let preferences = email_preferences::find_many(conn, &addresses).await?;
    for pupil in &mut pupils {
        pupil.parent_language = pupil
            .parent_email
            .as_ref()
            .and_then(|e| preferences.get(e))
            .map(|p| p.language.clone());
    }
    Ok(pupils)
}

pub async fn handler(ctx: &Ctx, input: ListPupils) -> RpcResult<PupilPage> {
    let school_id = require_admin(ctx)?;
    let after = cursor::name_key("cursor", input.cursor.as_deref())?;
    let mut pooled = ctx.conn().await?;
    // One more than a page tells whether another follows.
    let (mut rows, total) = students::list_pupils(
        &mut pooled.db(),
        school_id,
        input.search.as_deref(),
        None,
        after.as_ref(),
        PAGE_SIZE + 1,
    )
    .await?;
    let next_cursor = if rows.len() as i64 > PAGE_SIZE {
        rows.truncate(PAGE_SIZE as usize);
        rows.last().map(|r| {
            cursor::of_name(&NameKey { surname: r.surname.clone(), forename: r.forename.clone(), id: r.id.clone() })
        })
    } else {
        None
    };
    let pupils =
        with_parent_languages(&mut pooled.db(), rows.into_iter().map(Pupil::from).collect()).await?;
    Ok(PupilPage {
        pupils,
        total,
        page_size: PAGE_SIZE,
        next_cursor,
    })
}
