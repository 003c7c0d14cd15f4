//! `microsoft.*`: a staff member's connection to Microsoft 365 for a task's content
//! (`crate::microsoft_graph`; the connect and callback routes are under `/api/microsoft`).

pub mod browse;
pub mod disconnect;
pub mod libraries;
pub mod recordings;
pub mod status;

use crate::microsoft_graph::{self, GraphAccess};
use crate::models::users::User;
use crate::providers::msgraph::{GraphClient, GraphError};
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Query "microsoft.browse" => browse),
        procedure!(Mutation "microsoft.disconnect" => disconnect),
        procedure!(Query "microsoft.libraries" => libraries),
        procedure!(Query "microsoft.recordings" => recordings),
        procedure!(Query "microsoft.status" => status),
    ]
}

/// Anyone signed in who may build tasks (the content step checks each task's access, as
/// `taskContent.*` does).
pub(crate) fn staff(ctx: &Ctx) -> RpcResult<&User> {
    ctx.require_user()
}

/// Graph and a fresh access token for `user_id`, or the sentence saying why not.
pub(crate) async fn token_for(ctx: &Ctx, user_id: &str) -> RpcResult<(GraphClient, String)> {
    let Some(graph) = ctx.state.providers.graph.clone() else {
        return Err(access_failure(GraphAccess::NotConfigured));
    };
    let token = microsoft_graph::access_token(&ctx.state, user_id)
        .await
        .map_err(access_failure)?;
    Ok((graph, token))
}

/// Why Graph cannot be used for the caller, as the content step shows it.
pub(crate) fn access_failure(err: GraphAccess) -> RpcError {
    match err {
        GraphAccess::Db(_) | GraphAccess::Pool(_) => RpcError::internal(err.to_string()),
        GraphAccess::Unavailable(_) => RpcError::new(ErrorCode::InternalServerError, err.message()),
        _ => RpcError::new(ErrorCode::PreconditionFailed, err.message()),
    }
}

/// A failed Graph call, as a sentence.
pub(crate) fn graph_failure(err: GraphError) -> RpcError {
    tracing::info!(error = %err, "a Microsoft Graph call failed");
    let message = match &err {
        GraphError::Api { status: 401, .. } => {
            "Your Microsoft connection has expired. Connect your Microsoft account again."
        }
        GraphError::Api { status: 403, .. } => {
            "Microsoft did not allow this: your organisation may need to grant Voicemark access to files and meeting recordings."
        }
        GraphError::Api { status: 404, .. } => "Microsoft could not find this item any more.",
        GraphError::Api { status: 429, .. } => "Microsoft is busy. Try again in a minute.",
        _ => "Microsoft could not be reached. Try again later.",
    };
    RpcError::new(ErrorCode::PreconditionFailed, message)
}
