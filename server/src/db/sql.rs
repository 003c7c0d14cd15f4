//! The few SQL pieces that differ per backend or that every model needs, written once:
//! `lower()`, `coalesce()`, `string_agg()`, the LIKE-pattern escaper, the row comparison of
//! a paged list's cursor ([`row_lt`], [`row_gt`]), and batch insert / upsert
//! ([`batch_insert!`], [`batch_upsert!`]) that expand per backend the way
//! [`with_conn!`](crate::with_conn) does.

use diesel::backend::Backend;
use diesel::expression::{
    AppearsOnTable, AsExpression, Expression, SelectableExpression, TypedExpressionType,
    ValidGrouping,
};
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::sql_types::SqlType;

diesel::define_sql_function!(
    /// SQL `lower()`, for `Text` and `Nullable<Text>` alike: ASCII case folding on SQLite,
    /// full Unicode on PostgreSQL. Used for case-insensitive search and name matching.
    fn lower<ST: diesel::sql_types::SingleValue>(x: ST) -> ST
);

diesel::define_sql_function!(
    /// SQL `coalesce(x, y)` for text: `x`, or `y` where `x` is NULL.
    fn coalesce(
        x: diesel::sql_types::Nullable<diesel::sql_types::Text>,
        y: diesel::sql_types::Text,
    ) -> diesel::sql_types::Text
);

diesel::define_sql_function!(
    /// The aggregate `string_agg(text, delimiter)` (PostgreSQL, and SQLite since 3.44): the
    /// group's texts joined by `delimiter` in no set order; NULL for no rows.
    #[aggregate]
    fn string_agg(
        expr: diesel::sql_types::Text,
        delimiter: diesel::sql_types::Text,
    ) -> diesel::sql_types::Nullable<diesel::sql_types::Text>
);

/// A row value `(a, b, ..)`: a tuple of expressions in parentheses, one side of a
/// [`row_lt`] or [`row_gt`].
#[derive(Debug, Clone, Copy, QueryId, ValidGrouping)]
pub struct Row<T>(T);

impl<T: Expression> Expression for Row<T> {
    type SqlType = T::SqlType;
}

impl<T: QueryFragment<DB>, DB: Backend> QueryFragment<DB> for Row<T> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        out.push_sql("(");
        self.0.walk_ast(out.reborrow())?;
        out.push_sql(")");
        Ok(())
    }
}

impl<T: AppearsOnTable<QS>, QS> AppearsOnTable<QS> for Row<T> where Row<T>: Expression {}

impl<T: SelectableExpression<QS>, QS> SelectableExpression<QS> for Row<T> where
    Row<T>: AppearsOnTable<QS>
{
}

diesel::infix_operator!(RowLess, " < ");
diesel::infix_operator!(RowGreater, " > ");

/// The values of a cursor's key bound as parameters of the SQL types `ST` of the columns
/// they are compared with: `(NaiveDateTime, String)` with `(Timestamp, Text)`, and so on.
pub trait AsRow<ST> {
    /// The tuple of bound values.
    type Expression;
    /// Binds each value.
    fn as_row(self) -> Self::Expression;
}

macro_rules! as_row {
    ($($value:ident $sql_type:ident $index:tt),+) => {
        impl<$($value,)+ $($sql_type,)+> AsRow<($($sql_type,)+)> for ($($value,)+)
        where
            $($value: AsExpression<$sql_type>, $sql_type: SqlType + TypedExpressionType,)+
        {
            type Expression = ($(<$value as AsExpression<$sql_type>>::Expression,)+);
            fn as_row(self) -> Self::Expression {
                ($(self.$index.as_expression(),)+)
            }
        }
    };
}

as_row!(A SA 0, B SB 1);
as_row!(A SA 0, B SB 1, C SC 2);

/// `(columns) < (key)`: the rows before `key` in the order of `columns` (each ascending), for
/// the page after a cursor of a list in that order descending (docs/scaling.md "Paged
/// lists"). A row comparison rather than the same filter spelt `a < x OR (a = x AND b < y)`:
/// both planners take it as one range bound on an index on `(.., columns)` (PostgreSQL an
/// Index Cond, SQLite `SEARCH .. ((a,b)<(?,?))`), where PostgreSQL reads the OR form as a
/// filter over every index entry from the list's first row to the cursor. Each column
/// compares as it sorts (its collation, as in the list's ORDER BY), and a NULL as unknown,
/// as in the OR form. PostgreSQL has row values, SQLite since 3.15 (bundled: 3.50).
pub fn row_lt<C, K>(columns: C, key: K) -> RowLess<Row<C>, Row<K::Expression>>
where
    C: Expression,
    K: AsRow<C::SqlType>,
{
    RowLess::new(Row(columns), Row(key.as_row()))
}

/// `(columns) > (key)`: the rows after `key` in the order of `columns` (each ascending), for
/// the page after a cursor of a list in that order. See [`row_lt`].
pub fn row_gt<C, K>(columns: C, key: K) -> RowGreater<Row<C>, Row<K::Expression>>
where
    C: Expression,
    K: AsRow<C::SqlType>,
{
    RowGreater::new(Row(columns), Row(key.as_row()))
}

/// `%text%` for a case-insensitive LIKE (compare it with `lower(column)` and
/// `.escape('\\')`): trimmed, lower-cased, with LIKE's own wildcards taken literally.
pub fn like_pattern(text: &str) -> String {
    format!("%{}%", like_escaped(&text.trim().to_lowercase()))
}

/// `text` with LIKE's own wildcards (and the escape character) escaped by a backslash, nothing
/// else changed: for a pattern that must keep its case as given.
pub fn like_escaped(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            other => vec![other],
        })
        .collect()
}

/// The most bind parameters one statement carries. SQLite refuses a statement with more
/// than `SQLITE_MAX_VARIABLE_NUMBER` (32766 in the bundled SQLite since 3.32); PostgreSQL's
/// wire protocol allows 65535. The lower of the two is the one rule for both backends, so
/// a batch that fits one fits the other.
pub const MAX_BIND_PARAMS: usize = 32_766;

/// How many rows of `columns` values each fit in one INSERT under [`MAX_BIND_PARAMS`].
pub const fn rows_per_statement(columns: usize) -> usize {
    let per = MAX_BIND_PARAMS / if columns == 0 { 1 } else { columns };
    if per == 0 {
        1
    } else {
        per
    }
}

/// Inserts every row of `$rows` (a `Vec` of `Insertable` values of `$table`, each with
/// `columns = $n` values) in statements of at most [`rows_per_statement`]`($n)` rows, and
/// evaluates to `QueryResult<usize>`: how many rows were written. The optional
/// `|q| q.on_conflict_do_nothing()` shapes each statement. Run it inside a transaction when
/// the batch must land whole.
///
/// PostgreSQL sends each chunk as one multi-row INSERT. On SQLite diesel_async cannot build
/// a batch statement (`data-layer.md`), so the chunks run on the wrapped synchronous
/// connection in one blocking task, row by row: no network round trips, so this is as fast.
#[macro_export]
macro_rules! batch_insert {
    ($conn:expr, $table:expr, $rows:expr, columns = $columns:expr) => {
        $crate::batch_insert!($conn, $table, $rows, columns = $columns, |q| q)
    };
    ($conn:expr, $table:expr, $rows:expr, columns = $columns:expr, |$q:ident| $shape:expr) => {{
        let rows = $rows;
        let per_statement = $crate::db::rows_per_statement($columns);
        match $conn {
            $crate::db::DbConn::Postgres(ref mut pg) => {
                let pg: &mut ::diesel_async::AsyncPgConnection = &mut **pg;
                let mut outcome: ::diesel::result::QueryResult<usize> = Ok(0);
                for chunk in rows.chunks(per_statement) {
                    let $q = ::diesel::insert_into($table).values(chunk);
                    match ::diesel_async::RunQueryDsl::execute($shape, &mut *pg).await {
                        Ok(n) => outcome = outcome.map(|written| written + n),
                        Err(err) => {
                            outcome = Err(err);
                            break;
                        }
                    }
                }
                outcome
            }
            $crate::db::DbConn::Sqlite(ref mut sq) => {
                let sq: &mut $crate::db::SqliteConn = &mut **sq;
                sq.spawn_blocking(move |c| {
                    let mut written = 0usize;
                    for chunk in rows.chunks(per_statement) {
                        for row in chunk {
                            let $q = ::diesel::insert_into($table).values(row);
                            written += ::diesel::RunQueryDsl::execute($shape, c)?;
                        }
                    }
                    Ok(written)
                })
                .await
            }
        }
    }};
}

/// Inserts every row of `$rows` like [`batch_insert!`], and where a row with the same
/// `$target` (a column or a tuple of columns) exists, overwrites its `$column`s with the
/// new values (`ON CONFLICT (..) DO UPDATE SET c = excluded.c`). For the MIS sync: a
/// record seen again is updated, never duplicated. Evaluates to `QueryResult<usize>`.
#[macro_export]
macro_rules! batch_upsert {
    ($conn:expr, $table:expr, $rows:expr, columns = $columns:expr, on = $target:expr, set = ($($column:expr),+ $(,)?)) => {
        $crate::batch_insert!($conn, $table, $rows, columns = $columns, |q| q
            .on_conflict($target)
            .do_update()
            .set(($(::diesel::ExpressionMethods::eq($column, ::diesel::upsert::excluded($column)),)+)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_patterns_take_wildcards_literally() {
        assert_eq!(like_pattern("  Ada "), "%ada%");
        assert_eq!(like_pattern("50%_a\\b"), "%50\\%\\_a\\\\b%");
    }

    #[test]
    fn a_cursor_is_one_row_comparison_on_both_backends() {
        use crate::db::schema::{notifications, users};
        use diesel::pg::Pg;
        use diesel::prelude::*;
        use diesel::sqlite::Sqlite;
        let at = chrono::NaiveDate::from_ymd_opt(2026, 12, 3)
            .unwrap()
            .and_hms_micro_opt(9, 0, 0, 1)
            .unwrap();
        let page = notifications::table
            .filter(row_lt((notifications::created_at, notifications::id), (at, "n-1".to_owned())))
            .select(notifications::id);
        let sql = diesel::debug_query::<Pg, _>(&page).to_string();
        assert!(
            sql.contains(r#"WHERE ("notifications"."created_at", "notifications"."id") < ($1, $2) "#),
            "{sql}"
        );
        let names = users::table
            .filter(row_gt(
                (users::surname, users::forename, users::id),
                ("O'Neil".to_owned(), "Zoë".to_owned(), "u-1".to_owned()),
            ))
            .select(users::id);
        let sql = diesel::debug_query::<Sqlite, _>(&names).to_string();
        assert!(
            sql.contains(r#"WHERE (`users`.`surname`, `users`.`forename`, `users`.`id`) > (?, ?, ?) "#),
            "{sql}"
        );
    }

    #[test]
    fn statements_stay_under_the_bind_limit() {
        assert_eq!(rows_per_statement(8), 4095);
        assert!(rows_per_statement(8) * 8 <= MAX_BIND_PARAMS);
        assert_eq!(rows_per_statement(0), MAX_BIND_PARAMS);
        assert_eq!(rows_per_statement(40_000), 1);
    }
}
