//! Which files may be uploaded, per kind of upload: the accepted content types, the
//! extensions that go with them, the size limit and the messages of a refusal. The browser
//! checks a file before it sends it; the server checks the same rule before it signs an
//! upload (`leader.uploadVoiceNote`, `user.uploadFile`) or stores a pupil's file
//! (`/api/submissions/{id}/{token}/files`). Decisions: docs/storage.md, "Allowed types".

use crate::limits::MAX_UPLOAD_BYTES;

/// What is being uploaded: each kind has its own list of types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UploadKind {
    /// `leader.uploadVoiceNote`: a recording made in the browser.
    VoiceNote,
    /// `user.uploadFile`: a file a member of staff shares (expires after a day).
    File,
    /// A pupil's file handed in with a submission (public link, no sign-in).
    SubmissionFile,
    /// `leader.uploadTaskFile`: content added to a task (kept with the task; the shared
    /// list of [`DOCUMENT_TYPES`]).
    TaskFile,
}

/// Shown when a voice note is not one of [`VOICE_NOTE_TYPES`].
pub const VOICE_TYPE_REFUSED: &str =
    "A voice note must be a recording (MP4, WebM, Ogg, WAV, MP3 or AAC audio).";
/// Shown when a file or a submission file is not one of [`DOCUMENT_TYPES`].
pub const FILE_TYPE_REFUSED: &str =
    "This type of file cannot be uploaded. Upload a PDF, an image, an office document, a text file or a recording.";

/// Voice notes: what browsers' `MediaRecorder` writes (spec section 9: audio/mp4 for voice
/// notes, audio/wav for dictation), with the extensions the app gives them.
pub const VOICE_NOTE_TYPES: &[(&str, &[&str])] = &[
    ("audio/mp4", &["m4a", "mp4"]),
    ("audio/webm", &["webm", "weba"]),
    ("audio/ogg", &["ogg", "oga", "opus"]),
    ("audio/wav", &["wav"]),
    ("audio/mpeg", &["mp3"]),
    ("audio/aac", &["aac"]),
];

/// Files (`user.uploadFile`) and pupils' submission files: documents, images, recordings
/// and short videos, each with the extensions that go with it. Office means Microsoft
/// Office, OpenDocument and RTF. Never HTML, SVG, scripts or executables.
pub const DOCUMENT_TYPES: &[(&str, &[&str])] = &[
    ("application/pdf", &["pdf"]),
    ("image/jpeg", &["jpg", "jpeg"]),
    ("image/png", &["png"]),
    ("image/gif", &["gif"]),
    ("image/webp", &["webp"]),
    ("image/heic", &["heic"]),
    ("image/heif", &["heif"]),
    ("application/msword", &["doc"]),
    (
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        &["docx"],
    ),
    ("application/vnd.ms-excel", &["xls"]),
    (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        &["xlsx"],
    ),
    ("application/vnd.ms-powerpoint", &["ppt"]),
    (
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        &["pptx"],
    ),
    ("application/vnd.oasis.opendocument.text", &["odt"]),
    ("application/vnd.oasis.opendocument.spreadsheet", &["ods"]),
    ("application/vnd.oasis.opendocument.presentation", &["odp"]),
    ("application/rtf", &["rtf"]),
    ("text/rtf", &["rtf"]),
    ("text/plain", &["txt"]),
    ("text/csv", &["csv"]),
    ("text/markdown", &["md"]),
    ("audio/mpeg", &["mp3"]),
    ("audio/mp4", &["m4a", "mp4"]),
    ("audio/x-m4a", &["m4a"]),
    ("audio/aac", &["aac"]),
    ("audio/wav", &["wav"]),
    ("audio/x-wav", &["wav"]),
    ("audio/wave", &["wav"]),
    ("audio/webm", &["webm", "weba"]),
    ("audio/ogg", &["ogg", "oga", "opus"]),
    ("audio/flac", &["flac"]),
    ("video/mp4", &["mp4"]),
];

impl UploadKind {
    /// The accepted types of this kind, with their extensions.
    pub fn types(self) -> &'static [(&'static str, &'static [&'static str])] {
        match self {
            UploadKind::VoiceNote => VOICE_NOTE_TYPES,
            UploadKind::File | UploadKind::SubmissionFile | UploadKind::TaskFile => {
                DOCUMENT_TYPES
            }
        }
    }

    /// The message of a refused type.
    pub fn type_refused(self) -> &'static str {
        match self {
            UploadKind::VoiceNote => VOICE_TYPE_REFUSED,
            UploadKind::File | UploadKind::SubmissionFile | UploadKind::TaskFile => {
                FILE_TYPE_REFUSED
            }
        }
    }

    /// The most bytes accepted: per file for voice notes and files, in total per
    /// submission for submission files (spec section 9: 50 MB).
    pub fn max_bytes(self) -> u64 {
        MAX_UPLOAD_BYTES
    }
}

/// The media type without parameters, lower case: `audio/webm;codecs=opus` → `audio/webm`.
pub fn essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether a declared type can be sent back as a header value as it is (the signed upload
/// repeats it): printable ASCII, at most 200 characters.
fn sendable_as_header(content_type: &str) -> bool {
    !content_type.is_empty()
        && content_type.len() <= 200
        && content_type.bytes().all(|b| (0x20..0x7f).contains(&b))
}

/// Whether `kind` accepts a file declared as `content_type` (compared without parameters,
/// which are kept for the upload's header). Used where the browser declares the type of a
/// recording or file it is about to send.
pub fn type_allowed(kind: UploadKind, content_type: &str) -> bool {
    let essence = essence(content_type);
    sendable_as_header(content_type) && kind.types().iter().any(|(mime, _)| *mime == essence)
}

/// The content type to store for `filename` sent as `declared`, if `kind` allows the pair:
/// the declared type must be an allowed one that fits the file's extension; a missing or
/// generic (`application/octet-stream`) type is taken from the extension. Used where the
/// type comes from a browser's file picker (pupils' files), which may not know it.
pub fn type_for_file(
    kind: UploadKind,
    filename: &str,
    declared: Option<&str>,
) -> Option<&'static str> {
    let extension = filename.rsplit_once('.')?.1.to_ascii_lowercase();
    let declared = declared
        .map(essence)
        .filter(|d| !d.is_empty() && d != "application/octet-stream");
    kind.types()
        .iter()
        .find(|(mime, extensions)| {
            extensions.contains(&extension.as_str())
                && declared.as_deref().is_none_or(|d| d == *mime)
        })
        .map(|(mime, _)| *mime)
}

/// What the server does with a task file to get its text (docs/leaders.md, "Task content").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskProcessing {
    /// Audio or video: transcribed by the speech provider (Deepgram pre-recorded).
    Transcribe,
    /// A PDF: its text layer is read (a scan without one gives no text).
    Pdf,
    /// A Word file (`.docx`): the text of `word/document.xml`.
    Word,
    /// Plain text, CSV or Markdown: kept as it is.
    Text,
    /// Images, spreadsheets, presentations, old Office formats: kept, nothing to read.
    Nothing,
}

/// How a task file of `content_type` is read (compared without parameters).
pub fn task_processing(content_type: &str) -> TaskProcessing {
    let essence = essence(content_type);
    if essence.starts_with("audio/") || essence.starts_with("video/") {
        TaskProcessing::Transcribe
    } else {
        match essence.as_str() {
            "application/pdf" => TaskProcessing::Pdf,
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => {
                TaskProcessing::Word
            }
            "text/plain" | "text/csv" | "text/markdown" => TaskProcessing::Text,
            _ => TaskProcessing::Nothing,
        }
    }
}

/// Whether an upload that was declared as `declared` bytes (or not declared) arrived
/// whole, now that the store holds `stored` bytes: exactly the declared size, or, without
/// a declaration, between 1 byte and the 50 MB limit.
pub fn arrived_whole(stored: u64, declared: Option<u64>) -> bool {
    match declared {
        Some(declared) => stored == declared,
        None => (1..=MAX_UPLOAD_BYTES).contains(&stored),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn voice_notes_take_recordings_only() {
        assert!(type_allowed(
            UploadKind::VoiceNote,
            "audio/webm;codecs=opus"
        ));
        assert!(type_allowed(UploadKind::VoiceNote, "audio/mp4"));
        assert!(type_allowed(UploadKind::VoiceNote, "audio/wav"));
        assert!(!type_allowed(UploadKind::VoiceNote, "audio/flac"));
        assert!(!type_allowed(UploadKind::VoiceNote, "video/mp4"));
        assert!(!type_allowed(
            UploadKind::VoiceNote,
            "audio/mp4\r\nx-evil: 1"
        ));
    }

    #[test]
    fn files_take_documents_images_and_recordings_but_nothing_that_runs() {
        assert!(type_allowed(UploadKind::File, "audio/flac"));
        assert!(type_allowed(UploadKind::File, "application/pdf"));
        assert!(type_allowed(UploadKind::File, "image/heic"));
        assert!(type_allowed(UploadKind::File, "text/csv; charset=utf-8"));
        assert!(type_allowed(UploadKind::File, "video/mp4"));
        assert!(!type_allowed(UploadKind::File, "text/html"));
        assert!(!type_allowed(UploadKind::File, "image/svg+xml"));
        assert!(!type_allowed(UploadKind::File, "application/x-msdownload"));
        assert!(!type_allowed(UploadKind::File, "audio/"));
        assert!(!type_allowed(UploadKind::File, ""));
    }

    #[test]
    fn files_and_submission_files_share_one_list() {
        for (mime, extensions) in DOCUMENT_TYPES {
            assert!(type_allowed(UploadKind::File, mime), "{mime}");
            let name = format!("work.{}", extensions[0]);
            assert_eq!(
                type_for_file(UploadKind::SubmissionFile, &name, Some(mime)),
                Some(*mime),
                "{name}"
            );
        }
    }

    #[test]
    fn submission_file_types_must_fit_their_extension() {
        let kind = UploadKind::SubmissionFile;
        assert_eq!(
            type_for_file(kind, "essay.pdf", Some("application/pdf")),
            Some("application/pdf")
        );
        assert_eq!(
            type_for_file(kind, "essay.PDF", None),
            Some("application/pdf")
        );
        assert_eq!(
            type_for_file(kind, "photo.jpg", Some("application/octet-stream")),
            Some("image/jpeg")
        );
        assert_eq!(
            type_for_file(kind, "notes.txt", Some("text/plain; charset=utf-8")),
            Some("text/plain")
        );
        assert_eq!(type_for_file(kind, "page.html", Some("text/html")), None);
        assert_eq!(type_for_file(kind, "essay.pdf", Some("text/html")), None);
        assert_eq!(type_for_file(kind, "tool.exe", None), None);
        assert_eq!(
            type_for_file(kind, "noextension", Some("application/pdf")),
            None
        );
    }

    #[test]
    fn task_files_are_transcribed_or_read_by_type() {
        assert_eq!(
            task_processing("audio/webm;codecs=opus"),
            TaskProcessing::Transcribe
        );
        assert_eq!(task_processing("video/mp4"), TaskProcessing::Transcribe);
        assert_eq!(task_processing("application/pdf"), TaskProcessing::Pdf);
        assert_eq!(
            task_processing(
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
            ),
            TaskProcessing::Word
        );
        assert_eq!(
            task_processing("text/plain; charset=utf-8"),
            TaskProcessing::Text
        );
        assert_eq!(task_processing("image/png"), TaskProcessing::Nothing);
        assert!(type_allowed(UploadKind::TaskFile, "audio/flac"));
        assert!(!type_allowed(UploadKind::TaskFile, "text/html"));
    }

    #[test]
    fn refusals_name_what_is_accepted() {
        assert_eq!(
            UploadKind::VoiceNote.type_refused(),
            "A voice note must be a recording (MP4, WebM, Ogg, WAV, MP3 or AAC audio)."
        );
        assert_eq!(
            UploadKind::SubmissionFile.type_refused(),
            UploadKind::File.type_refused()
        );
    }

    #[test]
    fn an_undeclared_size_arrives_whole_up_to_the_limit() {
        assert!(arrived_whole(10, Some(10)));
        assert!(!arrived_whole(9, Some(10)));
        assert!(arrived_whole(1, None));
        assert!(arrived_whole(MAX_UPLOAD_BYTES, None));
        assert!(!arrived_whole(MAX_UPLOAD_BYTES + 1, None));
        assert!(!arrived_whole(0, None));
    }
}
