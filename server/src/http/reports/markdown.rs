//! The report's Markdown read into the few blocks the Word and PDF writers draw: headings,
//! paragraphs and list items (bulleted or numbered, nested), each a run of plain, bold and
//! italic text. Links keep their text; code, quotes and tables become plain text.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// A piece of text with its emphasis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub bold: bool,
    pub italic: bool,
}

/// One block of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// Level 1 to 6.
    Heading(u8, Vec<Span>),
    Paragraph(Vec<Span>),
    /// `depth` from 0; `number` for an ordered list's item.
    Item {
        depth: usize,
        number: Option<u64>,
        spans: Vec<Span>,
    },
}

impl Block {
    #[cfg(test)]
    pub fn spans(&self) -> &[Span] {
        match self {
            Block::Heading(_, spans) | Block::Paragraph(spans) => spans,
            Block::Item { spans, .. } => spans,
        }
    }
}

/// The plain text of `spans`.
pub fn plain(spans: &[Span]) -> String {
    spans.iter().map(|s| s.text.as_str()).collect()
}

fn level(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Where the text being read goes.
enum Open {
    Heading(u8),
    Paragraph,
    Item { depth: usize, number: Option<u64> },
}

/// Reads `markdown` into blocks.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    let mut open: Option<Open> = None;
    // Each open list: its next number (None for bullets).
    let mut lists: Vec<Option<u64>> = Vec::new();
    let (mut bold, mut italic) = (0usize, 0usize);

    fn flush(out: &mut Vec<Block>, open: &mut Option<Open>, spans: &mut Vec<Span>) {
        let taken: Vec<Span> = std::mem::take(spans);
        if taken.iter().all(|s| s.text.trim().is_empty()) {
            return;
        }
        let block = match open.take() {
            Some(Open::Heading(level)) => Block::Heading(level, taken),
            Some(Open::Item { depth, number }) => Block::Item {
                depth,
                number,
                spans: taken,
            },
            Some(Open::Paragraph) | None => Block::Paragraph(taken),
        };
        out.push(block);
    }

    for event in Parser::new_ext(
        markdown,
        Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES,
    ) {
        match event {
            Event::Start(Tag::Heading { level: l, .. }) => {
                flush(&mut out, &mut open, &mut spans);
                open = Some(Open::Heading(level(l)));
            }
            Event::Start(Tag::Paragraph) => {
                // A paragraph inside a list item continues the item.
                if !matches!(open, Some(Open::Item { .. })) {
                    flush(&mut out, &mut open, &mut spans);
                    open = Some(Open::Paragraph);
                } else if !spans.is_empty() {
                    spans.push(Span {
                        text: " ".into(),
                        bold: false,
                        italic: false,
                    });
                }
            }
            Event::Start(Tag::List(first)) => {
                flush(&mut out, &mut open, &mut spans);
                lists.push(first);
            }
            Event::End(TagEnd::List(_)) => {
                flush(&mut out, &mut open, &mut spans);
                lists.pop();
            }
            Event::Start(Tag::Item) => {
                flush(&mut out, &mut open, &mut spans);
                let depth = lists.len().saturating_sub(1);
                let number = match lists.last_mut() {
                    Some(Some(n)) => {
                        let this = *n;
                        *n += 1;
                        Some(this)
                    }
                    _ => None,
                };
                open = Some(Open::Item { depth, number });
            }
            Event::End(
                TagEnd::Heading(_) | TagEnd::Item | TagEnd::TableRow | TagEnd::TableHead,
            ) => {
                flush(&mut out, &mut open, &mut spans);
            }
            Event::End(TagEnd::Paragraph) => {
                if !matches!(open, Some(Open::Item { .. })) {
                    flush(&mut out, &mut open, &mut spans);
                }
            }
            Event::End(TagEnd::TableCell) => {
                spans.push(Span {
                    text: "  ".into(),
                    bold: false,
                    italic: false,
                });
            }
            Event::Start(Tag::Strong) => bold += 1,
            Event::End(TagEnd::Strong) => bold = bold.saturating_sub(1),
            Event::Start(Tag::Emphasis) => italic += 1,
            Event::End(TagEnd::Emphasis) => italic = italic.saturating_sub(1),
            Event::Text(text) | Event::Code(text) => spans.push(Span {
                text: text.to_string(),
                bold: bold > 0 || matches!(open, Some(Open::Heading(_))),
                italic: italic > 0,
            }),
            Event::SoftBreak | Event::HardBreak => spans.push(Span {
                text: " ".into(),
                bold: false,
                italic: false,
            }),
            _ => {}
        }
    }
    flush(&mut out, &mut open, &mut spans);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_paragraphs_and_lists() {
        let blocks = blocks(
            "# Title\n\nSome **bold** text.\n\n- one\n- two\n  - inner\n\n1. first\n2. second\n",
        );
        assert_eq!(
            blocks[0],
            Block::Heading(
                1,
                vec![Span {
                    text: "Title".into(),
                    bold: true,
                    italic: false
                }]
            )
        );
        assert_eq!(plain(blocks[1].spans()), "Some bold text.");
        assert!(blocks[1].spans()[1].bold);
        assert!(matches!(
            &blocks[2],
            Block::Item {
                depth: 0,
                number: None,
                ..
            }
        ));
        assert!(matches!(
            &blocks[4],
            Block::Item {
                depth: 1,
                number: None,
                ..
            }
        ));
        assert!(matches!(
            &blocks[5],
            Block::Item {
                depth: 0,
                number: Some(1),
                ..
            }
        ));
        assert!(matches!(
            &blocks[6],
            Block::Item {
                depth: 0,
                number: Some(2),
                ..
            }
        ));
        assert_eq!(blocks.len(), 7);
    }
}
