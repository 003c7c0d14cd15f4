//! superjson's `{json, meta}` encoding (trpc.md §7): inputs are decoded into plain JSON that
//! serde reads (Dates as ISO strings, bigints as numbers, `undefined` keys removed); outputs
//! are encoded so that every [`JsDate`] is annotated and the client restores a real `Date`.

use std::sync::OnceLock;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

mod encode;
pub use encode::encode;

/// A JavaScript `Date` on the wire: an ISO string annotated `"Date"` in `meta.values`.
/// Only meaningful inside an RPC output: serialising it elsewhere shows the encoder's marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JsDate(pub DateTime<Utc>);

impl JsDate {
    /// `Date.prototype.toISOString()`: milliseconds and a `Z`.
    pub fn to_iso(self) -> String {
        self.0.to_rfc3339_opts(SecondsFormat::Millis, true)
    }
}

impl From<DateTime<Utc>> for JsDate {
    fn from(at: DateTime<Utc>) -> Self {
        JsDate(at)
    }
}

impl From<chrono::NaiveDateTime> for JsDate {
    fn from(at: chrono::NaiveDateTime) -> Self {
        JsDate(at.and_utc())
    }
}

/// Per-process random prefix that marks encoder-private strings. A client cannot forge it,
/// so a user's text is never mistaken for a Date or `undefined`.
fn marker() -> &'static str {
    static MARKER: OnceLock<String> = OnceLock::new();
    MARKER.get_or_init(|| format!("\u{1}{}:", crate::ids::new_token()))
}

fn date_marker() -> &'static str {
    static DATE: OnceLock<String> = OnceLock::new();
    DATE.get_or_init(|| format!("{}Date:", marker()))
}

fn undefined_marker() -> &'static str {
    static UNDEFINED: OnceLock<String> = OnceLock::new();
    UNDEFINED.get_or_init(|| format!("{}undefined", marker()))
}

impl Serialize for JsDate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format!("{}{}", date_marker(), self.to_iso()))
    }
}

/// Reads an ISO string, and also one a process serialised with its marker (an answer kept
/// in the database, `models::insights::answers`, read back by this or another process).
impl<'de> Deserialize<'de> for JsDate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        let iso = text
            .strip_prefix('\u{1}')
            .and_then(|rest| rest.split_once(":Date:"))
            .map_or(text.as_str(), |(_, iso)| iso);
        parse_iso(iso)
            .map(JsDate)
            .ok_or_else(|| serde::de::Error::custom("Invalid date"))
    }
}

fn parse_iso(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|at| at.with_timezone(&Utc))
}

/// Why a `{json, meta}` payload could not be decoded (answered as BAD_REQUEST).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("Invalid superjson annotation at \"{0}\"")]
    BadTree(String),
    #[error("superjson annotation for a path that does not exist: \"{0}\"")]
    MissingPath(String),
    #[error("Invalid Date at \"{0}\"")]
    InvalidDate(String),
    #[error("Unsupported value of type {kind} at \"{path}\"")]
    Unsupported { kind: String, path: String },
}

/// `superjson.deserialize(payload)` as plain JSON. A payload without `json` is `undefined`,
/// which comes back as `null`; `undefined` object properties are removed.
pub fn decode(payload: Value) -> Result<Value, DecodeError> {
    let Value::Object(mut payload) = payload else {
        return Ok(Value::Null);
    };
    let Some(mut json) = payload.remove("json") else {
        return Ok(Value::Null);
    };
    let meta = payload.remove("meta");
    if let Some(Value::Object(meta)) = &meta {
        let escaped_paths = meta
            .get("v")
            .and_then(Value::as_i64)
            .is_some_and(|v| v >= 1);
        if let Some(values) = meta.get("values") {
            apply_tree(&mut json, values, escaped_paths, "")?;
        }
    }
    Ok(strip_undefined(json))
}

/// Applies one `meta.values` tree: children first, then the node's own type.
fn apply_tree(value: &mut Value, tree: &Value, escaped: bool, at: &str) -> Result<(), DecodeError> {
    match tree {
        Value::Array(items) => {
            if let Some(Value::Object(children)) = items.get(1) {
                apply_children(value, children, escaped, at)?;
            }
            let kind = match items.first() {
                Some(Value::String(kind)) => kind.as_str(),
                Some(Value::Array(parts)) => parts.first().and_then(Value::as_str).unwrap_or(""),
                _ => return Err(DecodeError::BadTree(at.to_owned())),
            };
            transform(value, kind, at)
        }
        Value::Object(children) => apply_children(value, children, escaped, at),
        _ => Err(DecodeError::BadTree(at.to_owned())),
    }
}

fn apply_children(
    value: &mut Value,
    children: &Map<String, Value>,
    escaped: bool,
    at: &str,
) -> Result<(), DecodeError> {
    for (path, subtree) in children {
        let full = if at.is_empty() {
            path.clone()
        } else {
            format!("{at}.{path}")
        };
        let mut node = &mut *value;
        for segment in parse_path(path, escaped) {
            node = match node {
                Value::Object(map) => map.get_mut(&segment),
                Value::Array(items) => segment.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
                _ => None,
            }
            .ok_or_else(|| DecodeError::MissingPath(full.clone()))?;
        }
        apply_tree(node, subtree, escaped, &full)?;
    }
    Ok(())
}

/// Turns one annotated leaf into what serde reads.
fn transform(value: &mut Value, kind: &str, at: &str) -> Result<(), DecodeError> {
    match kind {
        "undefined" => *value = Value::String(undefined_marker().to_owned()),
        "Date" => {
            let valid = value.as_str().is_some_and(|text| parse_iso(text).is_some());
            if !valid {
                return Err(DecodeError::InvalidDate(at.to_owned()));
            }
        }
        "bigint" => {
            let number = value.as_str().and_then(|text| {
                text.parse::<i64>()
                    .map(Value::from)
                    .or_else(|_| text.parse::<u64>().map(Value::from))
                    .ok()
            });
            // Too big for 64 bits: left as its decimal string.
            if let Some(number) = number {
                *value = number;
            } else if !value.is_string() {
                return Err(DecodeError::BadTree(at.to_owned()));
            }
        }
        "number" => match value.as_str() {
            Some("-0") => *value = Value::from(0),
            _ => {
                return Err(DecodeError::Unsupported {
                    kind: "number (NaN or Infinity)".into(),
                    path: at.to_owned(),
                })
            }
        },
        // Already plain JSON in the shape serde reads: arrays, pair lists, strings.
        "set" | "map" | "regexp" | "URL" | "typed-array" => {}
        other => {
            return Err(DecodeError::Unsupported {
                kind: other.to_owned(),
                path: at.to_owned(),
            })
        }
    }
    Ok(())
}

/// Removes `undefined` properties; `undefined` in an array or at the root becomes `null`.
fn strip_undefined(value: Value) -> Value {
    match value {
        Value::String(text) if text == undefined_marker() => Value::Null,
        Value::Array(items) => Value::Array(items.into_iter().map(strip_undefined).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| v.as_str() != Some(undefined_marker()))
                .map(|(k, v)| (k, strip_undefined(v)))
                .collect(),
        ),
        other => other,
    }
}

/// Splits a `meta.values` path. With `v: 1`, `\\` is a backslash and `\.` a dot inside a
/// key; without it (superjson ≤2.2.2) only `\.` is an escape.
pub fn parse_path(path: &str, escaped: bool) -> Vec<String> {
    let mut segments = Vec::new();
    let mut segment = String::new();
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'.') || (escaped && chars.peek() == Some(&'\\')) => {
                if let Some(next) = chars.next() {
                    segment.push(next);
                }
            }
            '.' => segments.push(std::mem::take(&mut segment)),
            other => segment.push(other),
        }
    }
    segments.push(segment);
    segments
}

/// Escapes one key for a `v: 1` path.
fn escape_segment(segment: &str) -> String {
    segment.replace('\\', "\\\\").replace('.', "\\.")
}

#[cfg(test)]
mod tests {
    use super::*;

    use chrono::TimeZone;
    use serde_json::json;

    fn date(secs: i64) -> JsDate {
        JsDate(Utc.timestamp_opt(secs, 0).single().expect("a valid time"))
    }

    fn decoded(text: &str) -> Value {
        decode(serde_json::from_str(text).expect("JSON")).expect("decodes")
    }

    #[test]
    fn decodes_the_captured_batch_inputs() {
        assert_eq!(
            decoded(
                r#"{"json":{"x":1,"d":"1970-01-01T00:00:00.000Z"},"meta":{"values":{"d":["Date"]},"v":1}}"#
            ),
            json!({"x": 1, "d": "1970-01-01T00:00:00.000Z"})
        );
        assert_eq!(
            decoded(r#"{"json":null,"meta":{"values":["undefined"],"v":1}}"#),
            Value::Null
        );
        assert_eq!(decoded(r#"{"json":"str"}"#), json!("str"));
        assert_eq!(
            decoded(r#"{"json":{"y":"2"},"meta":{"values":{"y":["bigint"]},"v":1}}"#),
            json!({"y": 2})
        );
        assert_eq!(
            decoded(
                r#"{"json":{"big":"12345678901234567890"},"meta":{"values":{"big":["bigint"]},"v":1}}"#
            ),
            json!({"big": 12345678901234567890u64})
        );
        assert_eq!(
            decoded(
                r#"{"json":{"big":"123456789012345678901234"},"meta":{"values":{"big":["bigint"]},"v":1}}"#
            ),
            json!({"big": "123456789012345678901234"})
        );
    }

    #[test]
    fn decodes_nested_paths_undefined_and_escapes() {
        assert_eq!(
            decoded(r#"{"json":{"a":null,"b":1},"meta":{"values":{"a":["undefined"]},"v":1}}"#),
            json!({"b": 1})
        );
        let rows = decoded(
            r#"{"json":{"rows":[{"d":"1970-01-01T00:00:00.000Z"},{"d":"1970-01-01T00:00:01.000Z"}]},"meta":{"values":{"rows.0.d":["Date"],"rows.1.d":["Date"]},"v":1}}"#,
        );
        #[derive(Deserialize)]
        struct Row {
            d: JsDate,
        }
        #[derive(Deserialize)]
        struct Rows {
            rows: Vec<Row>,
        }
        let rows: Rows = serde_json::from_value(rows).expect("typed");
        assert_eq!(rows.rows[1].d, date(1));
        assert_eq!(
            decoded(
                r#"{"json":{"a.b":"1970-01-01T00:00:00.000Z"},"meta":{"values":{"a\\.b":["Date"]},"v":1}}"#
            ),
            json!({"a.b": "1970-01-01T00:00:00.000Z"})
        );
        assert_eq!(
            decoded(
                r#"{"json":{"m":[["k1","1970-01-01T00:00:00.000Z"],["k2",2]]},"meta":{"values":{"m":["map",{"0.1":["Date"]}]},"v":1}}"#
            ),
            json!({"m": [["k1", "1970-01-01T00:00:00.000Z"], ["k2", 2]]})
        );
        assert_eq!(
            decoded(r#"{"json":{"s":["a","b"]},"meta":{"values":{"s":["set"]},"v":1}}"#),
            json!({"s": ["a", "b"]})
        );
        assert_eq!(
            decoded(
                r#"{"json":{"x":{"id":1},"y":{"id":1}},"meta":{"referentialEqualities":{"x":["y"]},"v":1}}"#
            ),
            json!({"x": {"id": 1}, "y": {"id": 1}})
        );
        assert_eq!(
            decoded(r#"{"json":{"z":"-0"},"meta":{"values":{"z":["number"]},"v":1}}"#),
            json!({"z": 0})
        );
    }

    #[test]
    fn paths_follow_both_escaping_rules() {
        assert_eq!(parse_path("a\\.b.c", true), ["a.b", "c"]);
        assert_eq!(parse_path("a\\\\.b", true), ["a\\", "b"]);
        // Legacy: the first backslash is literal, the second escapes the dot.
        assert_eq!(parse_path("a\\\\.b", false), ["a\\.b"]);
        assert_eq!(parse_path("rows.0.d", false), ["rows", "0", "d"]);
    }

    #[test]
    fn rejects_what_it_cannot_represent() {
        let bad =
            |text: &str| decode(serde_json::from_str(text).expect("JSON")).expect_err("rejected");
        assert!(matches!(
            bad(r#"{"json":{"d":"x"},"meta":{"values":{"d":["Date"]},"v":1}}"#),
            DecodeError::InvalidDate(_)
        ));
        assert!(matches!(
            bad(r#"{"json":{"x":"NaN"},"meta":{"values":{"x":["number"]},"v":1}}"#),
            DecodeError::Unsupported { .. }
        ));
        assert!(matches!(
            bad(r#"{"json":{},"meta":{"values":{"q":["Date"]},"v":1}}"#),
            DecodeError::MissingPath(_)
        ));
        assert!(matches!(
            bad(r#"{"json":{"e":{}},"meta":{"values":{"e":["Error"]},"v":1}}"#),
            DecodeError::Unsupported { .. }
        ));
    }

    #[test]
    fn a_payload_without_json_is_undefined() {
        assert_eq!(decode(json!({"x": 1})).expect("decodes"), Value::Null);
        assert_eq!(decode(json!("str")).expect("decodes"), Value::Null);
    }

    #[test]
    fn encodes_like_superjson() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Created {
            created_at: JsDate,
            n: Option<i32>,
        }
        let at = JsDate(
            Utc.with_ymd_and_hms(2024, 9, 1, 8, 30, 0)
                .single()
                .expect("time"),
        );
        assert_eq!(
            encode(&Created {
                created_at: at,
                n: None
            })
            .expect("encodes"),
            r#"{"json":{"createdAt":"2024-09-01T08:30:00.000Z","n":null},"meta":{"values":{"createdAt":["Date"]},"v":1}}"#
        );
        assert_eq!(encode("hi").expect("encodes"), r#"{"json":"hi"}"#);
        assert_eq!(
            encode(&json!({"a": 1, "b": "x"})).expect("encodes"),
            r#"{"json":{"a":1,"b":"x"}}"#
        );
        assert_eq!(
            encode(&date(0)).expect("encodes"),
            r#"{"json":"1970-01-01T00:00:00.000Z","meta":{"values":["Date"],"v":1}}"#
        );
        #[derive(Serialize)]
        struct Row {
            d: JsDate,
        }
        #[derive(Serialize)]
        struct Rows {
            rows: Vec<Row>,
        }
        assert_eq!(
            encode(&Rows {
                rows: vec![Row { d: date(0) }, Row { d: date(1) }]
            })
            .expect("encodes"),
            r#"{"json":{"rows":[{"d":"1970-01-01T00:00:00.000Z"},{"d":"1970-01-01T00:00:01.000Z"}]},"meta":{"values":{"rows.0.d":["Date"],"rows.1.d":["Date"]},"v":1}}"#
        );
        let mut dotted = std::collections::BTreeMap::new();
        dotted.insert("a.b", date(0));
        assert_eq!(
            encode(&dotted).expect("encodes"),
            r#"{"json":{"a.b":"1970-01-01T00:00:00.000Z"},"meta":{"values":{"a\\.b":["Date"]},"v":1}}"#
        );
    }

    #[test]
    fn dates_round_trip_through_decode() {
        let text = encode(&date(1_700_000_000)).expect("encodes");
        let back: JsDate = serde_json::from_value(decoded(&text)).expect("typed");
        assert_eq!(back, date(1_700_000_000));
    }

    #[test]
    fn a_date_serialised_with_a_processs_marker_reads_back() {
        let kept = serde_json::to_string(&date(1_700_000_000)).expect("serialises");
        assert!(kept.contains(":Date:"), "{kept}");
        let back: JsDate = serde_json::from_str(&kept).expect("reads back");
        assert_eq!(back, date(1_700_000_000));
        // Another process's marker: the same date.
        let other: JsDate = serde_json::from_str("\"\\u0001abc:Date:2023-11-14T22:13:20.000Z\"").expect("reads back");
        assert_eq!(other, date(1_700_000_000));
        assert!(serde_json::from_str::<JsDate>("\"\\u0001abc:Date:not a date\"").is_err());
    }
}
