//! Queries on jackpot hits and their sign-offs.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{
    casino_tables, hand_seats, hand_voids, hands, jackpot_hits, jackpot_signoffs, ledger_entries, pools, seatings,
    users,
};
use super::{now, DbConnection};
use crate::domain::{
    HandId, HandNumber, HitId, HitStatus, Money, PoolId, SeatNo, SeatingId, SignoffAction, TableId, UserId,
};

/// A hit with its pool, table and hand.
#[derive(Clone, Debug, Queryable)]
pub struct HitRow {
    pub id: HitId,
    pub pool_id: PoolId,
    pub pool_name: String,
    pub table_id: TableId,
    pub table_name: String,
    pub hand_id: HandId,
    pub hand_number: HandNumber,
    pub kind: String,
    pub loser_seat: SeatNo,
    pub winner_seat: SeatNo,
    pub amount: Money,
    pub created_at: NaiveDateTime,
    /// The pool's shares in percent: loser, winner, others.
    pub shares: (i32, i32, i32),
}

/// The latest 500 hits, newest first, or the one named.
pub fn hit_rows(conn: &mut DbConnection, only: Option<HitId>) -> QueryResult<Vec<HitRow>> {
    let mut query = jackpot_hits::table
        .inner_join(pools::table.on(pools::id.eq(jackpot_hits::pool_id)))
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .select((
            jackpot_hits::id,
            jackpot_hits::pool_id,
            pools::name,
            casino_tables::id,
            casino_tables::name,
            hands::id,
            hands::number,
            jackpot_hits::kind,
            jackpot_hits::loser_seat,
            jackpot_hits::winner_seat,
            jackpot_hits::amount_cents,
            jackpot_hits::created_at,
            (pools::loser_share_pct, pools::winner_share_pct, pools::others_share_pct),
        ))
        .order(jackpot_hits::id.desc())
        .into_boxed();
    if let Some(id) = only {
        query = query.filter(jackpot_hits::id.eq(id));
    }
    query.limit(500).load(conn)
}

/// Every hit of a pool, newest first.
pub fn hits_of_pool(conn: &mut DbConnection, pool: PoolId) -> QueryResult<Vec<HitId>> {
    jackpot_hits::table
        .filter(jackpot_hits::pool_id.eq(pool))
        .order(jackpot_hits::id.desc())
        .select(jackpot_hits::id)
        .load(conn)
}

/// A hit of a hand: (id, pool, kind, loser, winner, amount).
pub type HandHit = (HitId, PoolId, String, SeatNo, SeatNo, Money);

/// The hits of a hand, in order.
pub fn hits_of_hand(conn: &mut DbConnection, hand: HandId) -> QueryResult<Vec<HandHit>> {
    jackpot_hits::table
        .filter(jackpot_hits::hand_id.eq(hand))
        .order(jackpot_hits::id.asc())
        .select((
            jackpot_hits::id,
            jackpot_hits::pool_id,
            jackpot_hits::kind,
            jackpot_hits::loser_seat,
            jackpot_hits::winner_seat,
            jackpot_hits::amount_cents,
        ))
        .load(conn)
}

/// The table a hit's hand was played at.
pub fn table_of_hit(conn: &mut DbConnection, hit: HitId) -> QueryResult<Option<TableId>> {
    jackpot_hits::table
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .filter(jackpot_hits::id.eq(hit))
        .select(hands::table_id)
        .first(conn)
        .optional()
}

pub struct NewHit<'a> {
    pub pool: PoolId,
    pub hand: HandId,
    pub kind: &'a str,
    pub loser: SeatNo,
    pub winner: SeatNo,
    pub amount: Money,
}

pub fn insert_hit(conn: &mut DbConnection, h: &NewHit) -> QueryResult<HitId> {
    diesel::insert_into(jackpot_hits::table)
        .values((
            jackpot_hits::pool_id.eq(h.pool),
            jackpot_hits::hand_id.eq(h.hand),
            jackpot_hits::kind.eq(h.kind),
            jackpot_hits::loser_seat.eq(h.loser),
            jackpot_hits::winner_seat.eq(h.winner),
            jackpot_hits::amount_cents.eq(h.amount),
            jackpot_hits::created_at.eq(now()),
        ))
        .returning(jackpot_hits::id)
        .get_result(conn)
}

/// The sign-off actions on each of `hits`.
pub fn actions_of(conn: &mut DbConnection, hits: &[HitId]) -> QueryResult<Vec<(HitId, SignoffAction)>> {
    jackpot_signoffs::table
        .filter(jackpot_signoffs::hit_id.eq_any(hits))
        .select((jackpot_signoffs::hit_id, jackpot_signoffs::action))
        .load(conn)
}

/// Those of `hits` whose hand was voided.
pub fn voided_hits(conn: &mut DbConnection, hits: &[HitId]) -> QueryResult<Vec<HitId>> {
    jackpot_hits::table
        .inner_join(hand_voids::table.on(hand_voids::hand_id.eq(jackpot_hits::hand_id)))
        .filter(jackpot_hits::id.eq_any(hits))
        .select(jackpot_hits::id)
        .load(conn)
}

/// A sign-off as recorded, with who made it.
#[derive(Clone, Debug, Queryable)]
pub struct SignoffRow {
    pub action: SignoffAction,
    pub user_id: UserId,
    pub username: String,
    pub display_name: String,
    pub at: NaiveDateTime,
    pub reason: String,
}

pub fn signoffs(conn: &mut DbConnection, hit: HitId) -> QueryResult<Vec<SignoffRow>> {
    jackpot_signoffs::table
        .inner_join(users::table.on(users::id.eq(jackpot_signoffs::user_id)))
        .filter(jackpot_signoffs::hit_id.eq(hit))
        .order(jackpot_signoffs::id.asc())
        .select((
            jackpot_signoffs::action,
            users::id,
            users::username,
            users::display_name,
            jackpot_signoffs::created_at,
            jackpot_signoffs::reason,
        ))
        .load(conn)
}

pub fn insert_signoff(
    conn: &mut DbConnection,
    hit: HitId,
    action: SignoffAction,
    by: UserId,
    reason: &str,
) -> QueryResult<()> {
    diesel::insert_into(jackpot_signoffs::table)
        .values((
            jackpot_signoffs::hit_id.eq(hit),
            jackpot_signoffs::action.eq(action),
            jackpot_signoffs::user_id.eq(by),
            jackpot_signoffs::reason.eq(reason),
            jackpot_signoffs::created_at.eq(now()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The seats dealt in to a hand: (seat, seating, player).
pub fn hand_players(conn: &mut DbConnection, hand: HandId) -> QueryResult<Vec<(SeatNo, SeatingId, String)>> {
    let packed: Option<String> = hands::table.find(hand).select(hands::seats).first(conn)?;
    Ok(super::hands::seats_of(conn, hand, packed)?.into_iter().map(|s| (s.seat, s.seating_id, s.player)).collect())
}

/// The hits whose hand dealt `seating` in: among the hits of the seating's
/// table, those whose hand's seats name it (and, for hands started before
/// seats were kept in the hand's row, those whose `hand_seats` rows name it).
/// Hits are rare, so reading a table's hits and their hands' seats is cheap;
/// a filter on the time the seating sat down would trust the clocks of
/// several app servers to agree. The hits are read from the hits, each
/// hand by its key ([`super::hand_at_table`]): joined from the seating,
/// SQLite walked every hand the table ever had at each cash-out (13 ms at
/// 2,000 hands a table, and growing: seconds in a year's hands, with every
/// other write waiting).
pub fn hits_dealing(conn: &mut DbConnection, seating: SeatingId) -> QueryResult<Vec<HitId>> {
    let mut hits: Vec<HitId> = jackpot_hits::table
        .inner_join(hand_seats::table.on(hand_seats::hand_id.eq(jackpot_hits::hand_id)))
        .filter(hand_seats::seating_id.eq(seating))
        .select(jackpot_hits::id)
        .load(conn)?;
    let Some(table) = seatings::table.find(seating).select(seatings::table_id).first::<TableId>(conn).optional()?
    else {
        return Ok(hits);
    };
    let since: Vec<(HitId, String)> = jackpot_hits::table
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .filter(super::hand_at_table(table))
        .filter(hands::seats.is_not_null())
        .select((jackpot_hits::id, hands::seats.assume_not_null()))
        .load(conn)?;
    for (hit, text) in since {
        if super::hands::unpack_seats(&text)?.iter().any(|s| s.row.seating_id == seating) {
            hits.push(hit);
        }
    }
    Ok(hits)
}

/// The hand (id, number) of each of `hits`.
pub fn hands_of(conn: &mut DbConnection, hits: &[HitId]) -> QueryResult<Vec<(HitId, HandId, HandNumber)>> {
    jackpot_hits::table
        .inner_join(hands::table.on(hands::id.eq(jackpot_hits::hand_id)))
        .filter(jackpot_hits::id.eq_any(hits))
        .select((jackpot_hits::id, hands::id, hands::number))
        .load(conn)
}

/// The status of each of `hits` (two queries whatever their number): the
/// one place statuses are worked out, for hands, the floor and the reports.
pub fn statuses(conn: &mut DbConnection, hits: &[HitId]) -> QueryResult<std::collections::HashMap<HitId, HitStatus>> {
    let mut out = std::collections::HashMap::with_capacity(hits.len());
    for chunk in hits.chunks(500) {
        let actions = actions_of(conn, chunk)?;
        let voided = voided_hits(conn, chunk)?;
        for &hit in chunk {
            let done: Vec<SignoffAction> = actions.iter().filter(|a| a.0 == hit).map(|a| a.1).collect();
            out.insert(hit, HitStatus::of(&done, voided.contains(&hit)));
        }
    }
    Ok(out)
}

/// What each of `hits` has paid to seats, net of reversals (its seat rows:
/// payouts and their reversals; the partial index on hit rows finds them).
pub fn paid_out(conn: &mut DbConnection, hits: &[HitId]) -> QueryResult<std::collections::HashMap<HitId, Money>> {
    let mut out = std::collections::HashMap::with_capacity(hits.len());
    for chunk in hits.chunks(500) {
        let rows: Vec<(Option<HitId>, Money)> = ledger_entries::table
            .filter(ledger_entries::jackpot_hit_id.eq_any(chunk.iter().map(|h| Some(*h))))
            .filter(ledger_entries::seating_id.is_not_null())
            .select((ledger_entries::jackpot_hit_id, ledger_entries::amount_cents))
            .load(conn)?;
        for (hit, amount) in rows {
            if let Some(hit) = hit {
                *out.entry(hit).or_insert(Money::ZERO) += amount;
            }
        }
    }
    Ok(out)
}
