//! `admin.refusedAddresses`: the school's pupils whose own or parent's e-mail address a mail
//! server refused (a hard bounce or an SMTP refusal; docs/bounces.md). Shown on Manage
//! School's Pupils tab for every school, and among the MIS sync tab's data problems. Nothing
//! is sent to such an address until an admin saves the pupil's address again.

use super::require_admin;
use crate::models::bounces::{self, PupilRefusal};
use crate::rpc::registry::NoInput;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    /// A pupil's refused address.
    pub struct RefusedAddress {
        pub student_id: String,
        /// "Forename Surname".
        pub name: String,
        /// `pupil` or `parent`.
        pub audience: String,
        pub address: String,
        /// The mail server's words.
        pub reason: String,
        pub refused_at: JsDate,
        /// The sentence the pupil's record shows.
        pub sentence: String,
    }
}

rpc_type! {
    pub struct RefusedAddresses {
        pub addresses: Vec<RefusedAddress>,
    }
}

impl From<PupilRefusal> for RefusedAddress {
    fn from(r: PupilRefusal) -> Self {
        RefusedAddress {
            sentence: bounces::refusal_sentence(r.audience, &r.address, &r.reason, r.refused_at),
            student_id: r.student_id,
            name: format!("{} {}", r.forename, r.surname),
            audience: r.audience.to_owned(),
            address: r.address,
            reason: r.reason,
            refused_at: r.refused_at.into(),
        }
    }
}

pub async fn handler(ctx: &Ctx, _input: NoInput) -> RpcResult<RefusedAddresses> {
    let school_id = require_admin(ctx)?;
    let mut pooled = ctx.conn().await?;
    let rows = bounces::refusals_in_school(&mut pooled.db(), school_id).await?;
    Ok(RefusedAddresses {
        addresses: rows.into_iter().map(RefusedAddress::from).collect(),
    })
}
