//! Both migration sets build the same schema, and it is the one `schema.rs` declares.

use std::collections::BTreeMap;

use diesel::sql_types::{Bool, Text};
use diesel::QueryableByName;
use diesel_async::RunQueryDsl;
use voicemark::db::Backend;
use voicemark::with_conn;

use crate::dual_test;
use crate::support::TestApp;

/// table -> ordered (column, not null)
type Columns = BTreeMap<String, Vec<(String, bool)>>;

#[derive(QueryableByName)]
struct ColumnRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Bool)]
    not_null: bool,
}

/// Reads `schema.rs` as text: each `table!`'s name and its columns in order, using the
/// `#[sql_name]` where one is given; a column is nullable when its type is `Nullable<..>`.
fn declared_schema() -> Columns {
    let source = include_str!("../../src/db/schema.rs");
    let mut tables = Columns::new();
    let mut current: Option<String> = None;
    let mut sql_name: Option<String> = None;
    for line in source.lines().map(str::trim) {
        if line.starts_with("diesel::table!") {
            current = None;
            continue;
        }
        if current.is_none() && line.ends_with('{') && line.contains('(') {
            let name = line
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned();
            tables.insert(name.clone(), Vec::new());
            current = Some(name);
            continue;
        }
        if let Some(rest) = line.strip_prefix("#[sql_name = \"") {
            sql_name = rest.split('"').next().map(str::to_owned);
            continue;
        }
        if let (Some(table), Some((column, ty))) = (&current, line.split_once(" -> ")) {
            let name = sql_name.take().unwrap_or_else(|| column.trim().to_owned());
            let nullable = ty.trim().starts_with("Nullable<");
            tables
                .get_mut(table)
                .expect("table")
                .push((name, !nullable));
        }
        if line == "}" {
            current = None; // the column list is closed
        }
    }
    tables.retain(|_, columns| !columns.is_empty());
    tables
}

async fn migrated_schema(app: &TestApp) -> Columns {
    let query = match app.backend() {
        Backend::Postgres => {
            "SELECT table_name::text AS table_name, column_name::text AS column_name, \
             (is_nullable = 'NO') AS not_null FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name <> '__diesel_schema_migrations' \
             ORDER BY table_name, ordinal_position"
        }
        Backend::Sqlite => {
            "SELECT m.name AS table_name, p.name AS column_name, p.\"notnull\" AS not_null \
             FROM sqlite_master m JOIN pragma_table_info(m.name) p \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' \
             AND m.name <> '__diesel_schema_migrations' ORDER BY m.name, p.cid"
        }
    };
    let mut pooled = app.db.conn().await.expect("connection");
    let rows: Vec<ColumnRow> = with_conn!(pooled.db(), |c| diesel::sql_query(query).load(c).await)
        .expect("read the catalogue");
    let mut tables = Columns::new();
    for row in rows {
        tables
            .entry(row.table_name)
            .or_default()
            .push((row.column_name, row.not_null));
    }
    tables
}

#[test]
fn schema_rs_declares_every_entity_of_the_spec() {
    let declared = declared_schema();
    for table in [
        "users",
        "schools",
        "trusts",
        "classes",
        "year_groups",
        "form_groups",
        "students",
        "student_comments",
        "notifications",
        "notification_receipts",
        "submissions",
        "accounts",
        "email_preferences",
        "assistant_queries",
        "tasks",
        "questions",
        "question_responses",
        "task_submissions",
        "resource_transcripts",
        "class_students",
        "class_staff",
        "organisation_memberships",
        "sessions",
        "verification_tokens",
        "stored_files",
        "voice_notes",
        "jobs",
        "audit_log",
    ] {
        assert!(declared.contains_key(table), "schema.rs lacks {table}");
    }
    let users: Vec<&str> = declared["users"].iter().map(|(c, _)| c.as_str()).collect();
    for field in [
        "groupcall_id",
        "wonde_id",
        "email_verified",
        "staff_code",
        "password_updated_at",
        "send_all_cohorts",
        "has_completed_tutorial",
        "last_active",
        "leader",
        "disabled",
        "role",
    ] {
        assert!(users.contains(&field), "users lacks {field}");
    }
}

dual_test!(
    async fn migrations_build_exactly_the_declared_schema(app: TestApp) {
        let declared = declared_schema();
        let migrated = migrated_schema(&app).await;
        let declared_tables: Vec<&String> = declared.keys().collect();
        let migrated_tables: Vec<&String> = migrated.keys().collect();
        assert_eq!(
            migrated_tables,
            declared_tables,
            "tables differ on {:?}",
            app.backend()
        );
        for (table, columns) in &declared {
            assert_eq!(
                &migrated[table],
                columns,
                "columns of {table} differ on {:?}",
                app.backend()
            );
        }
    }
);

dual_test!(
    async fn enumerations_are_checked_by_the_database(app: TestApp) {
        let mut pooled = app.db.conn().await.expect("connection");
        let insert = "INSERT INTO users (id, created_at, updated_at, forename, surname, email, role) \
         VALUES ('u1', '2026-01-01 00:00:00', '2026-01-01 00:00:00', 'A', 'B', 'a@b.test', 'teacher')";
        let outcome = with_conn!(pooled.db(), |c| diesel::sql_query(insert).execute(c).await);
        let err = outcome.expect_err("a lowercase role breaks the CHECK constraint");
        assert!(err.to_string().to_lowercase().contains("check"), "{err}");
    }
);

#[test]
fn both_backends_have_the_same_migration_versions() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let versions = |backend: &str| {
        let mut names: Vec<String> = std::fs::read_dir(root.join(backend))
            .expect("migrations folder")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    };
    let postgres = versions("postgres");
    assert!(!postgres.is_empty());
    assert_eq!(postgres, versions("sqlite"));
    for version in &postgres {
        for file in ["up.sql", "down.sql"] {
            for backend in ["postgres", "sqlite"] {
                assert!(
                    root.join(backend).join(version).join(file).exists(),
                    "{backend}/{version}/{file}"
                );
            }
        }
    }
}
