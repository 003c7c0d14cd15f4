//! `report.*`: the report generator's saved reports and the sources it writes from. Any
//! signed-in user of a school (every leader); a report is its author's own: another
//! user's report id is NOT_FOUND. Generation streams over HTTP (`http/reports.rs`); these
//! procedures list the sources and keep the result (docs/leaders.md, "Report generator").

pub mod delete;
pub mod get;
pub mod list;
pub mod save;
pub mod sources;
pub mod sources_more;

use core_wasm::limits::{text_error, MAX_TEXT_CHARS, MAX_TITLE_CHARS};

use crate::models::reports::Author;
use crate::rpc::registry::{procedure, Procedure};
use crate::rpc::{Ctx, ErrorCode, FieldErrors, RpcError, RpcResult};

/// The most tasks one report is written from.
pub const MAX_TASKS: usize = 50;
/// The most voice notes one report is written from.
pub const MAX_VOICE_NOTES: usize = 20;
/// The longest instructions, in characters.
pub const MAX_INSTRUCTIONS_CHARS: usize = core_wasm::limits::MAX_INSTRUCTIONS_CHARS;
/// The longest report body, in characters.
pub const MAX_BODY_CHARS: usize = MAX_TEXT_CHARS;

/// The procedures of this router, for the registry.
pub fn procedures() -> Vec<Procedure> {
    vec![
        procedure!(Mutation "report.delete" => delete),
        procedure!(Query "report.get" => get),
        procedure!(Query "report.list" => list),
        procedure!(Mutation "report.save" => save),
        procedure!(Query "report.sources" => sources),
        procedure!(Query "report.sourcesMore" => sources_more),
    ]
}

/// The caller as a report author (signed in, of a school).
pub fn author(ctx: &Ctx) -> RpcResult<Author<'_>> {
    let user = ctx.require_user()?;
    let school_id = ctx.school_id()?;
    Ok(Author {
        school_id,
        user_id: &user.id,
    })
}

pub fn not_found() -> RpcError {
    RpcError::new(ErrorCode::NotFound, "Report not found.")
}

/// What the generator and a save share, checked: trimmed title and instructions, the ids
/// without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub title: String,
    pub instructions: String,
    pub task_ids: Vec<String>,
    pub voice_note_ids: Vec<String>,
}

/// Ids without repeats, in their first order.
fn unique(ids: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(ids.len());
    for id in ids {
        let id = id.trim();
        if !id.is_empty() && !out.iter().any(|o| o == id) {
            out.push(id.to_owned());
        }
    }
    out
}

/// Checks the shared fields; `title_required` for a save, `min_tasks` 1 for generation.
/// Every problem is a field error, in the app's words.
pub fn check(
    title: &str,
    instructions: &str,
    task_ids: &[String],
    voice_note_ids: &[String],
    title_required: bool,
    min_tasks: usize,
    fields: &mut FieldErrors,
) -> Checked {
    let title = title.trim().to_owned();
    if title_required && title.is_empty() {
        fields.add("title", "Give the report a title.");
    } else if let Some(message) = text_error(&title, MAX_TITLE_CHARS) {
        fields.add("title", message);
    }
    let instructions = instructions.trim().to_owned();
    if let Some(message) = text_error(&instructions, MAX_INSTRUCTIONS_CHARS) {
        fields.add("instructions", message);
    }
    let task_ids = unique(task_ids);
    if task_ids.len() < min_tasks {
        fields.add("taskIds", "Choose at least one task.");
    } else if task_ids.len() > MAX_TASKS {
        fields.add("taskIds", format!("Choose at most {MAX_TASKS} tasks."));
    }
    let voice_note_ids = unique(voice_note_ids);
    if voice_note_ids.len() > MAX_VOICE_NOTES {
        fields.add(
            "voiceNoteIds",
            format!("Choose at most {MAX_VOICE_NOTES} voice notes."),
        );
    }
    Checked {
        title,
        instructions,
        task_ids,
        voice_note_ids,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_limits_and_removes_repeats() {
        let mut fields = FieldErrors::default();
        let ids = vec!["a".to_owned(), "a".to_owned(), " b ".to_owned()];
        let checked = check(" T ", "", &ids, &[], true, 1, &mut fields);
        assert!(fields.is_empty());
        assert_eq!(checked.title, "T");
        assert_eq!(checked.task_ids, vec!["a", "b"]);

        let mut fields = FieldErrors::default();
        let many: Vec<String> = (0..51).map(|i| i.to_string()).collect();
        let notes: Vec<String> = (0..21).map(|i| i.to_string()).collect();
        check("", &"x".repeat(4001), &many, &notes, true, 1, &mut fields);
        assert!(fields.into_result().is_err());

        let mut fields = FieldErrors::default();
        check("", "", &[], &[], false, 1, &mut fields);
        assert!(!fields.is_empty());
    }
}
