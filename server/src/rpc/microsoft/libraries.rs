//! `microsoft.libraries` → the SharePoint document libraries the caller can browse besides
//! their OneDrive: each library of each site they follow in SharePoint (a Teams team's
//! files are its site's "Documents"), named "Site › Library", sorted by name. The content
//! step's picker offers them as places to start; `microsoft.browse {driveId}` lists one.

use futures_util::stream::{self, StreamExt, TryStreamExt};

use super::{graph_failure, staff, token_for};
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

/// The most followed sites asked for their libraries (one Graph call each).
pub const MAX_SITES: usize = 50;

/// Site drive listings in flight at once.
const CONCURRENT_SITES: usize = 4;

rpc_type! {
    pub struct DocumentLibrary {
        pub drive_id: String,
        /// "Science department › Documents".
        pub name: String,
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<Vec<DocumentLibrary>> {
    let user = staff(ctx)?;
    let (graph, token) = token_for(ctx, &user.id).await?;
    let mut sites = graph.followed_sites(&token).await.map_err(graph_failure)?;
    sites.truncate(MAX_SITES);
    let (graph, token) = (&graph, &token);
    let per_site: Vec<Vec<DocumentLibrary>> = stream::iter(sites)
        .map(|site| async move {
            let drives = graph.site_drives(token, &site.id).await?;
            Ok(drives
                .into_iter()
                .map(|drive| DocumentLibrary {
                    name: format!(
                        "{} › {}",
                        site.title(),
                        drive.name.as_deref().unwrap_or("Documents")
                    ),
                    drive_id: drive.id,
                })
                .collect())
        })
        .buffered(CONCURRENT_SITES)
        .try_collect()
        .await
        .map_err(graph_failure)?;
    let mut seen = std::collections::HashSet::new();
    let mut libraries: Vec<DocumentLibrary> = per_site
        .into_iter()
        .flatten()
        .filter(|l| seen.insert(l.drive_id.clone()))
        .collect();
    libraries.sort_by_key(|l| l.name.to_lowercase());
    Ok(libraries)
}
