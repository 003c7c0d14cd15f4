//! `superjson.serialize` written straight into one buffer from a typed value (issue 15): no
//! `serde_json::Value` tree, no second copy of the text.

use serde::Serialize;

use super::{date_marker, escape_segment};

/// `superjson.serialize(value)` as JSON text: `{"json": ...}`, plus `meta` with one `"Date"`
/// annotation per [`JsDate`], paths in document order. Written straight into one buffer from
/// the typed value: a value with dates is scanned once to find their paths, and their markers
/// are taken out in place.
pub fn encode<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    const OPEN: &[u8] = b"{\"json\":";
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(OPEN);
    serde_json::to_writer(&mut out, value)?;
    // The marker's \u{1} is written as \u0001 in JSON text.
    let marker = date_marker().replace('\u{1}', "\\u0001");
    if memchr::memmem::find(&out[OPEN.len()..], marker.as_bytes()).is_none() {
        out.push(b'}');
        return Ok(into_string(out));
    }
    let paths = take_dates(&mut out, OPEN.len(), marker.as_bytes());
    out.extend_from_slice(b",\"meta\":{\"values\":");
    match paths.as_slice() {
        [root] if root.is_empty() => out.extend_from_slice(b"[\"Date\"]"),
        _ => {
            out.push(b'{');
            for (i, path) in paths.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut out, path)?;
                out.extend_from_slice(b":[\"Date\"]");
            }
            out.push(b'}');
        }
    }
    out.extend_from_slice(b",\"v\":1}}");
    Ok(into_string(out))
}

fn into_string(bytes: Vec<u8>) -> String {
    // serde_json writes UTF-8, and only whole ASCII markers are taken out of it.
    String::from_utf8(bytes).unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}

/// One open container while scanning JSON text.
enum Frame {
    Object { key: String, at_key: bool },
    Array { index: usize },
}

/// Scans the JSON text `out[start..]` (as serde_json writes it) for string values that begin
/// with `marker`: returns each one's superjson path and removes the markers in place.
fn take_dates(out: &mut Vec<u8>, start: usize, marker: &[u8]) -> Vec<String> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut paths = Vec::new();
    let mut found = Vec::new();
    let mut i = start;
    while i < out.len() {
        match out[i] {
            b'{' => stack.push(Frame::Object { key: String::new(), at_key: true }),
            b'[' => stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b':' => {
                if let Some(Frame::Object { at_key, .. }) = stack.last_mut() {
                    *at_key = false;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { at_key, .. }) => *at_key = true,
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b'"' => {
                let end = string_end(out, i);
                match stack.last_mut() {
                    Some(Frame::Object { key, at_key: true }) => *key = unescape(&out[i..=end]),
                    _ if out[i + 1..end].starts_with(marker) => {
                        paths.push(path_of(&stack));
                        found.push(i + 1);
                    }
                    _ => {}
                }
                i = end;
            }
            _ => {}
        }
        i += 1;
    }
    // Take the markers out, moving each stretch between them down once.
    let mut write = found.first().copied().unwrap_or(out.len());
    for (n, &at) in found.iter().enumerate() {
        let from = at + marker.len();
        let to = found.get(n + 1).copied().unwrap_or(out.len());
        out.copy_within(from..to, write);
        write += to - from;
    }
    out.truncate(write);
    paths
}

/// The index of the quote that closes the string opening at `open`.
fn string_end(text: &[u8], open: usize) -> usize {
    let mut i = open + 1;
    while i < text.len() {
        match text[i] {
            b'\\' => i += 2,
            b'"' => return i,
            _ => i += 1,
        }
    }
    text.len() - 1
}

/// A JSON string token's text.
fn unescape(token: &[u8]) -> String {
    if !token.contains(&b'\\') {
        return String::from_utf8_lossy(&token[1..token.len() - 1]).into_owned();
    }
    serde_json::from_slice(token).unwrap_or_default()
}

fn path_of(stack: &[Frame]) -> String {
    let segments: Vec<String> = stack
        .iter()
        .map(|frame| match frame {
            Frame::Object { key, .. } => escape_segment(key),
            Frame::Array { index } => index.to_string(),
        })
        .collect();
    segments.join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rpc::superjson::JsDate;
    use chrono::{TimeZone, Utc};
    use serde_json::{json, Map, Value};

    fn date(secs: i64) -> JsDate {
        JsDate(Utc.timestamp_opt(secs, 0).single().expect("a valid time"))
    }

    /// The encoder before issue 15 (through a `Value` tree), to compare with.
    fn encoded_through_a_tree<T: Serialize>(value: &T) -> Value {
        let tree = serde_json::to_value(value).expect("tree");
        fn walk(value: &mut Value, at: &mut Vec<String>, found: &mut Map<String, Value>) {
            match value {
                Value::String(text) if text.starts_with(date_marker()) => {
                    *text = text[date_marker().len()..].to_owned();
                    let path: Vec<String> = at.iter().map(|s| escape_segment(s)).collect();
                    found.insert(path.join("."), json!(["Date"]));
                }
                Value::Array(items) => {
                    for (i, item) in items.iter_mut().enumerate() {
                        at.push(i.to_string());
                        walk(item, at, found);
                        at.pop();
                    }
                }
                Value::Object(map) => {
                    for (key, item) in map.iter_mut() {
                        at.push(key.clone());
                        walk(item, at, found);
                        at.pop();
                    }
                }
                _ => {}
            }
        }
        let mut json = tree;
        let mut found = Map::new();
        walk(&mut json, &mut Vec::new(), &mut found);
        if found.is_empty() {
            json!({ "json": json })
        } else {
            json!({ "json": json, "meta": { "values": found, "v": 1 } })
        }
    }

    #[test]
    fn writes_what_the_tree_encoder_wrote() {
        #[derive(Serialize)]
        struct Note {
            text: String,
            at: Option<JsDate>,
            tags: Vec<String>,
        }
        let mut by_key = std::collections::BTreeMap::new();
        by_key.insert("a.b", vec![Some(date(1)), None]);
        by_key.insert("quote\"and\\slash", vec![Some(date(2))]);
        by_key.insert("ünï", vec![]);
        let notes = vec![
            Note { text: "\"quoted\" \\ and ünïcode {[,:]}".into(), at: Some(date(3)), tags: vec!["x".into()] },
            Note { text: String::new(), at: None, tags: vec![] },
            Note { text: "]\"".into(), at: Some(date(4)), tags: vec!["[".into(), "{".into()] },
        ];
        let cases: Vec<(String, Value)> = vec![
            (encode(&notes).expect("encodes"), encoded_through_a_tree(&notes)),
            (encode(&by_key).expect("encodes"), encoded_through_a_tree(&by_key)),
            (encode(&(notes.len(), by_key.clone(), [date(5), date(6)])).expect("encodes"),
             encoded_through_a_tree(&(notes.len(), by_key.clone(), [date(5), date(6)]))),
            (encode(&json!({"plain": [1, 2.5, null, true, "s"]})).expect("encodes"),
             encoded_through_a_tree(&json!({"plain": [1, 2.5, null, true, "s"]}))),
        ];
        for (text, expected) in cases {
            let written: Value = serde_json::from_str(&text).expect("valid JSON");
            assert_eq!(written, expected, "{text}");
            assert!(!text.contains("\\u0001"), "no marker left: {text}");
        }
        let first = encode(&notes).expect("encodes");
        assert!(first.ends_with(r#""meta":{"values":{"0.at":["Date"],"2.at":["Date"]},"v":1}}"#), "{first}");
    }
}
