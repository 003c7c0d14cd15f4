//! Stable cursors for lists that grow (issue 30, docs/scaling.md "Paged lists"): a page ends
//! with the sort key of its last row, and the next page starts strictly after it (keyset
//! paging), so rows added or removed meanwhile never repeat or skip a row the way an offset
//! would. The key travels as an opaque token: base64url of its parts as a JSON array.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chrono::NaiveDateTime;

use crate::models::{NameKey, TimeKey};
use crate::rpc::{FieldErrors, RpcError, RpcResult};

/// What the user reads when a token cannot be read (edited by hand, or from an older page).
pub const BAD_CURSOR: &str = "This list has changed. Reload the page to see it from the start.";

/// The token of a sort key.
pub fn encode(parts: &[&str]) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(parts).expect("strings serialise"))
}

/// The `N` parts of token `token` of input field `field`, or BAD_REQUEST on that field.
pub fn decode<const N: usize>(field: &str, token: &str) -> RpcResult<[String; N]> {
    let parts = URL_SAFE_NO_PAD
        .decode(token)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Vec<String>>(&bytes).ok())
        .and_then(|parts| <[String; N]>::try_from(parts).ok());
    match parts {
        Some(parts) => Ok(parts),
        None => Err(refused(field)),
    }
}

/// The place after which a page by name starts, from input field `field` (none or empty:
/// the first page).
pub fn name_key(field: &str, token: Option<&str>) -> RpcResult<Option<NameKey>> {
    match token.filter(|t| !t.is_empty()) {
        Some(token) => {
            let [surname, forename, id] = decode(field, token)?;
            Ok(Some(NameKey { surname, forename, id }))
        }
        None => Ok(None),
    }
}

/// The token of a place in an order by name.
pub fn of_name(key: &NameKey) -> String {
    encode(&[&key.surname, &key.forename, &key.id])
}

/// A time in a token, to the nanosecond (both databases keep microseconds).
const TIME: &str = "%Y-%m-%dT%H:%M:%S%.f";

/// The place after which a page newest first starts, from input field `field` (none or
/// empty: the first page).
pub fn time_key(field: &str, token: Option<&str>) -> RpcResult<Option<TimeKey>> {
    match token.filter(|t| !t.is_empty()) {
        Some(token) => {
            let [at, id] = decode(field, token)?;
            let at = NaiveDateTime::parse_from_str(&at, TIME).map_err(|_| refused(field))?;
            Ok(Some(TimeKey { at, id }))
        }
        None => Ok(None),
    }
}

/// The token of a place in an order by time (newest first).
pub fn of_time(at: NaiveDateTime, id: &str) -> String {
    encode(&[&at.format(TIME).to_string(), id])
}

/// BAD_REQUEST on `field` with [`BAD_CURSOR`]: for a token whose parts do not read either.
pub fn refused(field: &str) -> RpcError {
    let mut fields = FieldErrors::default();
    fields.add(field, BAD_CURSOR);
    fields.into_result().expect_err("an error was added")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_gives_back_its_parts_and_nothing_else_passes() {
        let token = encode(&["O'Neil", "Zoë", "id-1"]);
        assert_eq!(decode::<3>("cursor", &token).unwrap(), ["O'Neil", "Zoë", "id-1"].map(String::from));
        assert!(token.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        for bad in ["", "not base64!", &encode(&["a", "b"]), &URL_SAFE_NO_PAD.encode(b"{}")] {
            let error = decode::<3>("cursor", bad).unwrap_err();
            assert_eq!(error.message, BAD_CURSOR, "{bad}");
        }
    }

    #[test]
    fn a_time_key_round_trips_to_the_microsecond_and_a_bad_time_is_refused() {
        let at = chrono::NaiveDate::from_ymd_opt(2026, 11, 28)
            .unwrap()
            .and_hms_micro_opt(9, 5, 7, 123_456)
            .unwrap();
        let key = time_key("cursor", Some(&of_time(at, "id-9"))).unwrap().unwrap();
        assert_eq!(key, TimeKey { at, id: "id-9".into() });
        assert_eq!(time_key("cursor", None).unwrap(), None);
        assert_eq!(time_key("cursor", Some("")).unwrap(), None);
        let error = time_key("cursor", Some(&encode(&["yesterday", "id-9"]))).unwrap_err();
        assert_eq!(error.message, BAD_CURSOR);
    }
}
