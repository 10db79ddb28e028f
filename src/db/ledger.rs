//! The append-only ledger: every money movement is a row; nothing is updated
//! or deleted (the database refuses it); a correction is a new row that
//! reverses an old one.

use diesel::prelude::*;

use super::schema::ledger_entries;
use super::{now, DbConnection};
use crate::domain::{EntryId, EntryKind, HandId, HitId, Money, PoolId, SeatingId, TableId};

/// A ledger row's kind as stored: its name, in PostgreSQL's enum type
/// `ledger_entry_kind` (bound with that type, so that a kind compares with
/// the column and its partial indexes without a cast), as text on SQLite.
mod stored_kind {
    use std::io::Write;

    use diesel::deserialize::{self, FromSql};
    use diesel::pg::{Pg, PgValue};
    use diesel::serialize::{self, IsNull, Output, ToSql};
    use diesel::sql_types::{HasSqlType, Text};
    use diesel::sqlite::{Sqlite, SqliteValue};

    use crate::db::schema::sql_types::LedgerEntryKind;
    use crate::db::MultiBackend;
    use crate::domain::EntryKind;

    fn parse(text: &str) -> deserialize::Result<EntryKind> {
        EntryKind::parse(text).ok_or_else(|| format!("unknown ledger kind {text:?}").into())
    }

    impl ToSql<LedgerEntryKind, Pg> for EntryKind {
        fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
            // An enum's binary form is its label.
            out.write_all(self.name().as_bytes())?;
            Ok(IsNull::No)
        }
    }

    impl FromSql<LedgerEntryKind, Pg> for EntryKind {
        fn from_sql(value: PgValue<'_>) -> deserialize::Result<Self> {
            parse(std::str::from_utf8(value.as_bytes())?)
        }
    }

    impl ToSql<LedgerEntryKind, Sqlite> for EntryKind {
        fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
            <str as ToSql<Text, Sqlite>>::to_sql(self.name(), out)
        }
    }

    impl FromSql<LedgerEntryKind, Sqlite> for EntryKind {
        fn from_sql(value: SqliteValue<'_, '_, '_>) -> deserialize::Result<Self> {
            parse(&<String as FromSql<Text, Sqlite>>::from_sql(value)?)
        }
    }

    impl HasSqlType<LedgerEntryKind> for MultiBackend {
        fn metadata(lookup: &mut Self::MetadataLookup) -> Self::TypeMetadata {
            MultiBackend::lookup_sql_type::<LedgerEntryKind>(lookup)
        }
    }

    impl ToSql<LedgerEntryKind, MultiBackend> for EntryKind {
        fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, MultiBackend>) -> serialize::Result {
            out.set_value((LedgerEntryKind, self));
            Ok(IsNull::No)
        }
    }

    impl FromSql<LedgerEntryKind, MultiBackend> for EntryKind {
        fn from_sql(value: <MultiBackend as diesel::backend::Backend>::RawValue<'_>) -> deserialize::Result<Self> {
            value.from_sql::<Self, LedgerEntryKind>()
        }
    }
}

/// A new ledger row.
#[derive(Clone, Debug, Insertable)]
#[diesel(table_name = ledger_entries)]
pub struct NewEntry<'a> {
    pub table_id: Option<TableId>,
    pub hand_id: Option<HandId>,
    pub seating_id: Option<SeatingId>,
    pub pool_id: Option<PoolId>,
    pub jackpot_hit_id: Option<HitId>,
    pub kind: EntryKind,
    pub amount_cents: Money,
    pub reverses_id: Option<EntryId>,
    pub reason: Option<&'a str>,
    pub created_at: chrono::NaiveDateTime,
    /// For a seat row, the seating's stack after it (set by `insert`).
    pub balance_after_cents: Option<Money>,
    /// For a hand result, the rake in its amount (a reversal of one: the
    /// negative).
    pub rake_cents: Option<Money>,
}

impl<'a> NewEntry<'a> {
    pub fn new(kind: EntryKind, amount: Money) -> NewEntry<'a> {
        NewEntry {
            table_id: None,
            hand_id: None,
            seating_id: None,
            pool_id: None,
            jackpot_hit_id: None,
            kind,
            amount_cents: amount,
            reverses_id: None,
            reason: None,
            created_at: now(),
            balance_after_cents: None,
            rake_cents: None,
        }
    }
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = ledger_entries)]
pub struct Entry {
    pub id: EntryId,
    pub table_id: Option<TableId>,
    pub hand_id: Option<HandId>,
    pub seating_id: Option<SeatingId>,
    pub pool_id: Option<PoolId>,
    pub jackpot_hit_id: Option<HitId>,
    pub kind: EntryKind,
    pub amount_cents: Money,
    pub reverses_id: Option<EntryId>,
    pub reason: Option<String>,
    pub created_at: chrono::NaiveDateTime,
    pub balance_after_cents: Option<Money>,
    pub rake_cents: Option<Money>,
}

/// The rake a row takes from its seat, counted as the kind `counts_as` (a
/// reversal: the kind of the row it reverses, giving the rake back): an old
/// `rake` row's negative amount, a hand result's `rake_cents`; none else.
pub fn rake_taken(counts_as: EntryKind, amount: Money, rake_cents: Option<Money>) -> Money {
    match counts_as {
        EntryKind::Rake => -amount,
        EntryKind::HandResult => rake_cents.unwrap_or_default(),
        _ => Money::ZERO,
    }
}

/// Appends rows in one statement. Seat rows get their running stack, from
/// `known` stacks where the caller has them, else from the seating's stack
/// now (`seating_stacks`); the caller holds the table's write lock, so a
/// seating's rows are appended in order.
pub fn insert_with(conn: &mut DbConnection, entries: &[NewEntry], known: &[(SeatingId, Money)]) -> QueryResult<()> {
    if entries.is_empty() {
        return Ok(());
    }
    let mut running: Vec<(SeatingId, Money)> = known.to_vec();
    let mut entries = entries.to_vec();
    for entry in &mut entries {
        if let Some(seating) = entry.seating_id {
            let index = match running.iter().position(|r| r.0 == seating) {
                Some(i) => i,
                None => {
                    running.push((seating, seating_balance(conn, seating)?));
                    running.len() - 1
                }
            };
            running[index].1 += entry.amount_cents;
            entry.balance_after_cents = Some(running[index].1);
        }
    }
    // One statement on both backends: every column given (a NULL as NULL,
    // never DEFAULT, which a SQLite batch insert cannot take).
    let rows: Vec<_> = entries
        .iter()
        .map(|e| {
            (
                ledger_entries::table_id.eq(e.table_id),
                ledger_entries::hand_id.eq(e.hand_id),
                ledger_entries::seating_id.eq(e.seating_id),
                ledger_entries::pool_id.eq(e.pool_id),
                ledger_entries::jackpot_hit_id.eq(e.jackpot_hit_id),
                ledger_entries::kind.eq(e.kind),
                ledger_entries::amount_cents.eq(e.amount_cents),
                ledger_entries::reverses_id.eq(e.reverses_id),
                ledger_entries::reason.eq(e.reason.map(str::to_owned)),
                ledger_entries::created_at.eq(e.created_at),
                ledger_entries::balance_after_cents.eq(e.balance_after_cents),
                ledger_entries::rake_cents.eq(e.rake_cents),
            )
        })
        .collect();
    // Kept prepared: a statement per number of rows (see the macro).
    insert_by_count!(conn, ledger_entries::table, rows; 1 2 3 4 5 6 7 8 9 10 11 12)?;
    Ok(())
}

pub fn insert(conn: &mut DbConnection, entries: &[NewEntry]) -> QueryResult<()> {
    insert_with(conn, entries, &[])
}

/// A seating's stack now (`seating_stacks`, which the database keeps as
/// each seat row is written and checks each row against).
pub fn seating_balance(conn: &mut DbConnection, seating: SeatingId) -> QueryResult<Money> {
    use super::schema::seating_stacks;
    let stack: Option<Money> =
        seating_stacks::table.find(seating).select(seating_stacks::stack_cents).first(conn).optional()?;
    Ok(stack.unwrap_or_default())
}

/// A pool's balance: seeds + contributions − locked hits + returned hits,
/// the sum of its shares (one per table feeding it, and one for its rows of
/// no table), which the database keeps as each of its rows is written.
pub fn pool_balance(conn: &mut DbConnection, pool: PoolId) -> QueryResult<Money> {
    use super::schema::pool_balances;
    let cents: Option<i64> = pool_balances::table
        .filter(pool_balances::pool_id.eq(pool))
        .select(diesel::dsl::sql::<diesel::sql_types::Nullable<diesel::sql_types::BigInt>>(
            "CAST(SUM(balance_cents) AS BIGINT)",
        ))
        .first(conn)?;
    Ok(Money::from_cents(cents.unwrap_or(0)))
}

/// Opens a pool's share for a table that feeds it (key 0: the pool's rows
/// of no table), before its first row, so that a jackpot hit's lock on every
/// share covers it (`lock_pool`). A share already open is left as it is
/// (the database refuses an empty share written over one: SQLite's guard
/// sees the insert before its conflict, so it is not tried).
pub fn open_pool_share(conn: &mut DbConnection, pool: PoolId, table: Option<TableId>) -> QueryResult<()> {
    use super::schema::pool_balances;
    let key = table.map_or(0, |t| t.get());
    let open: i64 = pool_balances::table
        .filter(pool_balances::pool_id.eq(pool))
        .filter(pool_balances::table_key.eq(key))
        .count()
        .get_result(conn)?;
    if open > 0 {
        return Ok(());
    }
    let row =
        (pool_balances::pool_id.eq(pool), pool_balances::table_key.eq(key), pool_balances::balance_cents.eq(0i64));
    crate::on_backend!(conn, |c| diesel::insert_into(pool_balances::table)
        .values(row)
        .on_conflict((pool_balances::pool_id, pool_balances::table_key))
        .do_nothing()
        .execute(c))?;
    Ok(())
}

/// How many rows of the whole ledger (every table's, by id) a page of one
/// table's ledger looks through at most.
pub const TABLE_PAGE_SCAN: i64 = 100_000;

/// A page of a table's rows, oldest first: those after the row `after`, at
/// most `limit`, among the next `scan` rows of the whole ledger
/// ([`TABLE_PAGE_SCAN`] as served), starting no earlier than the table's
/// first row (the buy-in of its first seating: a table has no row before
/// one). The ledger is walked by id (every row of a table carries its
/// `table_id`; an index on it would cost about 100 bytes a hand), so a page
/// costs the same at the start of a year's ledger and at its end. Answers
/// the rows and, when the walk stopped before the ledger's last row, where
/// it stopped (the next page starts after it).
///
/// On PostgreSQL the table's row is shared-locked first: its rows are
/// written under its row lock, so none of them with an id below the walk's
/// end is still uncommitted when the page is read (ids come from a sequence
/// and commit in any order), and a cursor past them cannot skip one.
pub fn entries_for_table(
    conn: &mut DbConnection,
    table: TableId,
    after: Option<EntryId>,
    limit: i64,
    scan: i64,
) -> QueryResult<(Vec<Entry>, Option<EntryId>)> {
    use super::schema::{casino_tables, seatings};
    conn.transaction(|conn| {
        if let DbConnection::Pg(pg) = conn {
            casino_tables::table.find(table).select(casino_tables::id).for_share().execute(pg)?;
        }
        let first_seating: Option<SeatingId> =
            seatings::table.filter(seatings::table_id.eq(table)).select(diesel::dsl::min(seatings::id)).first(conn)?;
        let Some(first_seating) = first_seating else {
            return Ok((Vec::new(), None));
        };
        // A seating's first row is its buy-in, written with it (the kind
        // written into the SQL, as the partial index of buy-ins names it).
        let first: Option<EntryId> = ledger_entries::table
            .filter(ledger_entries::seating_id.eq(first_seating))
            .filter(diesel::dsl::sql::<diesel::sql_types::Bool>("ledger_entries.kind = 'buy_in'"))
            .select(diesel::dsl::min(ledger_entries::id))
            .first(conn)?;
        let last: Option<EntryId> = ledger_entries::table.select(diesel::dsl::max(ledger_entries::id)).first(conn)?;
        let from = EntryId(after.unwrap_or(EntryId(0)).get().max(first.map_or(0, |f| f.get() - 1)));
        let Some(last) = last.filter(|l| *l > from) else {
            return Ok((Vec::new(), None));
        };
        let to = EntryId(from.get().saturating_add(scan.max(1)).min(last.get()));
        let rows = ledger_entries::table
            .filter(ledger_entries::table_id.eq(table))
            .filter(ledger_entries::id.gt(from))
            .filter(ledger_entries::id.le(to))
            .order(ledger_entries::id.asc())
            .limit(limit)
            .select(Entry::as_select())
            .load(conn)?;
        Ok((rows, Some(to).filter(|t| *t < last)))
    })
}

pub fn entries_for_hand(conn: &mut DbConnection, hand: HandId) -> QueryResult<Vec<Entry>> {
    ledger_entries::table
        .filter(ledger_entries::hand_id.eq(hand))
        .order(ledger_entries::id.asc())
        .select(Entry::as_select())
        .load(conn)
}

/// The jackpot locks on `pool` written after row `after`, oldest first:
/// (hit, the hit's hand).
pub fn locks_after(conn: &mut DbConnection, pool: PoolId, after: EntryId) -> QueryResult<Vec<HitId>> {
    ledger_entries::table
        .filter(ledger_entries::pool_id.eq(pool))
        .filter(ledger_entries::id.gt(after))
        .filter(ledger_entries::kind.eq(EntryKind::JackpotLock))
        .filter(ledger_entries::jackpot_hit_id.is_not_null())
        .order(ledger_entries::id.asc())
        .select(ledger_entries::jackpot_hit_id.assume_not_null())
        .load(conn)
}

/// What a jackpot hit paid each seating (its `jackpot_payout` rows).
pub fn payouts_of_hit(conn: &mut DbConnection, hit: HitId) -> QueryResult<Vec<(Option<SeatingId>, Money)>> {
    ledger_entries::table
        .filter(ledger_entries::jackpot_hit_id.eq(hit))
        .filter(ledger_entries::kind.eq(EntryKind::JackpotPayout))
        .order(ledger_entries::id.asc())
        .select((ledger_entries::seating_id, ledger_entries::amount_cents))
        .load(conn)
}

/// One ledger row by its id.
pub fn entry(conn: &mut DbConnection, id: EntryId) -> QueryResult<Option<Entry>> {
    ledger_entries::table.find(id).select(Entry::as_select()).first(conn).optional()
}

/// The cash-out row of a seating (a seating cashes out once).
pub fn cash_out_entry(conn: &mut DbConnection, seating: SeatingId) -> QueryResult<Option<EntryId>> {
    ledger_entries::table
        .filter(ledger_entries::seating_id.eq(seating))
        .filter(ledger_entries::kind.eq(EntryKind::CashOut))
        .order(ledger_entries::id.desc())
        .select(ledger_entries::id)
        .first(conn)
        .optional()
}
