//! Prepared statements kept by their SQL text.
//!
//! diesel keeps a prepared statement per query type, and prepares anew, at
//! every execution, a statement whose text can vary with its values: an
//! upsert's `DO UPDATE`, an `UPDATE`, a batch insert of a `Vec`. On SQLite
//! that means parsing and compiling the statement, and every trigger it
//! fires, each time. [`execute`] runs such a statement as its SQL text and
//! collected binds (diesel's `CollectedQuery`, marked safe to cache), so the
//! connection keeps it prepared under that text and the bind types, which is
//! exactly what makes one such statement differ from another: every text is
//! prepared once per connection. Use it only where the number of distinct
//! texts is small (never for an `IN` list of any length).
//!
//! A wrapper that only overrides `is_safe_to_cache_prepared` does not work:
//! diesel asks the question of a reference to the query, and the reference's
//! impl walks the inner statement, which says it is unsafe. That wrapper was
//! here before; a profile under load showed the rollups' upserts prepared at
//! every hand in spite of it (issue 17).
//!
//! `CollectedQuery`, `to_sql` and `collect_binds` are part of diesel's
//! interface for backend implementers; the crate opts in to it in
//! `Cargo.toml`.

use diesel::connection::Connection;
use diesel::pg::Pg;
use diesel::query_builder::{CollectedQuery, MoveableBindCollector, QueryBuilder, QueryFragment};
use diesel::sqlite::Sqlite;
use diesel::QueryResult;

use super::DbConnection;

/// Executes `query`, kept prepared under its SQL text (see the module).
pub fn execute<Q>(conn: &mut DbConnection, query: Q) -> QueryResult<usize>
where
    Q: QueryFragment<Sqlite> + QueryFragment<Pg>,
{
    match conn {
        DbConnection::Sqlite(c) => {
            let mut sql = <Sqlite as diesel::backend::Backend>::QueryBuilder::default();
            QueryFragment::<Sqlite>::to_sql(&query, &mut sql, &Sqlite)?;
            let mut binds = <Sqlite as diesel::backend::Backend>::BindCollector::default();
            QueryFragment::<Sqlite>::collect_binds(&query, &mut binds, &mut (), &Sqlite)?;
            let collected = CollectedQuery::new(sql.finish(), true, binds.moveable());
            c.execute_returning_count(&collected)
        }
        DbConnection::Pg(c) => {
            let mut sql = <Pg as diesel::backend::Backend>::QueryBuilder::default();
            QueryFragment::<Pg>::to_sql(&query, &mut sql, &Pg)?;
            let mut binds = diesel::query_builder::bind_collector::RawBytesBindCollector::<Pg>::new();
            QueryFragment::<Pg>::collect_binds(&query, &mut binds, c, &Pg)?;
            let collected = CollectedQuery::new(sql.finish(), true, binds.moveable());
            c.execute_returning_count(&collected)
        }
    }
}
