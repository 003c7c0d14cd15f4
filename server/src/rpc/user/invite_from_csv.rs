//! `user.inviteFromCsv`: invites everyone in a CSV file (forename, surname, email, role
//! optional) to the caller's school, all or nothing: every bad row is reported as
//! "Line N: ..." under `csv`, and a file with more people than free seats is refused as a
//! whole with the seat message. Roles: TEACHER / ADMIN (or the labels Standard / Staff);
//! blank means TEACHER.

use std::collections::HashMap;

use super::invite::{invite_role, invite_school, EMAIL_TAKEN};
use super::manager;
use crate::roster::staff::read_staff;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};
use crate::staffing::{self, InviteError, Invitee};
use crate::transaction;

/// Problems listed before the rest are summed up in one line.
const MAX_REPORTED: usize = 100;

rpc_type! {
    pub struct InviteFromCsvInput {
        /// The file's text (UTF-8).
        pub csv: String,
        /// A superadmin's chosen school; others invite into their own.
        pub school_id: Option<String>,
    }
}

rpc_type! {
    pub struct InviteFromCsvResult {
        pub invited: i64,
    }
}

fn problems_error(problems: Vec<String>) -> RpcError {
    let mut errors = FieldErrors::default();
    let total = problems.len();
    for problem in problems.into_iter().take(MAX_REPORTED) {
        errors.add("csv", problem);
    }
    if total > MAX_REPORTED {
        errors.add("csv", format!("…and {} more problems.", total - MAX_REPORTED));
    }
    errors.into_result().err().unwrap_or_else(|| RpcError::bad_request("The file was refused."))
}

/// A role cell: the wire name or the leaders' label (Standard, Staff, ...).
fn role_cell(cell: &str) -> String {
    let labels: HashMap<&str, &str> = [
        ("standard", "TEACHER"),
        ("teacher", "TEACHER"),
        ("staff", "ADMIN"),
        ("admin", "ADMIN"),
        ("org admin", "ORG_ADMIN"),
        ("mat admin", "MAT_USER"),
    ]
    .into_iter()
    .collect();
    let lower = cell.trim().to_lowercase();
    labels
        .get(lower.as_str())
        .map(|w| (*w).to_owned())
        .unwrap_or_else(|| cell.trim().to_uppercase())
}

pub async fn handler(ctx: &Ctx, input: InviteFromCsvInput) -> RpcResult<InviteFromCsvResult> {
    let caller = manager(ctx)?.clone();
    let rows = read_staff(&input.csv).map_err(problems_error)?;
    let mut problems = Vec::new();
    let mut invitees = Vec::with_capacity(rows.len());
    for row in &rows {
        match invite_role(caller.role, &role_cell(&row.role)) {
            Ok(role) => invitees.push(Invitee {
                forename: row.forename.clone(),
                surname: row.surname.clone(),
                email: row.email.clone(),
                role,
            }),
            Err(message) => problems.push(format!("Line {}: {message}", row.line)),
        }
    }
    if !problems.is_empty() {
        return Err(problems_error(problems));
    }
    let school_id = invite_school(ctx, input.school_id).await?;
    let config = &ctx.state.config;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let invited = transaction!(&mut conn, |c| {
        staffing::invite(c, config, Some(&caller.id), &school_id, &invitees).await
    });
    match invited {
        Ok(ids) => Ok(InviteFromCsvResult {
            invited: ids.len() as i64,
        }),
        Err(InviteError::EmailTaken(indexes)) => Err(problems_error(
            indexes
                .into_iter()
                .map(|i| format!("Line {}: {EMAIL_TAKEN}", rows[i].line))
                .collect(),
        )),
        Err(InviteError::SeatsFull(message)) => Err(RpcError::new(ErrorCode::Forbidden, message)),
        Err(InviteError::Db(err)) => Err(err.into()),
    }
}
