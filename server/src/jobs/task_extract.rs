//! The text of documents added to a task, for `task.process_item`: PDF (lopdf), Word
//! `.docx` (zip + quick-xml over `word/document.xml`) and plain text. Each reader runs on a
//! blocking thread behind `catch_unwind`: a malformed file gives a sentence for the user,
//! never a panic. Text is cut to `task_items::MAX_TEXT_CHARS`.

use std::io::Read;

use core_wasm::uploads::TaskProcessing;

use crate::models::task_items::{cap, MAX_TEXT_CHARS};

/// The most bytes of `word/document.xml` read (a zip bomb stops here).
const MAX_XML_BYTES: u64 = 64 * 1024 * 1024;

pub const PDF_UNREADABLE: &str = "This PDF could not be read. It may be damaged; try saving it again and uploading the copy.";
pub const PDF_ENCRYPTED: &str = "This PDF is password-protected. Remove the password and upload it again.";
pub const WORD_UNREADABLE: &str = "This Word file could not be read. Save it again as .docx and upload the copy.";
pub const READER_CRASHED: &str = "This file could not be read.";

/// The text of `bytes` read as `how` (`Ok(None)` when the type has no text to read).
pub async fn extract(how: TaskProcessing, bytes: Vec<u8>) -> Result<Option<String>, String> {
    if matches!(how, TaskProcessing::Nothing | TaskProcessing::Transcribe) {
        return Ok(None);
    }
    let joined = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(move || match how {
            TaskProcessing::Pdf => pdf_text(&bytes),
            TaskProcessing::Word => docx_text(&bytes),
            _ => Ok(String::from_utf8_lossy(&bytes).into_owned()),
        })
    })
    .await;
    match joined {
        Ok(Ok(result)) => result.map(|text| Some(cap(text.trim()))),
        Ok(Err(_)) | Err(_) => Err(READER_CRASHED.to_owned()),
    }
}

/// The text layer of a PDF, page by page.
pub fn pdf_text(bytes: &[u8]) -> Result<String, String> {
    // An encrypted PDF with an empty user password (most "protected" PDFs) is decrypted
    // on load; one that needs a password fails here.
    let doc = lopdf::Document::load_mem(bytes).map_err(|err| {
        tracing::info!(%err, "unreadable PDF");
        match err {
            lopdf::Error::Decryption(_) | lopdf::Error::InvalidPassword => {
                PDF_ENCRYPTED.to_owned()
            }
            _ => PDF_UNREADABLE.to_owned(),
        }
    })?;
    if doc.is_encrypted() {
        return Err(PDF_ENCRYPTED.to_owned());
    }
    let pages = doc.get_pages();
    if pages.is_empty() {
        return Err(PDF_UNREADABLE.to_owned());
    }
    let mut text = String::new();
    for page in pages.keys() {
        match doc.extract_text(&[*page]) {
            Ok(page_text) => {
                text.push_str(page_text.trim_end());
                text.push('\n');
            }
            Err(err) => tracing::info!(%err, page, "a PDF page without readable text"),
        }
        if text.len() > MAX_TEXT_CHARS * 4 {
            break;
        }
    }
    Ok(text)
}

/// The paragraphs of a `.docx`, one a line (tabs and breaks kept).
pub fn docx_text(bytes: &[u8]) -> Result<String, String> {
    let unreadable = |err: &dyn std::fmt::Display| {
        tracing::info!(%err, "unreadable Word file");
        WORD_UNREADABLE.to_owned()
    };
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| unreadable(&e))?;
    let mut xml = String::new();
    archive
        .by_name("word/document.xml")
        .map_err(|e| unreadable(&e))?
        .take(MAX_XML_BYTES)
        .read_to_string(&mut xml)
        .map_err(|e| unreadable(&e))?;
    document_xml_text(&xml).map_err(|e| unreadable(&e))
}

/// The text of WordprocessingML: `w:t` runs, `w:tab` and `w:br`, a line per `w:p`.
pub fn document_xml_text(xml: &str) -> Result<String, quick_xml::Error> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut text = String::new();
    let mut in_text = false;
    loop {
        match reader.read_event()? {
            Event::Start(e) => match e.local_name().as_ref() {
                "t" => in_text = true,
                "tab" => text.push('\t'),
                "br" | "cr" => text.push('\n'),
                _ => {}
            },
            Event::Empty(e) => match e.local_name().as_ref() {
                "tab" => text.push('\t'),
                "br" | "cr" => text.push('\n'),
                _ => {}
            },
            Event::End(e) => match e.local_name().as_ref() {
                "t" => in_text = false,
                "p" => text.push('\n'),
                _ => {}
            },
            Event::Text(e) if in_text => text.push_str(&e.xml10_content()),
            Event::CData(e) if in_text => text.push_str(&e.xml10_content()),
            Event::GeneralRef(e) if in_text => {
                if let Some(ch) = e.resolve_char_ref()? {
                    text.push(ch);
                } else {
                    let name: &str = &e;
                    if let Some(value) = quick_xml::escape::resolve_predefined_entity(name) {
                        text.push_str(value);
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
        if text.len() > MAX_TEXT_CHARS * 4 {
            break;
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_xml_gives_its_paragraphs() {
        let xml = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>Year 7 &amp; 8</w:t></w:r><w:r><w:tab/><w:t xml:space="preserve"> plan</w:t></w:r></w:p>
<w:p><w:r><w:t>Caf&#233;</w:t></w:r></w:p></w:body></w:document>"#;
        assert_eq!(
            document_xml_text(xml).expect("text"),
            "Year 7 & 8\t plan\nCafé\n"
        );
    }

    #[test]
    fn garbage_is_a_sentence_not_a_panic() {
        assert_eq!(pdf_text(b"%PDF-1.4 nonsense"), Err(PDF_UNREADABLE.to_owned()));
        assert_eq!(docx_text(b"PK nonsense"), Err(WORD_UNREADABLE.to_owned()));
    }
}
