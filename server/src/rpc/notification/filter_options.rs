//! `notification.filterOptions`: what the editor's pickers offer — the caller's school's
//! classes, form groups and pupils, and the year groups its pupils are in. The answer is
//! the same for everyone in the school: it is encoded once per school and sent from memory
//! until a pupil, group, class or class membership changes (`models::roster::AUDIENCES`,
//! docs/scaling.md "The audience pickers"), like the roster.

use crate::models::{groups, roster, students};
use crate::rpc::encoded::Cached;
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{superjson, Ctx, RpcError, RpcResult};

rpc_type! {
    /// A class, year group or form group to choose.
    pub struct AudienceOption {
        pub id: String,
        pub name: String,
        pub pupils: i64,
    }
}

rpc_type! {
    /// A pupil to choose.
    pub struct AudiencePupil {
        pub id: String,
        pub name: String,
        pub year_group: Option<String>,
        pub form_group: Option<String>,
    }
}

rpc_type! {
    pub struct FilterOptions {
        pub classes: Vec<AudienceOption>,
        pub year_groups: Vec<AudienceOption>,
        pub form_groups: Vec<AudienceOption>,
        pub students: Vec<AudiencePupil>,
    }
}

fn options(rows: Vec<groups::GroupRow>, only_used: bool) -> Vec<AudienceOption> {
    rows.into_iter()
        .filter(|r| !only_used || r.pupils > 0)
        .map(|r| AudienceOption {
            id: r.id,
            name: r.name,
            pupils: r.pupils,
        })
        .collect()
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Cached<FilterOptions>> {
    ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let shared = roster::AUDIENCES
        .get_or_fill(school_id, || async {
            let options = read(ctx, school_id).await?;
            let text = superjson::encode(&options).map_err(|e| RpcError::internal(e.to_string()))?;
            // Not kept while the roster's caches are off (`VOICEMARK_READ_CACHES`).
            let encoded = Cached::<FilterOptions>::from_superjson(text, roster::AUDIENCES.keeps());
            RpcResult::Ok(encoded.shared())
        })
        .await?;
    Ok(Cached::from_shared(shared))
}

/// The school's choices from the database.
async fn read(ctx: &Ctx, school_id: &str) -> RpcResult<FilterOptions> {
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let classes = groups::list_classes(&mut conn, school_id).await?;
    let year_groups = groups::list_year_groups(&mut conn, school_id).await?;
    let form_groups = groups::list_form_groups(&mut conn, school_id).await?;
    let pupils = students::list_for_school(&mut conn, school_id).await?;
    Ok(FilterOptions {
        classes: options(classes, false),
        // The school's own year groups, like its classes and form groups.
        year_groups: options(year_groups, false),
        form_groups: options(form_groups, false),
        students: pupils
            .iter()
            .map(|p| AudiencePupil {
                id: p.id.to_string(),
                name: format!("{} {}", p.forename, p.surname),
                year_group: p.year_group.map(|name| name.to_string()),
                form_group: p.form_group.map(|name| name.to_string()),
            })
            .collect(),
    })
}
