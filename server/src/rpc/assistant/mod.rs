//! `assistant.*`: the header's AI assistant's kept questions (its history). The questions
//! themselves stream, so they are the HTTP route `POST /api/assistant` (`http::assistant`,
//! with the tools in `crate::assistant`). Every signed-in user sees and deletes only their
//! own questions; a school whose admins switched the history off keeps none.

pub mod delete_query;
pub mod history;

use crate::rpc::registry::{procedure, Procedure};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "assistant.deleteQuery" => delete_query),
        procedure!(Query "assistant.history" => history),
    ]
}
