//! The only file that knows about WebAssembly: exposes the core to the browser.

use wasm_bindgen::prelude::*;

use crate::uploads::UploadKind;
use crate::{dates, email, filename, languages, limits, password, roles, uploads, UserRole};

/// The core's version.
#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    crate::VERSION.to_owned()
}

/// The password rule's message when `password` breaks it, `undefined` when it is fine.
#[wasm_bindgen(js_name = passwordError)]
pub fn password_error(password: &str) -> Option<String> {
    password::check_password(password).err().map(str::to_owned)
}

/// Whether `role` passes a check that allows `allowed` (superadmin always passes).
#[wasm_bindgen(js_name = hasRole)]
pub fn has_role(role: &str, allowed: Vec<String>) -> Result<bool, JsError> {
    let role: UserRole = role.parse()?;
    let allowed = allowed
        .iter()
        .map(|r| r.parse::<UserRole>())
        .collect::<Result<Vec<_>, _>>()?;
    Ok(roles::has_role(role, &allowed))
}

/// The roles a user of `caller` role may give through the role picker, in picker order.
#[wasm_bindgen(js_name = assignableRoles)]
pub fn assignable_roles(caller: &str) -> Result<Vec<String>, JsError> {
    let caller: UserRole = caller.parse()?;
    Ok(roles::assignable_roles_for(caller)
        .into_iter()
        .map(|r| r.as_str().to_owned())
        .collect())
}

/// Formats a JavaScript time (ms since 1970, already in local time) as dd/MM/yyyy[, HH:mm].
#[wasm_bindgen(js_name = formatDate)]
pub fn format_date(millis: f64, with_time: bool) -> Result<String, JsError> {
    dates::format_millis(millis as i64, with_time).ok_or_else(|| JsError::new("Date out of range"))
}

/// The upload limit's message when `bytes` is too many, `undefined` when it is fine.
#[wasm_bindgen(js_name = uploadSizeError)]
pub fn upload_size_error(bytes: f64) -> Option<String> {
    limits::check_upload_size(bytes as u64)
        .err()
        .map(|e| e.to_string())
}

/// The business limits the app needs, as one object.
#[wasm_bindgen(js_name = limits)]
pub fn limits_object() -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Limits {
        max_upload_bytes: u64,
        max_photos_per_analysis: usize,
        dictation_limit_seconds: u32,
        feedback_hub_poll_seconds: u32,
        toast_duration_ms: u32,
        toast_limit: usize,
        photo_limit_message: &'static str,
        photo_max_side: u32,
        photo_quality: u8,
        max_text_chars: usize,
        max_list_items: usize,
        max_batch_calls: usize,
        max_person_name_chars: usize,
        max_upn_chars: usize,
        max_email_chars: usize,
        max_group_name_chars: usize,
        max_title_chars: usize,
    }
    let value = Limits {
        max_upload_bytes: limits::MAX_UPLOAD_BYTES,
        max_photos_per_analysis: limits::MAX_PHOTOS_PER_ANALYSIS,
        dictation_limit_seconds: limits::DICTATION_LIMIT_SECONDS,
        feedback_hub_poll_seconds: limits::FEEDBACK_HUB_POLL_SECONDS,
        toast_duration_ms: limits::TOAST_DURATION_MS,
        toast_limit: limits::TOAST_LIMIT,
        photo_limit_message: limits::PHOTO_LIMIT_MESSAGE,
        photo_max_side: limits::PHOTO_MAX_SIDE,
        photo_quality: limits::PHOTO_QUALITY,
        max_text_chars: limits::MAX_TEXT_CHARS,
        max_list_items: limits::MAX_LIST_ITEMS,
        max_batch_calls: limits::MAX_BATCH_CALLS,
        max_person_name_chars: limits::MAX_PERSON_NAME_CHARS,
        max_upn_chars: limits::MAX_UPN_CHARS,
        max_email_chars: limits::MAX_EMAIL_CHARS,
        max_group_name_chars: limits::MAX_GROUP_NAME_CHARS,
        max_title_chars: limits::MAX_TITLE_CHARS,
    };
    Ok(serde_wasm_bindgen::to_value(&value)?)
}

/// The photo limit's message when an analysis of `count` photos must be refused,
/// `undefined` when it may be sent.
#[wasm_bindgen(js_name = photoCountError)]
pub fn photo_count_error(count: u32) -> Option<String> {
    limits::photo_count_error(count as usize).map(str::to_owned)
}

/// The filename rule's message ('Filename is required', too long), `undefined` when fine.
#[wasm_bindgen(js_name = filenameError)]
pub fn filename_error(filename: &str) -> Option<String> {
    filename::filename_error(filename).map(str::to_owned)
}

/// The e-mail rule's message ('Enter a valid e-mail address.'), `undefined` when fine.
#[wasm_bindgen(js_name = emailError)]
pub fn email_error(address: &str) -> Option<String> {
    email::email_error(address).map(str::to_owned)
}

/// Every selectable e-mail language as `[{code, name}]`, sorted by name.
#[wasm_bindgen(js_name = languages)]
pub fn languages_list() -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct Language {
        code: &'static str,
        name: &'static str,
    }
    let list: Vec<Language> = languages::LANGUAGES
        .iter()
        .map(|&(code, name)| Language { code, name })
        .collect();
    Ok(serde_wasm_bindgen::to_value(&list)?)
}

/// The message refusing a file of `content_type` for `kind` (`voiceNote`, `file`,
/// `submissionFile` or `taskFile`), `undefined` when the type is accepted. An unknown kind is an error.
#[wasm_bindgen(js_name = uploadTypeError)]
pub fn upload_type_error(kind: &str, content_type: &str) -> Result<Option<String>, JsError> {
    let kind = match kind {
        "voiceNote" => UploadKind::VoiceNote,
        "file" => UploadKind::File,
        "submissionFile" => UploadKind::SubmissionFile,
        "taskFile" => UploadKind::TaskFile,
        other => return Err(JsError::new(&format!("Unknown upload kind: {other}"))),
    };
    Ok((!uploads::type_allowed(kind, content_type)).then(|| kind.type_refused().to_owned()))
}
