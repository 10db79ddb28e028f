//! Queries on hands: the hand with its ruleset version, commit and void; its
//! seats; committed showdowns; voids; scans.

use diesel::prelude::*;

use super::schema::{casino_tables, hand_scans, hand_seats, hand_voids, hands, ruleset_versions, seatings, showdowns};
use super::tables::RulesetRow;
use super::{now, DbConnection};
use crate::domain::{HandId, HandNumber, Money, PoolId, SeatNo, SeatingId, TableId, UserId, VoidReason};

/// The commit of a hand's showdown, in one of two stored forms: compact
/// (`showdown_z`: what the dealer entered and the result as paid, deflated
/// together) or, for hands committed before that form, the full JSON of the
/// engine's input and result with a hash of the input.
#[derive(Clone, Debug, Queryable)]
pub struct StoredShowdown {
    pub idempotency_key: Option<String>,
    pub committed_at: chrono::NaiveDateTime,
    pub showdown_z: Option<Vec<u8>>,
    pub request_hash: Option<String>,
    pub engine_input: Option<String>,
    pub result: Option<String>,
}

/// The columns of a `StoredShowdown`.
pub type ShowdownColumns = (
    showdowns::idempotency_key,
    showdowns::committed_at,
    showdowns::showdown_z,
    showdowns::request_hash,
    showdowns::engine_input,
    showdowns::result,
);

pub const SHOWDOWN_COLUMNS: ShowdownColumns = (
    showdowns::idempotency_key,
    showdowns::committed_at,
    showdowns::showdown_z,
    showdowns::request_hash,
    showdowns::engine_input,
    showdowns::result,
);

#[derive(Clone, Debug, Queryable)]
pub struct StoredVoid {
    pub reason: VoidReason,
    pub note: String,
}

/// A hand with what it is played under.
#[derive(Clone, Debug)]
pub struct HandRow {
    pub id: HandId,
    pub table_id: TableId,
    pub number: HandNumber,
    pub dealer_seat: SeatNo,
    pub started_at: chrono::NaiveDateTime,
    /// The pool the table feeds.
    pub pool_id: Option<PoolId>,
    /// The table's clock: its IANA time zone and gaming-day cutoff (`HH:MM`).
    pub time_zone: String,
    pub gaming_day_cutoff: String,
    pub ruleset: RulesetRow,
    pub showdown: Option<StoredShowdown>,
    pub void: Option<StoredVoid>,
}

#[derive(Clone, Debug, Queryable)]
pub struct HandSeatRow {
    pub seat: SeatNo,
    pub seating_id: SeatingId,
    pub stack_start_cents: Money,
    pub in_fantasyland: bool,
    pub player: String,
    pub exposure_start_cents: Option<Money>,
    pub fantasyland_cards: Option<i32>,
}

/// A hand with its ruleset version, commit, void and seats dealt in, in one
/// query (a row per seat).
pub fn hand(
    conn: &mut DbConnection,
    table: TableId,
    number: HandNumber,
) -> QueryResult<Option<(HandRow, Vec<HandSeatRow>)>> {
    type Row = (
        (HandId, SeatNo, chrono::NaiveDateTime, Option<PoolId>, String, String),
        RulesetRow,
        Option<StoredShowdown>,
        Option<StoredVoid>,
        HandSeatRow,
    );
    let rows: Vec<Row> = hands::table
        .inner_join(ruleset_versions::table.on(ruleset_versions::id.eq(hands::ruleset_version_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .inner_join(hand_seats::table.on(hand_seats::hand_id.eq(hands::id)))
        .inner_join(seatings::table.on(seatings::id.eq(hand_seats::seating_id)))
        .left_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(table))
        .filter(hands::number.eq(number))
        .order(hand_seats::seat.asc())
        .select((
            (
                hands::id,
                hands::dealer_seat,
                hands::started_at,
                casino_tables::pool_id,
                casino_tables::time_zone,
                casino_tables::gaming_day_cutoff,
            ),
            RulesetRow::as_select(),
            SHOWDOWN_COLUMNS.nullable(),
            (hand_voids::reason, hand_voids::note).nullable(),
            (
                hand_seats::seat,
                hand_seats::seating_id,
                hand_seats::stack_start_cents,
                hand_seats::in_fantasyland,
                seatings::player,
                hand_seats::exposure_start_cents,
                hand_seats::fantasyland_cards,
            ),
        ))
        .load(conn)?;
    let mut rows = rows.into_iter();
    let Some(((id, dealer_seat, started_at, pool_id, time_zone, gaming_day_cutoff), ruleset, showdown, void, first)) =
        rows.next()
    else {
        return Ok(None);
    };
    let mut seats = vec![first];
    seats.extend(rows.map(|r| r.4));
    let hand = HandRow {
        id,
        table_id: table,
        number,
        dealer_seat,
        started_at,
        pool_id,
        time_zone,
        gaming_day_cutoff,
        ruleset,
        showdown,
        void,
    };
    Ok(Some((hand, seats)))
}

/// (seat, seating) of the seats dealt in to a hand.
pub fn seatings_of(conn: &mut DbConnection, hand: HandId) -> QueryResult<Vec<(SeatNo, SeatingId)>> {
    hand_seats::table.filter(hand_seats::hand_id.eq(hand)).select((hand_seats::seat, hand_seats::seating_id)).load(conn)
}

pub struct NewHand {
    pub table: TableId,
    pub number: HandNumber,
    pub dealer_seat: SeatNo,
    pub ruleset: crate::domain::RulesetVersionId,
    pub started_at: chrono::NaiveDateTime,
}

pub fn insert_hand(conn: &mut DbConnection, h: &NewHand) -> QueryResult<HandId> {
    diesel::insert_into(hands::table)
        .values((
            hands::table_id.eq(h.table),
            hands::number.eq(h.number),
            hands::dealer_seat.eq(h.dealer_seat),
            hands::ruleset_version_id.eq(h.ruleset),
            hands::started_at.eq(h.started_at),
        ))
        .returning(hands::id)
        .get_result(conn)
}

/// A seat dealt in.
#[derive(Clone, Debug)]
pub struct NewHandSeat {
    pub hand_id: HandId,
    pub seat: SeatNo,
    pub seating_id: SeatingId,
    pub stack_start_cents: Money,
    pub in_fantasyland: bool,
    pub exposure_start_cents: Option<Money>,
    pub fantasyland_cards: Option<i32>,
}

/// The seats of a hand, in one statement on both backends (values bound as
/// they are, NULL included, so SQLite takes them in one INSERT).
pub fn insert_hand_seats(conn: &mut DbConnection, seats: &[NewHandSeat]) -> QueryResult<()> {
    let rows: Vec<_> = seats
        .iter()
        .map(|s| {
            (
                hand_seats::hand_id.eq(s.hand_id),
                hand_seats::seat.eq(s.seat),
                hand_seats::seating_id.eq(s.seating_id),
                hand_seats::stack_start_cents.eq(s.stack_start_cents),
                hand_seats::in_fantasyland.eq(s.in_fantasyland),
                hand_seats::exposure_start_cents.eq(s.exposure_start_cents),
                hand_seats::fantasyland_cards.eq(s.fantasyland_cards),
            )
        })
        .collect();
    // Kept prepared: a statement per number of rows (see the macro).
    insert_by_count!(conn, hand_seats::table, rows; 1 2 3 4 5 6 7 8)?;
    Ok(())
}

/// A showdown in the compact form.
pub struct NewShowdown<'a> {
    pub hand: HandId,
    pub idempotency_key: Option<&'a str>,
    pub showdown_z: &'a [u8],
    pub committed_at: chrono::NaiveDateTime,
}

pub fn insert_showdown(conn: &mut DbConnection, s: &NewShowdown) -> QueryResult<()> {
    diesel::insert_into(showdowns::table)
        .values((
            showdowns::hand_id.eq(s.hand),
            showdowns::idempotency_key.eq(s.idempotency_key),
            showdowns::showdown_z.eq(s.showdown_z),
            showdowns::committed_at.eq(s.committed_at),
        ))
        .execute(conn)
        .map(|_| ())
}

pub fn insert_void(
    conn: &mut DbConnection,
    hand: HandId,
    reason: VoidReason,
    note: &str,
    by: Option<UserId>,
) -> QueryResult<()> {
    diesel::insert_into(hand_voids::table)
        .values((
            hand_voids::hand_id.eq(hand),
            hand_voids::reason.eq(reason),
            hand_voids::note.eq(note),
            hand_voids::created_at.eq(now()),
            hand_voids::voided_by.eq(by),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The last hand committed and not voided: (id, number).
pub fn last_committed(conn: &mut DbConnection, table: TableId) -> QueryResult<Option<(HandId, HandNumber)>> {
    hands::table
        .inner_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(table))
        .filter(hand_voids::id.is_null())
        .order(hands::number.desc())
        .select((hands::id, hands::number))
        .first(conn)
        .optional()
}

/// The numbers of the latest `limit` hands committed and not voided, newest first.
pub fn recent_committed(conn: &mut DbConnection, table: TableId, limit: i64) -> QueryResult<Vec<HandNumber>> {
    hands::table
        .inner_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(table))
        .filter(hand_voids::id.is_null())
        .order(hands::number.desc())
        .select(hands::number)
        .limit(limit)
        .load(conn)
}

// ---- scans ----

#[derive(Clone, Debug, Queryable, serde::Serialize)]
pub struct ScanRow {
    pub seat: SeatNo,
    pub row: String,
    pub card: String,
}

pub fn scans(conn: &mut DbConnection, hand: HandId) -> QueryResult<Vec<ScanRow>> {
    hand_scans::table
        .filter(hand_scans::hand_id.eq(hand))
        .order(hand_scans::id.asc())
        .select((hand_scans::seat, hand_scans::row_name, hand_scans::card))
        .load(conn)
}

pub fn insert_scan(conn: &mut DbConnection, hand: HandId, seat: SeatNo, row: &str, card: &str) -> QueryResult<()> {
    diesel::insert_into(hand_scans::table)
        .values((
            hand_scans::hand_id.eq(hand),
            hand_scans::seat.eq(seat),
            hand_scans::row_name.eq(row),
            hand_scans::card.eq(card),
            hand_scans::scanned_at.eq(now()),
        ))
        .execute(conn)
        .map(|_| ())
}

/// How many hands are open (started, neither committed nor voided).
pub fn open_hand_count(conn: &mut DbConnection) -> QueryResult<i64> {
    use diesel::dsl::{exists, not};
    hands::table
        .filter(not(exists(showdowns::table.filter(showdowns::hand_id.eq(hands::id)))))
        .filter(not(exists(hand_voids::table.filter(hand_voids::hand_id.eq(hands::id)))))
        .count()
        .get_result(conn)
}
