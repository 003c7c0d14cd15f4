//! `support.*`: the contact form of the Support pages (`/leaders/support` for everyone in the
//! leaders' area, `/support` for admins of the pupil area). The help articles are files in
//! the app (`app/src/features/support/articles/`); only the message needs the server.

pub mod contact;

use crate::rpc::registry::{procedure, Procedure};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![procedure!(Mutation "support.contact" => contact)]
}
