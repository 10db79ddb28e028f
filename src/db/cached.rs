//! Prepared statements kept by their SQL text.
//!
//! diesel keeps a prepared statement per query type, and prepares anew every
//! time a statement whose text can vary with its values: an upsert's `DO
//! UPDATE`, an `UPDATE`, a batch insert of a `Vec`. On SQLite that means
//! parsing and compiling the statement and every trigger it fires at each
//! hand; with the ledger's insert (whose guard is 3.8 kB of SQL) it was about
//! a fifth of the writer thread's time under load (issue 17). [`by_text`]
//! keeps such a statement in the same cache under its full SQL text and bind
//! types, which is exactly what makes it differ from another: every text is
//! prepared once per connection. The day rollups' upserts use it. Use it only
//! where the number of distinct texts is small, never for `IN` lists of any
//! length.
//!
//! A batch insert cannot be wrapped on SQLite (diesel runs it through a
//! wrapper of its own): the ledger's rows of a hand go in as a fixed-size
//! array instead, which diesel keys by type (`ledger::insert_with`).
//!
//! Overriding `is_safe_to_cache_prepared` is part of diesel's interface for
//! backend implementers; the crate opts in to it in `Cargo.toml`.

use diesel::backend::Backend;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::QueryResult;
use diesel::RunQueryDsl;

/// A statement cached under its SQL text (see the module).
#[derive(Debug, Clone, Copy)]
pub struct ByText<Q>(Q);

/// Keeps `query`'s prepared statement under its SQL text.
pub fn by_text<Q>(query: Q) -> ByText<Q> {
    ByText(query)
}

impl<Q> QueryId for ByText<Q> {
    type QueryId = ();
    // No type id: the cache's key is the SQL text and the bind types.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<Q: QueryFragment<DB>, DB: Backend> QueryFragment<DB> for ByText<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q, Conn> RunQueryDsl<Conn> for ByText<Q> {}
