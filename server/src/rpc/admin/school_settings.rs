//! `admin.schoolSettings`: the caller's school's name, postcode, type, parent e-mail settings
//! whether the AI assistant keeps its history and whether e-mails carry the image that
//! counts them opened.

use core_wasm::NotificationFrequency;

use super::{not_found, require_admin};
use crate::models::organisations::{self, SchoolSettings as Stored};
use crate::rpc::registry::NoInput;
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, RpcResult};

/// A school's settings on the wire. Written out by hand (not `rpc_type!`) because one
/// field is called `type`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SchoolSettings {
    pub name: String,
    pub postcode: Option<String>,
    /// SCHOOL or BUSINESS.
    #[serde(rename = "type")]
    pub org_type: String,
    pub notify_parents_general: bool,
    pub notify_parents_assignment: bool,
    pub notifications_frequency: NotificationFrequency,
    /// The AI assistant keeps questions and answers; absent (an older client) = on.
    #[serde(default = "on")]
    pub assistant_history: bool,
    /// Opened e-mails are also counted by an invisible image; absent = off.
    #[serde(default)]
    pub reach_pixel: bool,
}

fn on() -> bool {
    true
}

impl Ts for SchoolSettings {
    fn ts(gen: &mut TsGen) -> String {
        gen.interface("SchoolSettings", |gen| {
            vec![
                ("name".into(), String::ts(gen)),
                ("postcode".into(), Option::<String>::ts(gen)),
                ("type".into(), "'SCHOOL' | 'BUSINESS'".into()),
                ("notifyParentsGeneral".into(), bool::ts(gen)),
                ("notifyParentsAssignment".into(), bool::ts(gen)),
                (
                    "notificationsFrequency".into(),
                    NotificationFrequency::ts(gen),
                ),
                ("assistantHistory".into(), bool::ts(gen)),
                ("reachPixel".into(), bool::ts(gen)),
            ]
        });
        "SchoolSettings".into()
    }
}

impl From<Stored> for SchoolSettings {
    fn from(s: Stored) -> Self {
        SchoolSettings {
            name: s.name,
            postcode: s.postcode,
            org_type: s.org_type.as_str().to_owned(),
            notify_parents_general: s.notify_parents_general,
            notify_parents_assignment: s.notify_parents_assignment,
            notifications_frequency: s.notifications_frequency,
            assistant_history: s.assistant_history,
            reach_pixel: s.reach_pixel,
        }
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<SchoolSettings> {
    let school_id = require_admin(ctx)?;
    let mut pooled = ctx.conn().await?;
    organisations::school_settings(&mut pooled.db(), school_id)
        .await?
        .map(SchoolSettings::from)
        .ok_or_else(|| not_found("School"))
}
