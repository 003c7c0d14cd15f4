//! `taskContent.voiceNotes {taskId}` → the caller's voice notes (personal folder, newest
//! first), each saying whether it is already part of the task: the list of the "Pull in
//! voice notes" dialog.

use crate::models::stored_files;
use crate::models::task_items;
use crate::rpc::superjson::JsDate;
use crate::rpc::task_content::require_task;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, RpcResult};

rpc_type! {
    pub struct TaskIdInput {
        pub task_id: String,
    }
}

rpc_type! {
    pub struct PickableVoiceNote {
        pub id: String,
        pub filename: String,
        pub size: i64,
        pub created_at: JsDate,
        pub added: bool,
    }
}

pub async fn handler(ctx: &Ctx, input: TaskIdInput) -> RpcResult<Vec<PickableVoiceNote>> {
    require_task(ctx, &input.task_id).await?;
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let notes = stored_files::personal_voice_notes(&mut conn, school_id, &user.id).await?;
    let ids: Vec<String> = notes.iter().map(|n| n.id.clone()).collect();
    let present = task_items::files_in_task(&mut conn, &input.task_id, &ids).await?;
    Ok(notes
        .into_iter()
        .map(|note| PickableVoiceNote {
            added: present.contains(&note.id),
            size: note.size_bytes.unwrap_or(0),
            created_at: note.created_at.into(),
            filename: note.filename,
            id: note.id,
        })
        .collect())
}
