//! `taskContent.voiceNotes {taskId, cursor?}` → a page ([`PAGE`]) of the caller's voice
//! notes (personal folder, newest first, then by id) after a stable cursor (docs/scaling.md
//! "Paged lists"), each saying whether it is already part of the task: the list of the
//! "Pull in voice notes" dialog.

use crate::models::stored_files;
use crate::models::task_items;
use crate::rpc::superjson::JsDate;
use crate::rpc::task_content::require_task;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{cursor, Ctx, RpcResult};

rpc_type! {
    pub struct TaskIdInput {
        pub task_id: String,
    }
}

/// Voice notes per page of the picker.
pub const PAGE: i64 = 50;

rpc_type! {
    pub struct PickerInput {
        pub task_id: String,
        /// `nextCursor` of the page before; absent = the first page.
        pub cursor: Option<String>,
    }
}

rpc_type! {
    pub struct PickablePage {
        pub notes: Vec<PickableVoiceNote>,
        /// Every voice note in the caller's personal folder.
        pub total: i64,
        /// Where the next page starts; none on the last page.
        pub next_cursor: Option<String>,
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

pub async fn handler(ctx: &Ctx, input: PickerInput) -> RpcResult<PickablePage> {
    require_task(ctx, &input.task_id).await?;
    let after = cursor::time_key("cursor", input.cursor.as_deref())?;
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    // One more than a page tells whether another follows.
    let (mut notes, total) =
        stored_files::personal_voice_notes_page(&mut conn, school_id, &user.id, after.as_ref(), PAGE + 1).await?;
    let next_cursor = if notes.len() as i64 > PAGE {
        notes.truncate(PAGE as usize);
        notes.last().map(|n| cursor::of_time(n.created_at, &n.id))
    } else {
        None
    };
    let ids: Vec<String> = notes.iter().map(|n| n.id.clone()).collect();
    let present = task_items::files_in_task(&mut conn, &input.task_id, &ids).await?;
    let notes = notes
        .into_iter()
        .map(|note| PickableVoiceNote {
            added: present.contains(&note.id),
            size: note.size_bytes.unwrap_or(0),
            created_at: note.created_at.into(),
            filename: note.filename,
            id: note.id,
        })
        .collect();
    Ok(PickablePage { notes, total, next_cursor })
}
