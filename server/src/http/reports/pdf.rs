//! The report as a PDF: A4, the PDF standard fonts Helvetica and Helvetica-Bold (every
//! reader has them, so nothing is embedded and no system font is needed), words wrapped
//! to the page width with Helvetica's own character widths, new pages as the text runs
//! on, bold headings, bulleted and numbered items indented. Written directly (PDF 1.4,
//! uncompressed content streams): a few hundred lines instead of a PDF crate's dependency
//! tree, and the text stays searchable. docs/leaders.md says why.
//!
//! Text is encoded in WinAnsi (Latin-1 plus curly quotes, dashes, bullet, ellipsis, euro):
//! what the standard fonts can draw. Other characters become `?`.

use super::markdown::{plain, Block, Span};

const PAGE_WIDTH: f32 = 595.0;
const PAGE_HEIGHT: f32 = 842.0;
const MARGIN: f32 = 56.0;
const BODY_SIZE: f32 = 11.0;

/// Helvetica's advance widths (1/1000 em) for ASCII 32..=126 (the font's AFM).
const WIDTHS: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0..?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @..O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P.._
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // `..o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p..~
];

/// The WinAnsi byte for `c`, if the standard fonts can draw it.
fn win_ansi(c: char) -> u8 {
    match c {
        ' '..='~' => c as u8,
        '\u{a0}'..='\u{ff}' => c as u32 as u8,
        '€' => 0x80,
        '…' => 0x85,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '\t' => b' ',
        _ => b'?',
    }
}

/// The width of byte `b` at `size` points (bold is a little wider).
fn width(b: u8, size: f32, bold: bool) -> f32 {
    let units = match b {
        32..=126 => WIDTHS[(b - 32) as usize] as f32,
        0x95 => 350.0,
        0x96 => 556.0,
        0x97 => 1000.0,
        0x85 => 1000.0,
        0x91 | 0x92 => 222.0,
        0x93 | 0x94 => 333.0,
        _ => 600.0,
    };
    units * size / 1000.0 * if bold { 1.08 } else { 1.0 }
}

/// One word (WinAnsi bytes) with its font.
#[derive(Debug, Clone)]
struct Word {
    bytes: Vec<u8>,
    bold: bool,
}

fn words(spans: &[Span], all_bold: bool) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    let mut joined = true; // the next piece continues the last word (no space between)
    for span in spans {
        let bold = all_bold || span.bold;
        let mut current: Vec<u8> = Vec::new();
        for c in span.text.chars() {
            if c.is_whitespace() {
                if !current.is_empty() {
                    push(&mut out, std::mem::take(&mut current), bold, joined);
                }
                joined = false;
            } else {
                current.push(win_ansi(c));
            }
        }
        if !current.is_empty() {
            push(&mut out, current, bold, joined);
            joined = true;
        }
    }
    out
}

/// Adds a word, or glues it to the previous one (`**bold**ly`) when `joined`; a glued word
/// of another weight is kept apart but drawn without a space (approximated by one word).
fn push(out: &mut Vec<Word>, bytes: Vec<u8>, bold: bool, joined: bool) {
    match out.last_mut() {
        Some(last) if joined && last.bold == bold => last.bytes.extend(bytes),
        _ => out.push(Word { bytes, bold }),
    }
}

/// The page content streams being written.
struct Pages {
    done: Vec<String>,
    current: String,
    y: f32,
}

impl Pages {
    fn new() -> Pages {
        Pages {
            done: Vec::new(),
            current: String::new(),
            y: PAGE_HEIGHT - MARGIN,
        }
    }

    /// Moves down `height`, starting a new page when it does not fit.
    fn room(&mut self, height: f32) {
        if self.y - height < MARGIN {
            self.done.push(std::mem::take(&mut self.current));
            self.y = PAGE_HEIGHT - MARGIN;
        }
        self.y -= height;
    }

    /// Writes `words` wrapped from `x` to the right margin; `prefix` (a bullet or number)
    /// goes before the first line, hanging to its left.
    fn text(&mut self, words: &[Word], size: f32, x: f32, prefix: Option<&[u8]>) {
        let leading = size * 1.35;
        let right = PAGE_WIDTH - MARGIN;
        let space = width(b' ', size, false);
        let mut lines: Vec<Vec<&Word>> = vec![Vec::new()];
        let mut used = 0.0f32;
        for word in words {
            let w: f32 = word.bytes.iter().map(|&b| width(b, size, word.bold)).sum();
            let line = lines.last_mut().expect("a line");
            if !line.is_empty() && x + used + space + w > right {
                lines.push(vec![word]);
                used = w;
            } else {
                if !line.is_empty() {
                    used += space;
                }
                line.push(word);
                used += w;
            }
        }
        for (i, line) in lines.iter().enumerate() {
            self.room(leading);
            let y = self.y;
            if i == 0 {
                if let Some(prefix) = prefix {
                    let w: f32 = prefix.iter().map(|&b| width(b, size, false)).sum();
                    self.show(prefix, false, size, x - w - space, y);
                }
            }
            let mut at = x;
            for word in line {
                self.show(&word.bytes, word.bold, size, at, y);
                at += word
                    .bytes
                    .iter()
                    .map(|&b| width(b, size, word.bold))
                    .sum::<f32>()
                    + space;
            }
        }
    }

    fn show(&mut self, bytes: &[u8], bold: bool, size: f32, x: f32, y: f32) {
        let font = if bold { "F2" } else { "F1" };
        self.current.push_str(&format!(
            "BT /{font} {size:.1} Tf {x:.2} {y:.2} Td ({}) Tj ET\n",
            escape(bytes)
        ));
    }

    fn finish(mut self) -> Vec<String> {
        if !self.current.is_empty() || self.done.is_empty() {
            self.done.push(self.current);
        }
        self.done
    }
}

/// A PDF literal string's inside: `\`, `(`, `)` escaped, bytes outside ASCII as octal.
fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\\' | b'(' | b')' => {
                out.push('\\');
                out.push(b as char);
            }
            32..=126 => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out
}

/// The PDF bytes of the report.
pub fn render(title: &str, blocks: &[Block]) -> Vec<u8> {
    let mut pages = Pages::new();
    let starts_with_title = matches!(blocks.first(), Some(Block::Heading(1, spans))
        if plain(spans).trim() == title.trim());
    if !starts_with_title && !title.trim().is_empty() {
        let spans = [Span {
            text: title.trim().to_owned(),
            bold: true,
            italic: false,
        }];
        pages.text(&words(&spans, true), 20.0, MARGIN, None);
        pages.room(8.0);
    }
    for block in blocks {
        match block {
            Block::Heading(level, spans) => {
                let size = match level {
                    1 => 18.0,
                    2 => 15.0,
                    3 => 13.0,
                    _ => 12.0,
                };
                pages.room(size * 0.6);
                pages.text(&words(spans, true), size, MARGIN, None);
                pages.room(3.0);
            }
            Block::Paragraph(spans) => {
                pages.text(&words(spans, false), BODY_SIZE, MARGIN, None);
                pages.room(6.0);
            }
            Block::Item {
                depth,
                number,
                spans,
            } => {
                let x = MARGIN + 18.0 * (*depth as f32 + 1.0);
                let prefix = match number {
                    Some(n) => format!("{n}.").into_bytes(),
                    None => vec![if depth % 2 == 0 { 0x95 } else { b'-' }],
                };
                pages.text(&words(spans, false), BODY_SIZE, x, Some(&prefix));
                pages.room(2.0);
            }
        }
    }
    document(&pages.finish())
}

/// The file around the page streams: catalog, page tree, fonts, pages, xref, trailer.
fn document(streams: &[String]) -> Vec<u8> {
    let n = streams.len();
    // 1 catalog, 2 pages, 3 F1, 4 F2, then for each page: page object, content stream.
    let mut objects: Vec<String> = Vec::with_capacity(4 + 2 * n);
    objects.push("<< /Type /Catalog /Pages 2 0 R >>".into());
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 5 + 2 * i)).collect();
    objects.push(format!(
        "<< /Type /Pages /Kids [{}] /Count {n} >>",
        kids.join(" ")
    ));
    for font in ["Helvetica", "Helvetica-Bold"] {
        objects.push(format!(
            "<< /Type /Font /Subtype /Type1 /BaseFont /{font} /Encoding /WinAnsiEncoding >>"
        ));
    }
    for (i, stream) in streams.iter().enumerate() {
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE_WIDTH} {PAGE_HEIGHT}] \
             /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {} 0 R >>",
            6 + 2 * i
        ));
        objects.push(format!(
            "<< /Length {} >>\nstream\n{stream}endstream",
            stream.len()
        ));
    }
    let mut out: Vec<u8> = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::with_capacity(objects.len());
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::super::markdown::blocks;
    use super::*;

    #[test]
    fn writes_a_pdf_with_the_text_and_breaks_pages() {
        let long = "Word ".repeat(4000);
        let pdf = render(
            "Spring report",
            &blocks(&format!("## Findings\n\n{long}\n\n- a (point)\n")),
        );
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.starts_with("%PDF-1.4"));
        assert!(text.contains("(Spring) Tj"));
        assert!(text.contains("(Findings) Tj"));
        assert!(text.contains("\\(point\\)"));
        let pages = text.matches("/Type /Page ").count();
        assert!(pages > 3, "{pages} pages");
        assert!(text.ends_with("%%EOF\n"));
    }

    #[test]
    fn winansi_and_widths() {
        assert_eq!(win_ansi('é'), 0xe9);
        assert_eq!(win_ansi('’'), 0x92);
        assert_eq!(win_ansi('中'), b'?');
        assert_eq!(escape(&[0xe9, b'(']), "\\351\\(");
        assert!(width(b'W', 10.0, false) > width(b'i', 10.0, false));
    }
}
