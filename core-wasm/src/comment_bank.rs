//! The comment bank's rules, shared by the browser and the server: how feedback is split
//! into phrases and normalised (the three-times rule counts normalised phrases), how a
//! typed fragment matches a bank comment (typeahead ranking), how `{name}` is filled, and
//! the bank's limits (docs/comment-bank.md).

/// Longest comment in the bank, in characters: a comment is inserted into feedback, so it
/// takes feedback's own limit.
pub const MAX_BANK_COMMENT_CHARS: usize = crate::limits::MAX_FEEDBACK_CHARS;
/// Most comments in one person's personal bank (and in a school's shared bank).
pub const MAX_BANK_COMMENTS: usize = 5_000;
/// Most tags on one comment.
pub const MAX_BANK_TAGS: usize = 5;
/// Longest tag, in characters (the template tags' limit).
pub const MAX_BANK_TAG_CHARS: usize = crate::limits::MAX_TEMPLATE_TAG_CHARS;
/// Largest CSV file accepted by the bank's import, in bytes (1 MB).
pub const MAX_IMPORT_BYTES: usize = 1024 * 1024;
/// Most rows in one CSV import.
pub const MAX_IMPORT_ROWS: usize = 2_000;
/// Most typeahead answers.
pub const MAX_SEARCH_RESULTS: usize = 8;
/// Fewest letters typed before the typeahead asks.
pub const MIN_SEARCH_LETTERS: usize = 3;
/// Fewest words in a phrase worth counting for the three-times rule.
pub const MIN_PHRASE_WORDS: usize = 3;
/// Longest phrase counted, in characters: a paragraph with no full stop is not a phrase.
pub const MAX_PHRASE_CHARS: usize = 300;
/// Most phrases counted from one piece of feedback.
pub const MAX_PHRASES_PER_FEEDBACK: usize = 50;
/// How many times a phrase is written before it is suggested for the bank.
pub const SUGGEST_AFTER_USES: i64 = 3;
/// The placeholder filled with the pupil's first name when a comment is inserted.
pub const NAME_PLACEHOLDER: &str = "{name}";

/// `text` with every `{name}` replaced by `first_name` (trimmed). With no first name
/// (an empty one) the placeholder stays, so the teacher sees that it needs one.
pub fn fill_name(text: &str, first_name: &str) -> String {
    let first_name = first_name.trim();
    if first_name.is_empty() {
        return text.to_owned();
    }
    text.replace(NAME_PLACEHOLDER, first_name)
}

/// The sentences of `feedback`, trimmed, in order: split after `.`, `!`, `?` or `…` that is
/// followed by white space or the end (so "3.5" stays whole; nor does the stop of a dotted
/// abbreviation such as "e.g." split), and at every line break or `;`. Empty pieces are
/// dropped.
pub fn split_phrases(feedback: &str) -> Vec<&str> {
    let mut phrases = Vec::new();
    let mut start = 0;
    let mut chars = feedback.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let end = i + c.len_utf8();
        let boundary = match c {
            '\n' | '\r' | ';' => true,
            '!' | '?' | '…' => chars.peek().is_none_or(|(_, next)| next.is_whitespace()),
            '.' => {
                chars.peek().is_none_or(|(_, next)| next.is_whitespace())
                    && !is_abbreviation(&feedback[start..i])
            }
            _ => false,
        };
        if boundary {
            push_phrase(&mut phrases, &feedback[start..end]);
            start = end;
        }
    }
    push_phrase(&mut phrases, &feedback[start..]);
    phrases
}

/// Whether the word before a full stop is a dotted abbreviation ("e.g", "i.e"): its stop
/// does not end the sentence.
fn is_abbreviation(before_stop: &str) -> bool {
    before_stop
        .rsplit(char::is_whitespace)
        .next()
        .is_some_and(|word| word.contains('.') && word.chars().count() <= 4)
}

fn push_phrase<'a>(phrases: &mut Vec<&'a str>, piece: &'a str) {
    let piece = piece.trim_matches(|c: char| c.is_whitespace() || c == ';');
    if !piece.is_empty() {
        phrases.push(piece);
    }
}

/// `text` normalised for comparison: lower case, apostrophes dropped ("don't" = "dont"),
/// every other character that is not a letter or digit read as a space, spaces collapsed.
/// "Great  use of EVIDENCE!" and "great use of evidence" are the same phrase.
pub fn normalise_phrase(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if matches!(c, '\'' | '’' | '‘' | 'ʼ') {
            continue;
        }
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else {
            pending_space = true;
        }
    }
    out
}

/// The number of words of a normalised phrase.
pub fn word_count(normalised: &str) -> usize {
    normalised.split(' ').filter(|w| !w.is_empty()).count()
}

/// The phrases of `feedback` the three-times rule counts, each as (normalised, original),
/// once each however often it repeats in this feedback: at least [`MIN_PHRASE_WORDS`]
/// words, at most [`MAX_PHRASE_CHARS`] characters, at most [`MAX_PHRASES_PER_FEEDBACK`].
pub fn countable_phrases(feedback: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for phrase in split_phrases(feedback) {
        if phrase.chars().count() > MAX_PHRASE_CHARS {
            continue;
        }
        let normalised = normalise_phrase(phrase);
        if word_count(&normalised) < MIN_PHRASE_WORDS {
            continue;
        }
        if out.iter().any(|(seen, _)| *seen == normalised) {
            continue;
        }
        out.push((normalised, phrase.to_owned()));
        if out.len() == MAX_PHRASES_PER_FEEDBACK {
            break;
        }
    }
    out
}

/// How well `text` matches the typed `query` (both compared in lower case with spaces
/// collapsed), best first: 0 the comment starts with it, 1 it starts a word of the
/// comment, 2 every typed word starts a word of the comment, 3 it appears anywhere;
/// `None` for no match. The typeahead ranks by this, then by use.
pub fn match_rank(text: &str, query: &str) -> Option<u8> {
    let query = collapse_lower(query);
    if query.is_empty() {
        return None;
    }
    let text = collapse_lower(text);
    if text.starts_with(&query) {
        return Some(0);
    }
    let at_word_start = text.match_indices(&query).any(|(i, _)| {
        text[..i]
            .chars()
            .next_back()
            .is_none_or(|before| !before.is_alphanumeric())
    });
    if at_word_start {
        return Some(1);
    }
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let typed: Vec<&str> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if !typed.is_empty() && typed.iter().all(|t| words.iter().any(|w| w.starts_with(t))) {
        return Some(2);
    }
    if text.contains(&query) {
        return Some(3);
    }
    None
}

/// The longest word of a typed query: the database narrows the bank by it before
/// [`match_rank`] ranks what it found (every match of any rank contains it).
pub fn longest_query_word(query: &str) -> String {
    collapse_lower(query)
        .split(|c: char| !c.is_alphanumeric())
        .max_by_key(|w| w.chars().count())
        .unwrap_or("")
        .to_owned()
}

fn collapse_lower(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A comment's tags from their written form ("English; Year 7"): split at `;` or `,`,
/// trimmed, empty ones dropped, repeats (ignoring case) dropped. Errors are sentences.
pub fn parse_tags(written: &str) -> Result<Vec<String>, String> {
    let mut tags: Vec<String> = Vec::new();
    for tag in written.split([';', ',']) {
        let tag = tag.split_whitespace().collect::<Vec<_>>().join(" ");
        if tag.is_empty() || tags.iter().any(|t| t.eq_ignore_ascii_case(&tag)) {
            continue;
        }
        if tag.chars().count() > MAX_BANK_TAG_CHARS {
            return Err(crate::limits::tag_too_long_message(MAX_BANK_TAG_CHARS));
        }
        tags.push(tag);
    }
    if tags.len() > MAX_BANK_TAGS {
        return Err(format!("Use at most {MAX_BANK_TAGS} tags."));
    }
    Ok(tags)
}

/// Tags in their written (and stored) form: joined with "; ".
pub fn join_tags(tags: &[String]) -> String {
    tags.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_is_filled_everywhere_and_kept_without_a_name() {
        assert_eq!(
            fill_name("Well done {name}! {name}, keep going.", " Amelia "),
            "Well done Amelia! Amelia, keep going."
        );
        assert_eq!(fill_name("Well done {name}.", ""), "Well done {name}.");
        assert_eq!(fill_name("No placeholder.", "Amelia"), "No placeholder.");
        assert_eq!(fill_name("{Name} stays", "Amelia"), "{Name} stays");
    }

    #[test]
    fn feedback_splits_into_sentences_and_lines() {
        assert_eq!(
            split_phrases("Great use of evidence. Check your spelling!\nWhy 3.5? See e.g. the notes;  well done"),
            vec![
                "Great use of evidence.",
                "Check your spelling!",
                "Why 3.5?",
                "See e.g. the notes",
                "well done"
            ]
        );
        assert_eq!(split_phrases("  \n ... "), vec!["..."]);
        assert!(split_phrases("").is_empty());
        assert_eq!(split_phrases("Wait… what"), vec!["Wait…", "what"]);
    }

    #[test]
    fn normalising_ignores_case_spacing_and_punctuation() {
        let a = normalise_phrase("Great  use of EVIDENCE!");
        assert_eq!(a, "great use of evidence");
        assert_eq!(normalise_phrase(" great use, of evidence. "), a);
        assert_eq!(
            normalise_phrase("Don't forget — the ‘title’"),
            "dont forget the title"
        );
        assert_eq!(normalise_phrase("Émile’s ÉTUDE"), "émiles étude");
        assert_eq!(normalise_phrase("?!"), "");
        assert_ne!(normalise_phrase("use of evidence"), a);
    }

    #[test]
    fn only_phrases_of_three_words_or_more_count_once_each() {
        let phrases = countable_phrases(
            "Good. Great use of evidence! great use of  evidence. Check your spelling please.",
        );
        assert_eq!(
            phrases,
            vec![
                (
                    "great use of evidence".to_owned(),
                    "Great use of evidence!".to_owned()
                ),
                (
                    "check your spelling please".to_owned(),
                    "Check your spelling please.".to_owned()
                ),
            ]
        );
        assert!(countable_phrases("Well done you").len() == 1);
        assert!(countable_phrases("Well done").is_empty());
        let long = "word ".repeat(80);
        assert!(countable_phrases(&long).is_empty(), "over 300 characters");
        let many: String = (0..80)
            .map(|i| format!("Phrase number {i} here. "))
            .collect();
        assert_eq!(countable_phrases(&many).len(), MAX_PHRASES_PER_FEEDBACK);
    }

    #[test]
    fn prefix_matches_beat_word_starts_then_scattered_words_then_substrings() {
        assert_eq!(match_rank("Great use of evidence", "great"), Some(0));
        assert_eq!(match_rank("Great use of evidence", "use of ev"), Some(1));
        assert_eq!(match_rank("Great use of evidence", "evid use"), Some(2));
        assert_eq!(match_rank("Great use of evidence", "vidence"), Some(3));
        assert_eq!(match_rank("Great use of evidence", "proof"), None);
        assert_eq!(match_rank("Great use of evidence", "  "), None);
        assert_eq!(match_rank("Great  USE of evidence", "great use"), Some(0));
        assert_eq!(longest_query_word("use of evid"), "evid");
    }

    #[test]
    fn tags_are_trimmed_deduplicated_and_limited() {
        assert_eq!(
            parse_tags(" English ; Year 7,english;; "),
            Ok(vec!["English".to_owned(), "Year 7".to_owned()])
        );
        assert_eq!(parse_tags(""), Ok(vec![]));
        assert_eq!(
            parse_tags("a;b;c;d;e;f"),
            Err("Use at most 5 tags.".to_owned())
        );
        assert_eq!(
            parse_tags(&"x".repeat(51)),
            Err("Use at most 50 characters for each tag.".to_owned())
        );
        assert_eq!(
            join_tags(&["English".into(), "Year 7".into()]),
            "English; Year 7"
        );
    }
}
