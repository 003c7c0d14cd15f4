//! `admin.profileViews`: who opened which pupil's profile and when (the READ rows
//! `student.get` writes), newest first, 50 a page, for the Privacy tab of Manage School.

use crate::models::audit;
use crate::rpc::admin::require_admin;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// Rows per page.
pub const PAGE_SIZE: i64 = 50;

rpc_type! {
    pub struct ProfileViewsInput {
        /// 1-based; absent = 1.
        pub page: Option<i64>,
    }
}

rpc_type! {
    /// One opening of a pupil's profile.
    pub struct ProfileView {
        pub id: String,
        pub at: JsDate,
        /// "Forename Surname", or "Deleted user".
        pub viewer: String,
        /// "Forename Surname", or "Erased pupil".
        pub pupil: String,
    }
}

rpc_type! {
    pub struct ProfileViewPage {
        pub views: Vec<ProfileView>,
        pub total: i64,
        pub page: i64,
        pub page_size: i64,
    }
}

pub async fn handler(ctx: &Ctx, input: ProfileViewsInput) -> RpcResult<ProfileViewPage> {
    let school_id = require_admin(ctx)?;
    let page = input.page.unwrap_or(1).clamp(1, 1_000_000);
    let mut pooled = ctx.conn().await?;
    let (rows, total) = audit::profile_views(&mut pooled.db(), school_id, page, PAGE_SIZE).await?;
    let name = |pair: Option<(String, String)>, absent: &str| {
        pair.map_or_else(|| absent.to_owned(), |(f, s)| format!("{f} {s}"))
    };
    Ok(ProfileViewPage {
        views: rows
            .into_iter()
            .map(|row| ProfileView {
                id: row.id,
                at: row.at.into(),
                viewer: name(row.viewer, "Deleted user"),
                pupil: name(row.pupil, "Erased pupil"),
            })
            .collect(),
        total,
        page,
        page_size: PAGE_SIZE,
    })
}
