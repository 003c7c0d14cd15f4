//! `microsoft.browse {driveId?, itemId?}` → the folders and files of one OneDrive or
//! SharePoint folder (the caller's OneDrive root when both are absent), folders first, as
//! the content step's picker shows them. Graph is asked with the caller's own delegated
//! token, so they see exactly what Microsoft lets them see.

use super::{graph_failure, staff, token_for};
use crate::providers::msgraph::DriveItem;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct BrowseInput {
        pub drive_id: Option<String>,
        pub item_id: Option<String>,
    }
}

rpc_type! {
    pub struct MicrosoftItem {
        pub id: String,
        pub drive_id: Option<String>,
        pub name: String,
        pub folder: bool,
        /// Bytes (files).
        pub size: Option<f64>,
        pub mime_type: Option<String>,
        /// ISO 8601, as Graph gives it.
        pub modified: Option<String>,
    }
}

rpc_type! {
    pub struct BrowseAnswer {
        pub items: Vec<MicrosoftItem>,
    }
}

impl From<DriveItem> for MicrosoftItem {
    fn from(item: DriveItem) -> Self {
        MicrosoftItem {
            drive_id: item.drive_id().map(str::to_owned),
            folder: item.folder.is_some(),
            size: item.size.map(|s| s as f64),
            mime_type: item.file.as_ref().and_then(|f| f.mime_type.clone()),
            modified: item.last_modified_date_time.clone(),
            name: item.name,
            id: item.id,
        }
    }
}

pub async fn handler(ctx: &Ctx, input: BrowseInput) -> RpcResult<BrowseAnswer> {
    let user = staff(ctx)?;
    let (graph, token) = token_for(ctx, &user.id).await?;
    let blank = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
    let (drive, item) = (blank(input.drive_id), blank(input.item_id));
    let mut items: Vec<MicrosoftItem> = graph
        .children(&token, drive.as_deref(), item.as_deref())
        .await
        .map_err(graph_failure)?
        .into_iter()
        .filter(|i| i.folder.is_some() || i.file.is_some())
        .map(MicrosoftItem::from)
        .collect();
    items.sort_by(|a, b| {
        b.folder
            .cmp(&a.folder)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    Ok(BrowseAnswer { items })
}
