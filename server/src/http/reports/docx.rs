//! The report as a Word document (`docx-rs`): the title, then each Markdown block as a
//! heading (Word's own Heading 1-3 styles, so the navigation pane lists them), a paragraph
//! or a list item (bullets use a real Word list; numbered items keep their number).

use docx_rs::{
    AbstractNumbering, Docx, IndentLevel, Level, LevelJc, LevelText, NumberFormat, Numbering,
    NumberingId, Paragraph, Run, SpecialIndentType, Start, Style, StyleType,
};

use super::markdown::{Block, Span};

/// The numbering id of the bullet list.
const BULLETS: usize = 1;

fn runs(mut paragraph: Paragraph, spans: &[Span]) -> Paragraph {
    for span in spans {
        let mut run = Run::new().add_text(&span.text);
        if span.bold {
            run = run.bold();
        }
        if span.italic {
            run = run.italic();
        }
        paragraph = paragraph.add_run(run);
    }
    paragraph
}

fn heading_style(level: u8) -> String {
    format!("Heading{}", level.clamp(1, 3))
}

/// The `.docx` bytes, or what went wrong (for the log).
pub fn render(title: &str, blocks: &[Block]) -> Result<Vec<u8>, String> {
    let mut bullets = AbstractNumbering::new(BULLETS);
    for depth in 0..6usize {
        let indent = 720 * (depth as i32 + 1);
        bullets = bullets.add_level(
            Level::new(
                depth,
                Start::new(1),
                NumberFormat::new("bullet"),
                LevelText::new(if depth % 2 == 0 { "•" } else { "◦" }),
                LevelJc::new("left"),
            )
            .indent(
                Some(indent),
                Some(SpecialIndentType::Hanging(360)),
                None,
                None,
            ),
        );
    }
    let mut doc = Docx::new()
        .add_style(
            Style::new("Title", StyleType::Paragraph)
                .name("Title")
                .size(44)
                .bold(),
        )
        .add_style(
            Style::new("Heading1", StyleType::Paragraph)
                .name("Heading 1")
                .size(32)
                .bold(),
        )
        .add_style(
            Style::new("Heading2", StyleType::Paragraph)
                .name("Heading 2")
                .size(28)
                .bold(),
        )
        .add_style(
            Style::new("Heading3", StyleType::Paragraph)
                .name("Heading 3")
                .size(24)
                .bold(),
        )
        .add_abstract_numbering(bullets)
        .add_numbering(Numbering::new(BULLETS, BULLETS));
    // The title is the document's first line unless the report already starts with it.
    let starts_with_title = matches!(blocks.first(), Some(Block::Heading(1, spans))
        if super::markdown::plain(spans).trim() == title.trim());
    if !starts_with_title && !title.trim().is_empty() {
        doc = doc.add_paragraph(
            Paragraph::new()
                .style("Title")
                .add_run(Run::new().add_text(title.trim()).bold()),
        );
    }
    for block in blocks {
        let paragraph = match block {
            Block::Heading(level, spans) => {
                runs(Paragraph::new().style(&heading_style(*level)), spans)
            }
            Block::Paragraph(spans) => runs(Paragraph::new(), spans),
            Block::Item {
                depth,
                number: None,
                spans,
            } => runs(
                Paragraph::new()
                    .numbering(NumberingId::new(BULLETS), IndentLevel::new((*depth).min(5))),
                spans,
            ),
            Block::Item {
                depth,
                number: Some(n),
                spans,
            } => {
                let indent = 720 * (*depth as i32 + 1);
                let paragraph = Paragraph::new()
                    .indent(
                        Some(indent),
                        Some(SpecialIndentType::Hanging(360)),
                        None,
                        None,
                    )
                    .add_run(Run::new().add_text(format!("{n}.\t")));
                runs(paragraph, spans)
            }
        };
        doc = doc.add_paragraph(paragraph);
    }
    let mut bytes = std::io::Cursor::new(Vec::new());
    doc.build()
        .pack(&mut bytes)
        .map_err(|err| format!("writing the Word document: {err}"))?;
    Ok(bytes.into_inner())
}
