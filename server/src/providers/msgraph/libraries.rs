//! SharePoint document libraries a user can browse besides their OneDrive: the sites they
//! follow (`GET /me/followedSites`, which needs `Sites.Read.All`) and each site's drives
//! (`GET /sites/{site-id}/drives`). A Teams team's files live in its SharePoint site, so a
//! followed team site brings its channel folders too.

use serde::Deserialize;

use super::{segment, GraphClient, GraphError};

/// A SharePoint site (the fields used).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Site {
    /// `{hostname},{site collection id},{web id}`.
    pub id: String,
    #[serde(default)]
    pub display_name: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
}

impl Site {
    /// What a person calls the site.
    pub fn title(&self) -> &str {
        self.display_name
            .as_deref()
            .or(self.name.as_deref())
            .filter(|n| !n.trim().is_empty())
            .unwrap_or("SharePoint site")
    }
}

/// A drive: a document library of a site (the fields used).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Drive {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub drive_type: Option<String>,
}

impl GraphClient {
    /// The sites the user follows.
    pub async fn followed_sites(&self, token: &str) -> Result<Vec<Site>, GraphError> {
        self.list(token, "/me/followedSites").await
    }

    /// The document libraries of site `site_id`.
    pub async fn site_drives(&self, token: &str, site_id: &str) -> Result<Vec<Drive>, GraphError> {
        self.list(token, &format!("/sites/{}/drives", segment(site_id)?))
            .await
    }
}
