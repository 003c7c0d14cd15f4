//! `account.*` (and `user.changePassword`): sign-up, e-mail confirmation and passwords,
//! delegating to `crate::auth::accounts`; this file maps its errors to tRPC's.

pub mod change_password;
pub mod confirm_email;
pub mod register;
pub mod request_password_reset;
pub mod reset_password;

use crate::auth::accounts::AccountError;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::{ErrorCode, RpcError};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "account.confirmEmail" => confirm_email),
        procedure!(Mutation "account.register" => register),
        procedure!(Mutation "account.requestPasswordReset" => request_password_reset),
        procedure!(Mutation "account.resetPassword" => reset_password),
        procedure!(Mutation "user.changePassword" => change_password),
    ]
}

impl From<AccountError> for RpcError {
    fn from(err: AccountError) -> Self {
        match err {
            AccountError::Field { field, message } => RpcError::field(field, message),
            AccountError::InvalidToken => {
                RpcError::bad_request("This link is invalid or has expired.")
            }
            AccountError::RateLimited => RpcError::new(
                ErrorCode::TooManyRequests,
                "Too many attempts. Please wait a few minutes and try again.",
            ),
            AccountError::Internal(detail) => RpcError::internal(detail),
            AccountError::Database(err) => RpcError::from(err),
        }
    }
}
