//! `leader.*`: the leaders' tools. Voice notes: `uploadVoiceNote` signs a direct upload,
//! `transferVoiceNoteToPersonalFolder` files it once it has arrived. Every role that can
//! sign in may use them (pupils record voice notes too); everything is scoped to the
//! caller's school and to the caller.

pub mod billing;
pub mod create_customer_session;
pub mod get_seat_info;
pub mod list_task_files;
pub mod transfer_voice_note_to_personal_folder;
pub mod upload_task_file;
pub mod upload_voice_note;

use crate::rpc::registry::{procedure, Procedure};

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "leader.createCustomerSession" => create_customer_session),
        procedure!(Query "leader.getSeatInfo" => get_seat_info),
        procedure!(Query "leader.listTaskFiles" => list_task_files),
        procedure!(Mutation "leader.uploadTaskFile" => upload_task_file),
        procedure!(Mutation "leader.transferVoiceNoteToPersonalFolder" => transfer_voice_note_to_personal_folder),
        procedure!(Mutation "leader.uploadVoiceNote" => upload_voice_note),
    ]
}
