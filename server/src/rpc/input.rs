//! The one input layer: every call's decoded input passes [`check_input`] before it is
//! deserialised into the procedure's type. It refuses, for every procedure at once, what no
//! field may hold: a NUL character (PostgreSQL cannot store one), a string longer than
//! [`MAX_TEXT_CHARS`], a list longer than [`MAX_LIST_ITEMS`] (SQLite's bind limit) and
//! nesting deeper than [`MAX_INPUT_DEPTH`]. The limits and messages live in the core
//! (`core_wasm::limits`); per-field limits (names, UPN, titles) stay in the procedures.

use core_wasm::limits::{
    text_error, too_many_message, MAX_INPUT_DEPTH, MAX_LIST_ITEMS, MAX_TEXT_CHARS, NUL_MESSAGE,
};
use serde_json::Value;

use crate::rpc::error::{FieldErrors, RpcResult};

/// Fields whose strings may pass [`MAX_TEXT_CHARS`]: (procedure path, top-level field).
/// Their size is bounded by the transport's body limit for that procedure instead; the NUL,
/// list and depth rules still apply.
const LONG_TEXT_FIELDS: &[(&str, &str)] = &[
    // Base64 JPEGs, up to the 40 MB body limit of `notification.analyseImage`.
    ("notification.analyseImage", "images"),
    // A CSV file's text, refused over 1 MB by `roster::csv::check_size`.
    ("admin.importPupils", "csv"),
    // A comment bank's CSV file, refused over 1 MB by `commentBank.importCsv`.
    ("commentBank.importCsv", "csv"),
];

/// At most this many problems are reported for one input: a list of 10,000 NUL strings
/// answers with the first few, not 10,000 messages.
const MAX_REPORTED: usize = 10;

/// BAD_REQUEST naming each offending field (`zodError.fieldErrors`, paths written like
/// `filters.students[3]`), or `Ok` when `input` may be deserialised.
pub fn check_input(procedure: &str, input: &Value) -> RpcResult<()> {
    let mut walk = Walk {
        procedure,
        errors: FieldErrors::default(),
        reported: 0,
    };
    walk.value(input, &mut String::new(), 0, false);
    walk.errors.into_result()
}

struct Walk<'a> {
    procedure: &'a str,
    errors: FieldErrors,
    reported: usize,
}

impl Walk<'_> {
    fn report(&mut self, path: &str, message: String) {
        if self.reported >= MAX_REPORTED {
            return;
        }
        self.reported += 1;
        if path.is_empty() {
            self.errors.form_errors.push(message);
        } else {
            self.errors.add(path, message);
        }
    }

    fn value(&mut self, value: &Value, path: &mut String, depth: usize, long_text: bool) {
        if self.reported >= MAX_REPORTED {
            return;
        }
        match value {
            Value::String(text) => {
                let max = if long_text {
                    usize::MAX
                } else {
                    MAX_TEXT_CHARS
                };
                if let Some(message) = text_error(text, max) {
                    self.report(path, message);
                }
            }
            Value::Array(items) => {
                if depth >= MAX_INPUT_DEPTH {
                    self.report(path, too_deep_message());
                } else if items.len() > MAX_LIST_ITEMS {
                    self.report(path, too_many_message(MAX_LIST_ITEMS));
                } else {
                    for (index, item) in items.iter().enumerate() {
                        let len = path.len();
                        path.push_str(&format!("[{index}]"));
                        self.value(item, path, depth + 1, long_text);
                        path.truncate(len);
                    }
                }
            }
            Value::Object(fields) => {
                if depth >= MAX_INPUT_DEPTH {
                    self.report(path, too_deep_message());
                } else if fields.len() > MAX_LIST_ITEMS {
                    self.report(path, too_many_message(MAX_LIST_ITEMS));
                } else {
                    for (key, item) in fields {
                        if key.contains('\0') {
                            self.report(path, format!("A field name: {NUL_MESSAGE}"));
                            continue;
                        }
                        let long_text = long_text
                            || (depth == 0
                                && LONG_TEXT_FIELDS
                                    .iter()
                                    .any(|&(p, f)| p == self.procedure && f == key.as_str()));
                        let len = path.len();
                        if !path.is_empty() {
                            path.push('.');
                        }
                        path.push_str(key);
                        self.value(item, path, depth + 1, long_text);
                        path.truncate(len);
                    }
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

/// A per-field limit (names, UPN, titles: `core_wasm::limits`): adds "Use at most N
/// characters." to `field` when `value` is longer than `max_chars`.
pub fn check_length(errors: &mut FieldErrors, field: &str, value: &str, max_chars: usize) {
    if let Some(message) = text_error(value, max_chars) {
        errors.add(field, message);
    }
}

fn too_deep_message() -> String {
    format!("Nest lists and objects at most {MAX_INPUT_DEPTH} levels deep.")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::rpc::ErrorCode;

    fn fields(procedure: &str, input: Value) -> Vec<(String, Vec<String>)> {
        let err = check_input(procedure, &input).expect_err("refused");
        assert_eq!(err.code, ErrorCode::BadRequest);
        let fields = err.fields.expect("field errors");
        let mut all = fields.field_errors;
        if !fields.form_errors.is_empty() {
            all.push((String::new(), fields.form_errors));
        }
        all
    }

    #[test]
    fn ordinary_inputs_pass() {
        for input in [
            json!(null),
            json!({"forename": "Ada", "classIds": ["a", "b"], "n": 3, "ok": true}),
            json!({"body": "x".repeat(MAX_TEXT_CHARS)}),
            json!({"students": vec!["id"; MAX_LIST_ITEMS]}),
        ] {
            assert_eq!(check_input("admin.savePupil", &input), Ok(()));
        }
    }

    #[test]
    fn a_nul_anywhere_is_refused_with_its_path() {
        assert_eq!(
            fields("admin.savePupil", json!({"forename": "A\u{0}da"})),
            vec![("forename".to_owned(), vec![NUL_MESSAGE.to_owned()])]
        );
        assert_eq!(
            fields(
                "notification.create",
                json!({"filters": {"students": ["ok", "b\u{0}"]}})
            ),
            vec![(
                "filters.students[1]".to_owned(),
                vec![NUL_MESSAGE.to_owned()]
            )]
        );
        // A bare string input has no field: the message is a form error.
        assert_eq!(
            fields("x.y", json!("\u{0}")),
            vec![(String::new(), vec![NUL_MESSAGE.to_owned()])]
        );
        // A field name with a NUL is refused too.
        assert_eq!(fields("x.y", json!({"a\u{0}": 1})).len(), 1);
    }

    #[test]
    fn long_strings_and_big_lists_are_refused() {
        let long = "é".repeat(MAX_TEXT_CHARS + 1);
        assert_eq!(
            fields("admin.savePupil", json!({"surname": long})),
            vec![(
                "surname".to_owned(),
                vec![format!("Use at most {MAX_TEXT_CHARS} characters.")]
            )]
        );
        let ids: Vec<String> = (0..40_000).map(|i| format!("id{i}")).collect();
        assert_eq!(
            fields("notification.create", json!({"filters": {"classes": ids}})),
            vec![(
                "filters.classes".to_owned(),
                vec![format!("Use at most {MAX_LIST_ITEMS} items.")]
            )]
        );
    }

    #[test]
    fn deep_nesting_is_refused() {
        let mut value = json!("leaf");
        for _ in 0..(MAX_INPUT_DEPTH + 5) {
            value = json!([value]);
        }
        let found = fields("x.y", json!({ "a": value }));
        assert_eq!(found.len(), 1);
        assert!(found[0].1[0].contains("levels deep"), "{found:?}");
        let mut ok = json!(1);
        for _ in 0..(MAX_INPUT_DEPTH - 1) {
            ok = json!({ "k": ok });
        }
        assert_eq!(check_input("x.y", &ok), Ok(()));
    }

    #[test]
    fn only_the_listed_fields_may_carry_long_text_and_never_a_nul() {
        let photo = "A".repeat(MAX_TEXT_CHARS * 3);
        let input = json!({"images": [photo.clone()], "prompt": ""});
        assert_eq!(check_input("notification.analyseImage", &input), Ok(()));
        assert!(check_input("notification.analyseImage", &json!({"prompt": photo})).is_err());
        assert!(check_input("admin.savePupil", &json!({"images": [photo]})).is_err());
        assert!(check_input("notification.analyseImage", &json!({"images": ["A\u{0}"]})).is_err());
    }

    #[test]
    fn many_problems_report_a_bounded_few() {
        let input = json!({"students": vec!["\u{0}"; 5_000]});
        let err = check_input("x.y", &input).expect_err("refused");
        let fields = err.fields.expect("fields");
        assert_eq!(fields.field_errors.len(), MAX_REPORTED);
    }
}
