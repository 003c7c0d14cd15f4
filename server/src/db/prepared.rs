//! A statement written as SQL text with `?` placeholders and its values apart, kept
//! prepared per connection by its text like the query builder's statements. diesel's
//! `sql_query` marks every statement unsafe to cache, so each run of one is parsed and
//! planned again: a few milliseconds for each of a school's Insights reads (docs/scaling.md,
//! stop 47). The placeholders are written per backend as the binds are pushed (`$1…` on
//! PostgreSQL, `?` on SQLite).

use chrono::NaiveDateTime;
use diesel::backend::Backend;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::serialize::ToSql;
use diesel::sql_types::{BigInt, HasSqlType, Text, Timestamp, Untyped};

/// A bound value of a statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bind {
    Text(String),
    Time(NaiveDateTime),
    Int(i64),
}

/// SQL text whose `?` (none inside a literal) take `binds` in order; rows are loaded by
/// name (`QueryableByName`), as with `sql_query`.
#[derive(Debug, Clone)]
pub struct Prepared {
    text: String,
    binds: Vec<Bind>,
}

impl Prepared {
    pub fn new(text: String, binds: Vec<Bind>) -> Prepared {
        debug_assert_eq!(text.matches('?').count(), binds.len(), "one value per placeholder: {text}");
        Prepared { text, binds }
    }
}

impl QueryId for Prepared {
    type QueryId = ();
    // Cached by its text and its binds' types, not by a type of its own.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for Prepared {
    type SqlType = Untyped;
}

impl<DB> QueryFragment<DB> for Prepared
where
    DB: Backend + HasSqlType<Text> + HasSqlType<BigInt> + HasSqlType<Timestamp>,
    String: ToSql<Text, DB>,
    i64: ToSql<BigInt, DB>,
    NaiveDateTime: ToSql<Timestamp, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        let mut pieces = self.text.split('?');
        out.push_sql(pieces.next().unwrap_or_default());
        for (piece, bind) in pieces.zip(&self.binds) {
            match bind {
                Bind::Text(value) => out.push_bind_param::<Text, _>(value)?,
                Bind::Time(value) => out.push_bind_param::<Timestamp, _>(value)?,
                Bind::Int(value) => out.push_bind_param::<BigInt, _>(value)?,
            }
            out.push_sql(piece);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Prepared {
        Prepared::new(
            "SELECT 1 WHERE a = ? AND b IN (?, ?) AND c >= ?".into(),
            vec![
                Bind::Text("x".into()),
                Bind::Int(1),
                Bind::Int(2),
                Bind::Time(chrono::DateTime::from_timestamp(0, 0).expect("time").naive_utc()),
            ],
        )
    }

    #[test]
    fn placeholders_are_written_per_backend_and_the_statement_may_be_kept() {
        let pg = diesel::debug_query::<diesel::pg::Pg, _>(&sample()).to_string();
        assert!(pg.starts_with("SELECT 1 WHERE a = $1 AND b IN ($2, $3) AND c >= $4 -- binds: [\"x\", 1, 2, "), "{pg}");
        let lite = diesel::debug_query::<diesel::sqlite::Sqlite, _>(&sample()).to_string();
        assert!(lite.starts_with("SELECT 1 WHERE a = ? AND b IN (?, ?) AND c >= ? -- binds: "), "{lite}");
        // What diesel asks before keeping a statement prepared (`sql_query` answers no).
        let mut statement = sample();
        assert!(QueryFragment::<diesel::pg::Pg>::is_safe_to_cache_prepared(&statement, &diesel::pg::Pg).expect("walks"));
        statement.text = "SELECT ?".into();
        statement.binds.truncate(1);
        assert!(QueryFragment::<diesel::sqlite::Sqlite>::is_safe_to_cache_prepared(&statement, &diesel::sqlite::Sqlite).expect("walks"));
    }
}
