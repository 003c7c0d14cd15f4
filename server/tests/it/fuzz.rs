//! A bounded fuzz test over EVERY registered procedure (`registry::procedures()`, so a new
//! procedure is covered without anyone remembering): at least [`PER_PROCEDURE`] malformed
//! inputs generated from each procedure's input shape (`Procedure::input_shape`), sent as a
//! signed-in admin of a seeded school and as a signed-out caller, on both databases. Any 5xx
//! (a panic is answered 500 by the catch-panic layer) fails the test. The figures (requests
//! sent, 5xx seen) are printed per backend.

use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use axum::http::Request;
use core_wasm::limits::{MAX_INPUT_DEPTH, MAX_LIST_ITEMS, MAX_TEXT_CHARS};
use core_wasm::UserRole;
use futures_util::stream::{self, StreamExt};
use serde_json::{json, Map, Value};
use voicemark::rpc::registry::{procedures, Kind, Procedure};
use voicemark::rpc::shape::{Field, Shape};

use crate::dual_test;
use crate::submissions::{staff, world};
use crate::support::TestApp;

/// Longest query string sent; longer GET inputs are skipped (and counted).
const MAX_QUERY_URL: usize = 60_000;

/// Inputs generated per procedure and caller (at least 100).
pub const PER_PROCEDURE: usize = 110;
/// At most this many per procedure and caller: a procedure with many fields gets a
/// deterministic sample of its field mutations, so the test stays bounded.
pub const MAX_PER_PROCEDURE: usize = 150;

/// One generated input: its JSON and the paths superjson marks as `Date`.
#[derive(Debug, Clone)]
pub struct Input {
    pub json: Value,
    pub dates: Vec<String>,
    /// Sent as the raw `json` with no superjson meta at all (e.g. a wrong top-level type).
    pub what: String,
}

impl Input {
    fn new(json: Value, dates: Vec<String>, what: impl Into<String>) -> Input {
        Input {
            json,
            dates,
            what: what.into(),
        }
    }

    /// The superjson payload `@trpc/client` would send.
    pub fn payload(&self) -> Value {
        if self.dates.is_empty() {
            return json!({ "json": self.json });
        }
        let values: Map<String, Value> = self
            .dates
            .iter()
            .map(|p| (p.clone(), json!(["Date"])))
            .collect();
        json!({ "json": self.json, "meta": { "values": values, "v": 1 } })
    }
}

/// A small deterministic generator (xorshift), so a failure reproduces.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const A_DATE: &str = "2030-01-15T09:30:00.000Z";

/// A well-formed value of `shape`; strings take `text`, dates are collected in `dates`.
pub fn sample(shape: &Shape, path: &str, text: &str, dates: &mut Vec<String>) -> Value {
    match shape {
        Shape::Void => Value::Null,
        Shape::String => json!(text),
        Shape::Number => json!(1),
        Shape::Bool => json!(true),
        Shape::Date => {
            dates.push(path.to_owned());
            json!(A_DATE)
        }
        Shape::Literal(value) => value.clone(),
        Shape::Nullable(inner) => sample(inner, path, text, dates),
        Shape::Array(inner) => json!([sample(inner, &join(path, "0"), text, dates)]),
        Shape::Map(inner) => json!({ "k": sample(inner, &join(path, "k"), text, dates) }),
        Shape::Object { fields, .. } => Value::Object(
            fields
                .iter()
                .map(|f| {
                    let value = sample(&f.shape, &join(path, &f.name), text, dates);
                    (f.name.clone(), value)
                })
                .collect(),
        ),
        Shape::OneOf(all) => all
            .first()
            .map(|s| sample(s, path, text, dates))
            .unwrap_or(Value::Null),
        Shape::Unknown(_) => Value::Null,
    }
}

fn join(path: &str, segment: &str) -> String {
    if path.is_empty() {
        segment.to_owned()
    } else {
        format!("{path}.{segment}")
    }
}

/// Every field path of an object shape (nested objects included), with its shape.
fn field_paths(shape: &Shape, prefix: &str, out: &mut Vec<(String, Field)>) {
    let shape = match shape {
        Shape::Nullable(inner) => inner,
        other => other,
    };
    if let Shape::Object { fields, .. } = shape {
        for field in fields {
            let path = join(prefix, &field.name);
            out.push((path.clone(), field.clone()));
            field_paths(&field.shape, &path, out);
        }
    }
}

/// Replaces (or with `None` removes) the value at dotted `path` in `root`.
fn set_at(root: &mut Value, path: &str, value: Option<Value>) {
    let segments: Vec<&str> = path.split('.').collect();
    let mut node = root;
    for segment in &segments[..segments.len() - 1] {
        node = match node {
            Value::Object(map) => match map.get_mut(*segment) {
                Some(next) => next,
                None => return,
            },
            _ => return,
        };
    }
    if let Value::Object(map) = node {
        let last = segments[segments.len() - 1];
        match value {
            Some(value) => {
                map.insert(last.to_owned(), value);
            }
            None => {
                map.remove(last);
            }
        }
    }
}

fn deep(levels: usize) -> Value {
    let mut value = json!("leaf");
    for _ in 0..levels {
        value = json!([value]);
    }
    value
}

/// The values tried in place of one field: wrong types, null, NUL, long and odd strings,
/// extreme numbers, bad dates, empty / huge / deep lists, random ids.
fn field_mutations(field: &Field, rng: &mut Rng) -> Vec<(Option<Value>, bool, &'static str)> {
    let random_id = format!("{:016x}{:016x}", rng.next(), rng.next());
    let huge_list: Vec<Value> = (0..=MAX_LIST_ITEMS)
        .map(|i| json!(format!("id{i}")))
        .collect();
    let mut all: Vec<(Option<Value>, bool, &'static str)> = vec![
        (None, false, "missing"),
        (Some(Value::Null), false, "null"),
        (Some(json!(12345)), false, "number"),
        (Some(json!(-1)), false, "negative"),
        (Some(json!(1.5)), false, "float"),
        (Some(json!(1e308)), false, "huge float"),
        (Some(json!(u64::MAX)), false, "u64::MAX"),
        (Some(json!(i64::MIN)), false, "i64::MIN"),
        (Some(json!(true)), false, "bool"),
        (Some(json!("text")), false, "string"),
        (Some(json!({"nested": {"x": 1}})), false, "object"),
        (Some(json!([])), false, "empty list"),
        (Some(json!(["a", 1, null])), false, "mixed list"),
        (Some(json!("a\u{0}b")), false, "NUL string"),
        (Some(json!([String::from("\u{0}")])), false, "list of NUL"),
        (
            Some(json!("x".repeat(MAX_TEXT_CHARS + 1))),
            false,
            "long string",
        ),
        (Some(json!("")), false, "empty string"),
        (Some(json!("   ")), false, "blank string"),
        (
            Some(json!("\u{202E}\u{FEFF}e\u{301}𝕏🏳️‍🌈")),
            false,
            "unicode edges",
        ),
        (Some(json!("'; DROP TABLE students; --")), false, "sql text"),
        (Some(json!("%_\\")), false, "like wildcards"),
        (Some(json!(random_id)), false, "random id"),
        (Some(Value::Array(huge_list)), false, "huge list"),
        (Some(deep(MAX_INPUT_DEPTH + 2)), false, "deep nesting"),
        (Some(json!("not a date")), true, "invalid date"),
        (Some(json!("2024-13-45T99:99:99Z")), true, "impossible date"),
        (Some(json!("+275760-09-13T00:00:00.000Z")), true, "far date"),
        (Some(json!(1e20)), true, "number as date"),
    ];
    if matches!(field.shape, Shape::Date | Shape::Nullable(_)) {
        all.push((Some(json!("1900-01-01T00:00:00.000Z")), true, "old date"));
    }
    all
}

/// At least [`PER_PROCEDURE`] malformed inputs for `procedure`, the first few well formed.
pub fn inputs(procedure: &Procedure, ids: &[String], seed: u64) -> Vec<Input> {
    let shape = procedure.input_shape();
    let mut rng = Rng::new(seed ^ procedure.path.len() as u64 * 7919);
    let mut out = Vec::new();
    for text in ids.iter().take(3) {
        let mut dates = Vec::new();
        let json = sample(&shape, "", text, &mut dates);
        out.push(Input::new(json, dates, "well formed"));
    }
    let mut dates = Vec::new();
    let base = sample(&shape, "", "x", &mut dates);
    // Whole-input mutations.
    for (json, what) in [
        (Value::Null, "null input"),
        (json!([]), "list input"),
        (json!("text"), "string input"),
        (json!(42), "number input"),
        (json!({}), "empty object"),
        (json!("\u{0}"), "NUL input"),
        (deep(MAX_INPUT_DEPTH + 2), "deep input"),
        (deep(120), "deeper input"),
    ] {
        out.push(Input::new(json, Vec::new(), what));
    }
    if let Value::Object(map) = &base {
        let mut extra = map.clone();
        extra.insert("unexpectedField".into(), json!("\u{0}"));
        extra.insert("__proto__".into(), json!({"admin": true}));
        out.push(Input::new(
            Value::Object(extra),
            dates.clone(),
            "extra fields",
        ));
    }
    // Field mutations, sampled down to the bound.
    let fixed = out.len();
    let mut paths = Vec::new();
    field_paths(&shape, "", &mut paths);
    for (path, field) in &paths {
        for (value, is_date, what) in field_mutations(field, &mut rng) {
            let mut json = base.clone();
            set_at(&mut json, path, value.clone());
            let mut dates: Vec<String> = dates
                .iter()
                .filter(|d| !d.starts_with(path.as_str()))
                .cloned()
                .collect();
            if is_date && value.is_some() {
                dates.push(path.clone());
            }
            out.push(Input::new(json, dates, format!("{path}: {what}")));
        }
    }
    let mut mutated = out.split_off(fixed);
    while mutated.len() > MAX_PER_PROCEDURE - fixed {
        let drop = rng.below(mutated.len());
        mutated.swap_remove(drop);
    }
    out.extend(mutated);
    // Random values until the minimum is reached.
    while out.len() < PER_PROCEDURE {
        let json = random_value(&mut rng, 0);
        out.push(Input::new(json, Vec::new(), "random value"));
    }
    out
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => json!(rng.next() % 2 == 0),
        2 => json!(rng.next() as i64),
        3 => json!(format!("{:x}", rng.next())),
        4 => json!(["\u{0}", "é", ""][rng.below(3)]),
        5 => json!((rng.next() as f64) / 3.0),
        6 => Value::Array(
            (0..rng.below(4))
                .map(|_| random_value(rng, depth + 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..rng.below(4))
                .map(|i| (format!("k{i}"), random_value(rng, depth + 1)))
                .collect(),
        ),
    }
}

/// Sends `input` to `procedure` (GET for queries, POST for mutations); returns the status.
pub async fn send(
    app: &TestApp,
    procedure: &Procedure,
    input: &Input,
    cookie: Option<&str>,
) -> (u16, String) {
    let payload = input.payload().to_string();
    let request = match procedure.kind {
        Kind::Query => {
            let encoded: String =
                url::form_urlencoded::byte_serialize(payload.as_bytes()).collect();
            // No HTTP stack carries a longer address (the `http` crate's limit is 64 KiB):
            // such a query input cannot reach the server at all.
            if encoded.len() > MAX_QUERY_URL {
                return (0, String::new());
            }
            Request::get(format!("/api/trpc/{}?input={encoded}", procedure.path))
        }
        Kind::Mutation => Request::post(format!("/api/trpc/{}", procedure.path))
            .header("content-type", "application/json"),
    };
    let request = match cookie {
        Some(cookie) => request.header("cookie", cookie),
        None => request,
    };
    let body = match procedure.kind {
        Kind::Query => Body::empty(),
        Kind::Mutation => Body::from(payload),
    };
    let response = app.request(request.body(body).expect("request")).await;
    (response.status.as_u16(), response.text())
}

dual_test!(
    async fn every_procedure_survives_malformed_input(app: TestApp) {
        let started = std::time::Instant::now();
        let world = world(&app).await;
        let admin = staff(&app, Some(&world.school), UserRole::Admin, "Fuzz").await;
        let ids = vec![
            world.pupils[0].clone(),
            world.notification.clone(),
            world.class_id.clone(),
            world.submissions[0].0.clone(),
        ];
        let sent = AtomicUsize::new(0);
        let mut failures: Vec<String> = Vec::new();
        let mut unsendable = 0usize;
        let all = procedures();
        for (index, procedure) in all.iter().enumerate() {
            let inputs = inputs(procedure, &ids, 0x5eed + index as u64);
            assert!(inputs.len() >= 100, "{}: {}", procedure.path, inputs.len());
            for cookie in [Some(admin.cookie.as_str()), None] {
                let answers: Vec<(String, u16, String)> = stream::iter(inputs.iter())
                    .map(|input| {
                        let app = &app;
                        let sent = &sent;
                        async move {
                            sent.fetch_add(1, Ordering::Relaxed);
                            let (status, body) = send(app, procedure, input, cookie).await;
                            (input.what.clone(), status, body)
                        }
                    })
                    .buffer_unordered(4)
                    .collect()
                    .await;
                for (what, status, body) in answers {
                    if status == 0 {
                        unsendable += 1;
                    } else if status >= 500 {
                        let who = if cookie.is_some() {
                            "admin"
                        } else {
                            "signed out"
                        };
                        let body: String = body.chars().take(300).collect();
                        failures.push(format!(
                            "{} ({who}, {what}): {status} {body}",
                            procedure.path
                        ));
                    }
                }
            }
        }
        eprintln!(
            "fuzz on {:?}: {} procedures, {} requests sent, {} 5xx seen, {:.1} s \
             ({} query inputs too long for a URL were not sent)",
            app.backend(),
            all.len(),
            sent.load(Ordering::Relaxed) - unsendable,
            failures.len(),
            started.elapsed().as_secs_f64(),
            unsendable,
        );
        assert!(failures.is_empty(), "5xx answers:\n{}", failures.join("\n"));
    }
);

#[test]
fn every_procedure_gets_at_least_a_hundred_inputs() {
    let ids = vec!["id-1".to_owned()];
    for procedure in procedures() {
        let inputs = inputs(procedure, &ids, 1);
        assert!(inputs.len() >= 100, "{}: {}", procedure.path, inputs.len());
        assert!(
            inputs.len() <= MAX_PER_PROCEDURE,
            "{}: {}",
            procedure.path,
            inputs.len()
        );
    }
}
