//! `notification.publicMessage {token}`: the message a signed link from an e-mail leads to
//! (`/messages/{token}`, no sign-in; docs/reach.md). Following the link already counted it
//! as opened (`GET /api/reach/open/{token}`); this only reads.

use crate::models::deliveries;
use crate::reach;
use crate::rpc::superjson::JsDate;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

rpc_type! {
    pub struct MessageLink {
        pub token: String,
    }
}

rpc_type! {
    pub struct PublicMessageView {
        pub school: String,
        pub title: String,
        /// Sanitised HTML.
        pub body: String,
        pub submission_due_date: Option<JsDate>,
        /// "Ada Lovelace" for a parent, "Ada" for the pupil.
        pub about: String,
        pub to_parent: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: MessageLink) -> RpcResult<PublicMessageView> {
    let invalid = || RpcError::new(ErrorCode::NotFound, "This link is not valid.");
    let id = reach::verify(ctx.state.auth.secret(), &input.token).ok_or_else(invalid)?;
    let mut pooled = ctx.conn().await?;
    let message = deliveries::public_message(&mut pooled.db(), id)
        .await?
        .ok_or_else(invalid)?;
    let to_parent = message.audience == "parent";
    Ok(PublicMessageView {
        school: message.school.clone(),
        title: message.heading().to_owned(),
        about: if to_parent {
            format!("{} {}", message.forename, message.surname)
        } else {
            message.forename.clone()
        },
        body: message.body,
        submission_due_date: message.submission_due_date.map(JsDate::from),
        to_parent,
    })
}
