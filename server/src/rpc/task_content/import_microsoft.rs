//! `taskContent.importMicrosoft {taskId, files, recordings}` → the new items: brings
//! OneDrive / SharePoint files and Teams meeting recordings into a task's content
//! (docs/microsoft-graph.md). Each becomes a stored file and a QUEUED item at once, in one
//! transaction, and a `task.import_microsoft` job streams its bytes from Graph to storage
//! (never whole in memory); a recording then takes Teams' own transcript when the meeting
//! has one, else it is transcribed like any recording. The caller must have connected
//! their Microsoft account; the file types are those a task accepts.

use core_wasm::filename::clean_filename;
use core_wasm::uploads::{type_allowed, type_for_file, UploadKind};

use crate::ids::new_id;
use crate::jobs::task_import_microsoft::{self, MicrosoftSource};
use crate::microsoft_graph;
use crate::models::stored_files::{self, FileKind, NewStoredFile};
use crate::models::task_items::{self, TaskItem};
use crate::models::now;
use crate::rpc::microsoft::access_failure;
use crate::rpc::task_content::require_task;
use crate::rpc::typescript::rpc_type;
use crate::rpc::{Ctx, FieldErrors, RpcError, RpcResult};
use crate::transaction;

/// The most items one import brings in.
pub const MAX_IMPORT_ITEMS: usize = 20;

rpc_type! {
    pub struct ImportMicrosoftFile {
        pub drive_id: Option<String>,
        pub item_id: String,
        pub name: String,
        pub mime_type: Option<String>,
    }
}

rpc_type! {
    pub struct ImportMicrosoftRecording {
        pub meeting_id: String,
        pub recording_id: String,
        pub transcript_id: Option<String>,
        /// Shown as the item's name ("Teams recording dd/MM/yyyy, HH:mm").
        pub name: String,
    }
}

rpc_type! {
    pub struct ImportMicrosoftInput {
        pub task_id: String,
        pub files: Vec<ImportMicrosoftFile>,
        pub recordings: Vec<ImportMicrosoftRecording>,
    }
}

rpc_type! {
    pub struct ImportMicrosoftAnswer {
        /// The new items' ids, files first, in the order given.
        pub item_ids: Vec<String>,
    }
}

/// One item to make: (name, content type, where its bytes come from).
type Planned = (String, String, MicrosoftSource);

pub async fn handler(ctx: &Ctx, input: ImportMicrosoftInput) -> RpcResult<ImportMicrosoftAnswer> {
    require_task(ctx, &input.task_id).await?;
    let user = ctx.require_user()?.clone();
    let school_id = ctx.school_id()?.to_owned();
    if ctx.state.providers.graph.is_none() {
        return Err(access_failure(microsoft_graph::GraphAccess::NotConfigured));
    }
    if !microsoft_graph::is_connected(&ctx.state, &user.id)
        .await
        .map_err(access_failure)?
    {
        return Err(access_failure(microsoft_graph::GraphAccess::NotConnected));
    }
    let mut errors = FieldErrors::default();
    let count = input.files.len() + input.recordings.len();
    if count == 0 {
        errors.add("files", "Choose at least one file or recording.");
    }
    if count > MAX_IMPORT_ITEMS {
        errors.add(
            "files",
            format!("Choose at most {MAX_IMPORT_ITEMS} files and recordings at a time."),
        );
    }
    let mut planned: Vec<Planned> = Vec::with_capacity(count);
    for (i, file) in input.files.into_iter().enumerate() {
        let field = format!("files.{i}");
        let name = match clean_filename(&file.name) {
            Ok(name) => name,
            Err(refused) => {
                errors.add(&field, refused.message());
                continue;
            }
        };
        let Some(content_type) =
            type_for_file(UploadKind::TaskFile, &name, file.mime_type.as_deref())
        else {
            errors.add(&field, format!("{name}: {}", UploadKind::TaskFile.type_refused()));
            continue;
        };
        planned.push((
            name,
            content_type.to_owned(),
            MicrosoftSource::File {
                drive_id: file.drive_id.filter(|d| !d.is_empty()),
                item_id: file.item_id,
            },
        ));
    }
    for (i, recording) in input.recordings.into_iter().enumerate() {
        let name = clean_filename(&format!("{}.mp4", recording.name.trim()));
        let Ok(name) = name else {
            errors.add(&format!("recordings.{i}"), "Choose a recording from the list.");
            continue;
        };
        debug_assert!(type_allowed(UploadKind::TaskFile, "video/mp4"));
        planned.push((
            name,
            "video/mp4".to_owned(),
            MicrosoftSource::Recording {
                meeting_id: recording.meeting_id,
                recording_id: recording.recording_id,
                transcript_id: recording.transcript_id.filter(|t| !t.is_empty()),
            },
        ));
    }
    errors.into_result()?;
    for (_, _, source) in &planned {
        source
            .check_ids()
            .map_err(|_| RpcError::bad_request("Choose items from the list."))?;
    }
    let at = now();
    let mut pooled = ctx.conn().await?;
    let mut conn = pooled.db();
    let item_ids = transaction!(&mut conn, |c| {
        let mut ids = Vec::with_capacity(planned.len());
        for (name, content_type, source) in &planned {
            let file = NewStoredFile {
                id: new_id(),
                key: format!(
                    "{school_id}/{}/{}/{}",
                    FileKind::Upload.key_segment(),
                    crate::ids::new_token(),
                    core_wasm::filename::key_safe_name(name)
                ),
                school_id: Some(school_id.clone()),
                user_id: Some(user.id.clone()),
                // `stored_files.task_id` names a notification's task; a task's content is
                // linked through its item, as uploads are.
                task_id: None,
                kind: FileKind::Upload.as_str().to_owned(),
                filename: name.clone(),
                content_type: content_type.clone(),
                size_bytes: None,
                in_personal_folder: false,
                expires_at: None,
                created_at: at,
                updated_at: Some(at),
            };
            stored_files::insert(c, &file).await?;
            let item = TaskItem {
                id: new_id(),
                submission_id: input.task_id.clone(),
                user_id: user.id.clone(),
                kind: match source {
                    MicrosoftSource::Recording { .. } => task_items::RECORDING.to_owned(),
                    MicrosoftSource::File { .. } => task_items::FILE.to_owned(),
                },
                file_id: Some(file.id.clone()),
                name: name.clone(),
                content_type: Some(content_type.clone()),
                notes: None,
                status: task_items::QUEUED.to_owned(),
                error: None,
                created_at: at,
                updated_at: at,
            };
            task_items::insert(c, &item).await?;
            task_import_microsoft::queue(c, &item.id, source).await?;
            ids.push(item.id);
        }
        Ok::<_, RpcError>(ids)
    })?;
    Ok(ImportMicrosoftAnswer { item_ids })
}
