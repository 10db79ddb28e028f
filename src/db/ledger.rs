//! The append-only ledger: every money movement is a row; nothing is updated
//! or deleted (the database refuses it); a correction is a new row that
//! reverses an old one.

use diesel::prelude::*;
use serde::Serialize;

use super::schema::ledger_entries;
use super::{now, DbConnection};
use crate::error::AppError;
use crate::money::from_cents;

/// What a ledger row records. Seat rows change a player's stack; pool rows a
/// jackpot pool's balance; house rows the house's share of the rake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    BuyIn,
    AddOn,
    CashOut,
    /// A seat's rake for a hand (negative).
    Rake,
    /// The house's share of a hand's rake (positive).
    HouseRake,
    /// A pool's share of a hand's rake (positive).
    JackpotContribution,
    /// One side of a settlement transaction (payer negative, payee positive).
    Settlement,
    /// A pool's seed (positive), at creation and after every locked hit.
    PoolSeed,
    /// A hit locks the pool's balance (negative on the pool).
    JackpotLock,
    /// Reverses another row (the negative of its amount).
    Reversal,
    /// A verified hit paid to a player by the pool's shares (positive on a seat).
    JackpotPayout,
    /// A rejected hit's amount back in its pool (positive on the pool).
    JackpotReturn,
}

impl EntryKind {
    pub fn name(self) -> &'static str {
        match self {
            EntryKind::BuyIn => "buy_in",
            EntryKind::AddOn => "add_on",
            EntryKind::CashOut => "cash_out",
            EntryKind::Rake => "rake",
            EntryKind::HouseRake => "house_rake",
            EntryKind::JackpotContribution => "jackpot_contribution",
            EntryKind::Settlement => "settlement",
            EntryKind::PoolSeed => "pool_seed",
            EntryKind::JackpotLock => "jackpot_lock",
            EntryKind::Reversal => "reversal",
            EntryKind::JackpotPayout => "jackpot_payout",
            EntryKind::JackpotReturn => "jackpot_return",
        }
    }
}

/// A new ledger row.
#[derive(Clone, Debug, Default, Insertable)]
#[diesel(table_name = ledger_entries)]
pub struct NewEntry<'a> {
    pub table_id: Option<i64>,
    pub hand_id: Option<i64>,
    pub seating_id: Option<i64>,
    pub pool_id: Option<i64>,
    pub jackpot_hit_id: Option<i64>,
    pub kind: &'a str,
    pub amount_cents: i64,
    pub reverses_id: Option<i64>,
    pub reason: Option<&'a str>,
    pub created_at: chrono::NaiveDateTime,
    /// For a seat row, the seating's stack after it (set by `insert`).
    pub balance_after_cents: Option<i64>,
}

impl<'a> NewEntry<'a> {
    pub fn new(kind: EntryKind, amount_cents: i64) -> NewEntry<'a> {
        NewEntry { kind: kind.name(), amount_cents, created_at: now(), ..Default::default() }
    }
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = ledger_entries)]
pub struct Entry {
    pub id: i64,
    pub table_id: Option<i64>,
    pub hand_id: Option<i64>,
    pub seating_id: Option<i64>,
    pub pool_id: Option<i64>,
    pub jackpot_hit_id: Option<i64>,
    pub kind: String,
    pub amount_cents: i64,
    pub reverses_id: Option<i64>,
    pub reason: Option<String>,
    pub created_at: chrono::NaiveDateTime,
    pub balance_after_cents: Option<i64>,
}

/// A ledger row as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct EntryView {
    pub id: i64,
    pub kind: String,
    pub amount: rust_decimal::Decimal,
    pub table_id: Option<i64>,
    pub hand_id: Option<i64>,
    pub seating_id: Option<i64>,
    pub pool_id: Option<i64>,
    pub jackpot_hit_id: Option<i64>,
    pub reverses_id: Option<i64>,
    pub reason: Option<String>,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// For a seat row, the seat's stack after it.
    pub stack_after: Option<rust_decimal::Decimal>,
}

impl From<Entry> for EntryView {
    fn from(e: Entry) -> Self {
        EntryView {
            id: e.id,
            kind: e.kind,
            amount: from_cents(e.amount_cents),
            table_id: e.table_id,
            hand_id: e.hand_id,
            seating_id: e.seating_id,
            pool_id: e.pool_id,
            jackpot_hit_id: e.jackpot_hit_id,
            reverses_id: e.reverses_id,
            reason: e.reason,
            created_at: e.created_at.and_utc(),
            stack_after: e.balance_after_cents.map(from_cents),
        }
    }
}

/// Appends rows in one statement. Seat rows get their running stack, from
/// `known` stacks `(seating, cents)` where the caller has them, else from the
/// seating's latest row; the caller holds the table's write lock, so a
/// seating's rows are appended in order.
pub fn insert_with(conn: &mut DbConnection, entries: &[NewEntry], known: &[(i64, i64)]) -> Result<(), AppError> {
    if entries.is_empty() {
        return Ok(());
    }
    let mut running: Vec<(i64, i64)> = known.to_vec();
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
    match conn {
        // One statement on PostgreSQL (a batch insert needs the concrete
        // backend). SQLite cannot batch rows with NULLs as DEFAULT, and an
        // in-process insert costs no round trip: one row at a time.
        DbConnection::Pg(c) => {
            diesel::insert_into(ledger_entries::table).values(&entries).execute(c)?;
        }
        DbConnection::Sqlite(_) => {
            for entry in &entries {
                diesel::insert_into(ledger_entries::table).values(entry).execute(conn)?;
            }
        }
    }
    Ok(())
}

pub fn insert(conn: &mut DbConnection, entries: &[NewEntry]) -> Result<(), AppError> {
    insert_with(conn, entries, &[])
}

/// `SUM(amount_cents)` as BIGINT on both backends (PostgreSQL sums BIGINT
/// into NUMERIC).
fn sum_cents() -> diesel::expression::SqlLiteral<diesel::sql_types::BigInt> {
    diesel::dsl::sql::<diesel::sql_types::BigInt>("CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT)")
}

/// A seating's stack in cents: the running stack on its latest row (the
/// tests check it equals the sum of the seating's rows).
pub fn seating_balance(conn: &mut DbConnection, seating_id: i64) -> Result<i64, AppError> {
    let latest: Option<Option<i64>> = ledger_entries::table
        .filter(ledger_entries::seating_id.eq(seating_id))
        .order(ledger_entries::id.desc())
        .select(ledger_entries::balance_after_cents)
        .first(conn)
        .optional()?;
    Ok(latest.flatten().unwrap_or(0))
}

/// The stacks of these seatings, in cents: one index probe each (the
/// seating's latest row; a grouped `MAX(id)` would scan every row).
pub fn seating_balances(conn: &mut DbConnection, seatings: &[i64]) -> Result<Vec<(i64, i64)>, AppError> {
    seatings.iter().map(|&s| Ok((s, seating_balance(conn, s)?))).collect()
}

/// A pool's balance in cents: seeds + contributions − locked hits + returned hits.
pub fn pool_balance(conn: &mut DbConnection, pool_id: i64) -> Result<i64, AppError> {
    Ok(ledger_entries::table.filter(ledger_entries::pool_id.eq(pool_id)).select(sum_cents()).get_result(conn)?)
}

pub fn entries_for_table(conn: &mut DbConnection, table_id: i64) -> Result<Vec<Entry>, AppError> {
    Ok(ledger_entries::table
        .filter(ledger_entries::table_id.eq(table_id))
        .order(ledger_entries::id.asc())
        .select(Entry::as_select())
        .load(conn)?)
}

pub fn entries_for_hand(conn: &mut DbConnection, hand_id: i64) -> Result<Vec<Entry>, AppError> {
    Ok(ledger_entries::table
        .filter(ledger_entries::hand_id.eq(hand_id))
        .order(ledger_entries::id.asc())
        .select(Entry::as_select())
        .load(conn)?)
}
