//! `src/db/schema.rs` (written by `diesel print-schema`, see diesel.toml)
//! against both databases as the migrations leave them: every table, every
//! column in order, its type and whether it may be NULL.

use diesel::prelude::*;
use diesel::sql_types::{Integer, Text};

use crate::support::{backends, fresh_database};

/// (table, [(column, type, nullable)]) as schema.rs declares them.
type Declared = Vec<(String, Vec<(String, String, bool)>)>;

/// Reads the `diesel::table!` blocks of schema.rs.
fn declared() -> Declared {
    let text = include_str!("../../src/db/schema.rs");
    let mut tables = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim() != "diesel::table! {" {
            continue;
        }
        // A table that uses a type of the schema's own (`sql_types`) imports it first.
        let head =
            lines.by_ref().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("use ")).expect("a table name");
        let name = head.split_whitespace().next().expect("a table name").to_string();
        let mut columns = Vec::new();
        for line in lines.by_ref() {
            let line = line.trim();
            if line == "}" {
                break;
            }
            if let Some((column, ty)) = line.trim_end_matches(',').split_once(" -> ") {
                let (ty, nullable) = match ty.strip_prefix("Nullable<").and_then(|t| t.strip_suffix('>')) {
                    Some(inner) => (inner, true),
                    None => (ty, false),
                };
                columns.push((column.trim().to_string(), normalise(ty), nullable));
            }
        }
        tables.push((name, columns));
    }
    tables.sort();
    tables
}

/// One name per SQL type (`Int8` is diesel's other name for `BigInt`).
fn normalise(ty: &str) -> String {
    match ty {
        "Int8" | "BigInt" | "bigint" | "BIGINT" => "BigInt",
        "Int4" | "Integer" | "integer" | "INTEGER" => "Integer",
        "Text" | "text" | "TEXT" => "Text",
        "Bool" | "boolean" | "BOOLEAN" => "Bool",
        "Timestamp" | "timestamp without time zone" | "TIMESTAMP" => "Timestamp",
        "Bytea" | "Binary" | "bytea" | "BLOB" => "Binary",
        // A type of the schema's own: PostgreSQL names it, SQLite stores it
        // as text (its `sqlite_type`), which the test accounts for.
        "LedgerEntryKind" | "ledger_entry_kind" => "LedgerEntryKind",
        other => other,
    }
    .to_string()
}

#[derive(QueryableByName)]
struct PgColumn {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    data_type: String,
    #[diesel(sql_type = Text)]
    is_nullable: String,
}

#[derive(QueryableByName)]
struct SqliteTable {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName)]
struct SqliteColumn {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    #[diesel(column_name = "type")]
    ty: String,
    #[diesel(sql_type = Integer)]
    notnull: i32,
    #[diesel(sql_type = Integer)]
    pk: i32,
}

/// The tables and columns a migrated database has.
fn actual(backend: &str, url: &str) -> Declared {
    let mut tables: Declared = Vec::new();
    if backend == "postgres" {
        let mut c = diesel::pg::PgConnection::establish(url).unwrap();
        let rows: Vec<PgColumn> = diesel::sql_query(
            "SELECT table_name::text AS table_name, column_name::text AS column_name, data_type::text AS data_type, \
             is_nullable::text AS is_nullable FROM (SELECT table_name, column_name, ordinal_position, is_nullable, \
             CASE WHEN data_type = 'USER-DEFINED' THEN udt_name ELSE data_type END AS data_type, table_schema \
             FROM information_schema.columns) AS columns WHERE table_schema = 'public' \
             AND table_name <> '__diesel_schema_migrations' ORDER BY table_name, ordinal_position",
        )
        .load(&mut c)
        .unwrap();
        for r in rows {
            if tables.last().is_none_or(|t| t.0 != r.table_name) {
                tables.push((r.table_name.clone(), Vec::new()));
            }
            tables.last_mut().unwrap().1.push((r.column_name, normalise(&r.data_type), r.is_nullable == "YES"));
        }
    } else {
        use diesel::connection::SimpleConnection;
        let mut c = diesel::sqlite::SqliteConnection::establish(url).unwrap();
        c.batch_execute("PRAGMA busy_timeout = 15000").unwrap();
        let names: Vec<SqliteTable> = diesel::sql_query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             AND name <> '__diesel_schema_migrations' ORDER BY name",
        )
        .load(&mut c)
        .unwrap();
        for t in names {
            let columns: Vec<SqliteColumn> = diesel::sql_query(format!(
                "SELECT name, type, \"notnull\", pk FROM pragma_table_info('{}') ORDER BY cid",
                t.name
            ))
            .load(&mut c)
            .unwrap();
            let single_key = columns.iter().filter(|c| c.pk > 0).count() == 1;
            let columns = columns
                .into_iter()
                .map(|col| {
                    // A lone INTEGER PRIMARY KEY is the 64-bit rowid, never NULL.
                    let rowid = single_key && col.pk > 0 && col.ty.eq_ignore_ascii_case("INTEGER");
                    let ty = if rowid { "BIGINT" } else { &col.ty };
                    (col.name, normalise(ty), col.notnull == 0 && col.pk == 0)
                })
                .collect();
            tables.push((t.name, columns));
        }
    }
    tables.sort();
    tables
}

#[test]
fn schema_rs_matches_both_databases() {
    let declared = declared();
    assert!(declared.len() >= 17, "schema.rs declares its tables: {declared:?}");
    for backend in backends() {
        let db = fresh_database(backend);
        let _migrated = pitboss::db::connect(&db.database_url, 2).expect("migrate");
        let actual = actual(backend, &db.database_url);
        // SQLite has no types of its own: the schema's are text there.
        let declared: Declared = declared
            .iter()
            .map(|(table, columns)| {
                let columns = columns
                    .iter()
                    .map(|(c, ty, null)| {
                        let ty = if backend == "sqlite" && ty == "LedgerEntryKind" {
                            "Text".to_string()
                        } else {
                            ty.clone()
                        };
                        (c.clone(), ty, *null)
                    })
                    .collect();
                (table.clone(), columns)
            })
            .collect();
        let names = |t: &Declared| t.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(&declared), names(&actual), "{backend}: the tables");
        for ((table, want), (_, got)) in declared.iter().zip(&actual) {
            assert_eq!(want, got, "{backend}: the columns of {table} (name, type, nullable), in order");
        }
    }
}
