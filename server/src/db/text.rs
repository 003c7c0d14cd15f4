//! [`InlineText`]: a text column read without a heap allocation when it is short (issue 15,
//! the roster's first read). Reading 2,000 pupils as `String`s made 10,000 small allocations
//! per answer, each touching a cold cache line: about a fifth of the server's time. A row id
//! (a 36-byte UUID), a name or a group id fits in the value itself.

use std::fmt;

use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::pg::{Pg, PgValue};
use diesel::sql_types::Text;
use diesel::sqlite::{Sqlite, SqliteValue};
use smallstr::SmallString;

/// Text kept inline up to 40 bytes (a UUID and most names), on the heap beyond.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, FromSqlRow)]
pub struct InlineText(SmallString<[u8; 40]>);

impl Default for InlineText {
    fn default() -> Self {
        InlineText(SmallString::new())
    }
}

impl InlineText {
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl From<&str> for InlineText {
    fn from(text: &str) -> Self {
        InlineText(SmallString::from_str(text))
    }
}

impl std::ops::Deref for InlineText {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Debug for InlineText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for InlineText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for InlineText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for InlineText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for InlineText {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl serde::Serialize for InlineText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl FromSql<Text, Pg> for InlineText {
    fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
        Ok(InlineText::from(std::str::from_utf8(value.as_bytes())?))
    }
}

impl FromSql<Text, Sqlite> for InlineText {
    fn from_sql(mut value: SqliteValue<'_, '_, '_>) -> deserialize::Result<Self> {
        Ok(InlineText::from(value.read_text()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_inline_and_long_text_whole() {
        let id = InlineText::from("0195f3b2-7c1e-7a43-9d2b-5f6e8a9b0c1d");
        assert!(!id.0.spilled(), "a UUID fits");
        assert_eq!(id, "0195f3b2-7c1e-7a43-9d2b-5f6e8a9b0c1d");
        let long = "Ó Briain-Fitzgerald-Montgomery-Smythe the Third";
        let spilled = InlineText::from(long);
        assert!(spilled.0.spilled());
        assert_eq!(spilled.as_str(), long);
        assert_eq!(format!("{spilled}"), long);
        assert_eq!(serde_json::to_string(&InlineText::from("a\"b")).expect("json"), r#""a\"b""#);
        assert!(InlineText::from("Adams") < InlineText::from("adams"), "code point order");
        // The inline buffer, its length and its kind: a roster row holds five.
        assert!(std::mem::size_of::<InlineText>() <= 56, "{}", std::mem::size_of::<InlineText>());
    }
}
