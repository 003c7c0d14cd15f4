//! `support.contact`: a signed-in user writes to support. The message goes to
//! `VOICEMARK_SUPPORT_EMAIL` with the user's name, e-mail, school, plan and the page they
//! wrote from (Pro marked as priority), and a copy goes to the sender; both through the job
//! queue, so the answer never waits for the mail server. Five messages per user per 15
//! minutes.

use core_wasm::plan::Plan;

use crate::auth::rate_limit::WINDOW;
use crate::jobs::email_support::{SupportEmail, SupportRecipient};
use crate::models::organisations;
use crate::rpc::error::{ErrorCode, FieldErrors};
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcError, RpcResult};
use crate::transaction;

/// The longest subject, in characters.
pub const MAX_SUBJECT: usize = core_wasm::limits::MAX_SUPPORT_SUBJECT_CHARS;
/// The longest message, in characters.
pub const MAX_MESSAGE: usize = core_wasm::limits::MAX_SUPPORT_MESSAGE_CHARS;
/// The longest page address kept (a longer one is cut).
const MAX_PAGE: usize = 300;
/// Messages one user may send within the limiter's window.
pub const CONTACT_LIMIT: usize = 5;

rpc_type! {
    pub struct ContactInput {
        pub subject: String,
        pub message: String,
        /// The app path the user wrote from (e.g. `/leaders/tasks`), for support's context.
        pub page: Option<String>,
    }
}

rpc_type! {
    pub struct ContactResult {
        /// Where the message went (the support address) and where the copy went.
        pub support_email: String,
        pub copy_to: String,
        pub priority: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: ContactInput) -> RpcResult<ContactResult> {
    let user = ctx.require_user()?.clone();
    let subject = input.subject.trim().to_owned();
    let message = input.message.trim().to_owned();
    let mut errors = FieldErrors::default();
    if subject.is_empty() {
        errors.add("subject", "Enter a subject.");
    } else if subject.chars().count() > MAX_SUBJECT {
        errors.add(
            "subject",
            core_wasm::limits::too_long_message(MAX_SUBJECT),
        );
    }
    if message.is_empty() {
        errors.add("message", "Write your message.");
    } else if message.chars().count() > MAX_MESSAGE {
        errors.add(
            "message",
            core_wasm::limits::too_long_message(MAX_MESSAGE),
        );
    }
    errors.into_result()?;
    let page = input
        .page
        .map(|p| p.trim().chars().take(MAX_PAGE).collect::<String>())
        .filter(|p| p.starts_with('/'))
        .unwrap_or_else(|| "(not given)".to_owned());

    let limiter = &ctx.state.auth.limiter;
    if !limiter.try_acquire(&format!("support:{}", user.id), CONTACT_LIMIT).await {
        return Err(RpcError::new(
            ErrorCode::TooManyRequests,
            format!(
                "You have sent {CONTACT_LIMIT} messages in a short time. Please wait {} minutes and try again.",
                WINDOW.as_secs() / 60
            ),
        ));
    }

    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let school = match &user.school_id {
        Some(id) => organisations::school_settings(&mut conn, id)
            .await?
            .map(|s| s.name),
        None => None,
    };
    let priority =
        crate::plans::user_plan(&mut conn, &ctx.state.config, &user).await? == Plan::Pro;
    let support_email = ctx.state.config.support_email.clone();
    let email = SupportEmail {
        to: support_email.clone(),
        recipient: SupportRecipient::Support,
        name: format!("{} {}", user.forename, user.surname).trim().to_owned(),
        email: user.email.clone(),
        school: school.unwrap_or_else(|| "(no school)".to_owned()),
        plan: if priority { "Pro" } else { "Basic" }.to_owned(),
        priority,
        page,
        subject,
        message,
    };
    let copy = SupportEmail {
        to: user.email.clone(),
        recipient: SupportRecipient::Sender,
        ..email.clone()
    };
    transaction!(&mut conn, |c| {
        email.queue(c).await?;
        copy.queue(c).await?;
        Ok::<_, RpcError>(())
    })?;
    Ok(ContactResult {
        support_email,
        copy_to: user.email,
        priority,
    })
}
