//! Queries on hands: the hand with its ruleset version, commit and void; its
//! seats; committed showdowns; voids; scans.

use diesel::dsl::{exists, not};
use diesel::prelude::*;

use super::schema::{
    casino_tables, hand_scans, hand_seats, hand_voids, hands, open_seatings, ruleset_versions, seatings, showdowns,
};
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

/// A seat dealt in to a hand, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Queryable)]
pub struct HandSeatRow {
    pub seat: SeatNo,
    pub seating_id: SeatingId,
    pub stack_start_cents: Money,
    pub in_fantasyland: bool,
    /// The seating's player (a seating never changes).
    pub player: String,
    pub exposure_start_cents: Option<Money>,
    pub fantasyland_cards: Option<i32>,
}

/// A hand with its ruleset version, commit, void and seats dealt in, in one
/// query: its row joined to the open seatings of its table, which name the
/// players of an open hand ([`seats_of`]: one more query for the names of a
/// hand played out before its seats left, or started before seats were kept
/// in its row).
pub fn hand(
    conn: &mut DbConnection,
    table: TableId,
    number: HandNumber,
) -> QueryResult<Option<(HandRow, Vec<HandSeatRow>)>> {
    type Row = (
        (HandId, SeatNo, chrono::NaiveDateTime, Option<PoolId>, String, String, Option<String>),
        RulesetRow,
        Option<StoredShowdown>,
        Option<StoredVoid>,
        Option<(SeatingId, String)>,
    );
    let rows: Vec<Row> = hands::table
        .inner_join(ruleset_versions::table.on(ruleset_versions::id.eq(hands::ruleset_version_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .left_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .left_join(open_seatings::table.on(open_seatings::table_id.eq(hands::table_id)))
        .left_join(seatings::table.on(seatings::id.eq(open_seatings::seating_id)))
        .filter(hands::table_id.eq(table))
        .filter(hands::number.eq(number))
        .select((
            (
                hands::id,
                hands::dealer_seat,
                hands::started_at,
                casino_tables::pool_id,
                casino_tables::time_zone,
                casino_tables::gaming_day_cutoff,
                hands::seats,
            ),
            RulesetRow::as_select(),
            SHOWDOWN_COLUMNS.nullable(),
            (hand_voids::reason, hand_voids::note).nullable(),
            (seatings::id, seatings::player).nullable(),
        ))
        // Loaded, not `first`: a bound LIMIT would be prepared again at every
        // hand on SQLite. (table, number) is unique: a row for each open
        // seating of the table (at most its seats), or one.
        .load(conn)?;
    let open: Vec<(SeatingId, String)> = rows.iter().filter_map(|r| r.4.clone()).collect();
    let Some((
        (id, dealer_seat, started_at, pool_id, time_zone, gaming_day_cutoff, packed),
        ruleset,
        showdown,
        void,
        _,
    )) = rows.into_iter().next()
    else {
        return Ok(None);
    };
    let seats = seats_named(conn, id, packed, &open)?;
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

/// The seats of hand `hand` whose row holds `packed` (its `seats` column),
/// with their players: those in it, or for a hand started before seats were
/// kept in the hand's row, its `hand_seats` rows. The one place that knows
/// every form.
pub fn seats_of(conn: &mut DbConnection, hand: HandId, packed: Option<String>) -> QueryResult<Vec<HandSeatRow>> {
    seats_named(conn, hand, packed, &[])
}

/// [`seats_of`], with the players of some seatings known already (`known`):
/// the others' are read in one query, if any.
fn seats_named(
    conn: &mut DbConnection,
    hand: HandId,
    packed: Option<String>,
    known: &[(SeatingId, String)],
) -> QueryResult<Vec<HandSeatRow>> {
    let Some(text) = packed else {
        return hand_seat_rows(conn, hand);
    };
    let seats = unpack_seats(&text)?;
    let unknown: Vec<SeatingId> = seats
        .iter()
        .filter(|s| s.player.is_none() && !known.iter().any(|(id, _)| *id == s.row.seating_id))
        .map(|s| s.row.seating_id)
        .collect();
    let read: Vec<(SeatingId, String)> = if unknown.is_empty() {
        Vec::new()
    } else {
        seatings::table.filter(seatings::id.eq_any(&unknown)).select((seatings::id, seatings::player)).load(conn)?
    };
    seats
        .into_iter()
        .map(|s| {
            let player = match s.player {
                Some(player) => player,
                None => known
                    .iter()
                    .chain(&read)
                    .find(|(id, _)| *id == s.row.seating_id)
                    .map(|(_, p)| p.clone())
                    .ok_or_else(|| {
                        diesel::result::Error::DeserializationError(
                            format!("a hand's seats: seating {} is not found", s.row.seating_id.get()).into(),
                        )
                    })?,
            };
            Ok(HandSeatRow { player, ..s.row })
        })
        .collect()
}

fn hand_seat_rows(conn: &mut DbConnection, hand: HandId) -> QueryResult<Vec<HandSeatRow>> {
    hand_seats::table
        .inner_join(seatings::table.on(seatings::id.eq(hand_seats::seating_id)))
        .filter(hand_seats::hand_id.eq(hand))
        .order(hand_seats::seat.asc())
        .select((
            hand_seats::seat,
            hand_seats::seating_id,
            hand_seats::stack_start_cents,
            hand_seats::in_fantasyland,
            seatings::player,
            hand_seats::exposure_start_cents,
            hand_seats::fantasyland_cards,
        ))
        .load(conn)
}

pub struct NewHand {
    pub table: TableId,
    pub number: HandNumber,
    pub dealer_seat: SeatNo,
    pub ruleset: crate::domain::RulesetVersionId,
    pub started_at: chrono::NaiveDateTime,
    /// The seats dealt in, in seat order.
    pub seats: Vec<HandSeatRow>,
}

/// A hand and its seats: one row.
pub fn insert_hand(conn: &mut DbConnection, h: &NewHand) -> QueryResult<HandId> {
    diesel::insert_into(hands::table)
        .values((
            hands::table_id.eq(h.table),
            hands::number.eq(h.number),
            hands::dealer_seat.eq(h.dealer_seat),
            hands::ruleset_version_id.eq(h.ruleset),
            hands::started_at.eq(h.started_at),
            hands::seats.eq(pack_seats(&h.seats)),
        ))
        .returning(hands::id)
        .get_result(conn)
}

/// A hand's seats as its row keeps them (`hands.seats`, see the migrations
/// `hand_seats_in_hand` and `hand_seats_unnamed`): a JSON array with `[seat,
/// seating, stack at the start in cents]` for each seat, and for a seat in
/// fantasyland or with an exposure carried over `[seat, seating, stack, in
/// fantasyland (0 or 1), exposure at the start in cents or null, cards dealt
/// or null]`. The player is the seating's (a seating never changes): hands
/// started before that migration name it third (`[seat, seating, player,
/// stack]` and the longer form likewise), and still read.
pub fn pack_seats(seats: &[HandSeatRow]) -> String {
    let seats: Vec<serde_json::Value> = seats
        .iter()
        .map(|s| {
            let mut seat = vec![s.seat.get().into(), s.seating_id.get().into(), s.stack_start_cents.cents().into()];
            if s.in_fantasyland || s.exposure_start_cents.is_some() || s.fantasyland_cards.is_some() {
                seat.push(i32::from(s.in_fantasyland).into());
                seat.push(s.exposure_start_cents.map(Money::cents).into());
                seat.push(s.fantasyland_cards.into());
            }
            serde_json::Value::Array(seat)
        })
        .collect();
    serde_json::Value::Array(seats).to_string()
}

/// A seat of a hand's row: its player if the row names it (hands started
/// before `hand_seats_unnamed`), else the seating's, to be read.
#[derive(Debug, PartialEq, Eq)]
pub struct PackedSeat {
    /// The seat, its player empty when `player` is `None`.
    pub row: HandSeatRow,
    pub player: Option<String>,
}

/// The seats [`pack_seats`] wrote (or a hand's row of before, with players).
pub fn unpack_seats(text: &str) -> QueryResult<Vec<PackedSeat>> {
    use serde_json::Value;
    let bad = |why: String| diesel::result::Error::DeserializationError(format!("a hand's seats: {why}").into());
    let whole = |v: &Value| v.as_i64().ok_or_else(|| bad(format!("{v} is not a whole number")));
    let maybe = |v: &Value| if v.is_null() { Ok(None) } else { whole(v).map(Some) };
    let seats: Vec<Vec<Value>> = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    seats
        .into_iter()
        .map(|s| {
            let (seat, seating, player, stack, rest) = match s.as_slice() {
                [seat, seating, Value::String(player), stack, rest @ ..] => (seat, seating, Some(player), stack, rest),
                [seat, seating, stack @ Value::Number(_), rest @ ..] => (seat, seating, None, stack, rest),
                _ => return Err(bad(format!("{s:?} does not start with a seat, a seating and a stack"))),
            };
            let (in_fantasyland, exposure, cards) = match rest {
                [] => (false, None, None),
                [fl, exposure, cards] => match whole(fl)? {
                    fl @ (0 | 1) => (fl == 1, maybe(exposure)?, maybe(cards)?),
                    other => return Err(bad(format!("in fantasyland is {other}"))),
                },
                _ => return Err(bad(format!("{s:?} has a wrong tail"))),
            };
            let narrow = |n: i64| i32::try_from(n).map_err(|_| bad(format!("{n} is out of range")));
            Ok(PackedSeat {
                row: HandSeatRow {
                    seat: SeatNo(narrow(whole(seat)?)?),
                    seating_id: SeatingId(whole(seating)?),
                    stack_start_cents: Money::from_cents(whole(stack)?),
                    in_fantasyland,
                    player: String::new(),
                    exposure_start_cents: exposure.map(Money::from_cents),
                    fantasyland_cards: cards.map(narrow).transpose()?,
                },
                player: player.cloned(),
            })
        })
        .collect()
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
        .filter(hands::table_id.eq(table))
        .filter(committed_not_voided())
        .order(hands::number.desc())
        .select((hands::id, hands::number))
        .first(conn)
        .optional()
}

/// A hand has a showdown and no void: asked of each hand in turn, walking
/// its table's hands down by number (PostgreSQL planned the joins of these
/// as a pass over every hand the table ever had).
#[diesel::dsl::auto_type]
fn committed_not_voided() -> _ {
    exists(showdowns::table.filter(showdowns::hand_id.eq(hands::id)))
        .and(not(exists(hand_voids::table.filter(hand_voids::hand_id.eq(hands::id)))))
}

/// The numbers of the latest `limit` hands committed and not voided, newest first.
pub fn recent_committed(conn: &mut DbConnection, table: TableId, limit: i64) -> QueryResult<Vec<HandNumber>> {
    hands::table
        .filter(hands::table_id.eq(table))
        .filter(committed_not_voided())
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

/// How many hands are open (started, neither committed nor voided). Only a
/// table's last hand can be (a hand starts once the one before it is
/// committed or voided): one probe a table, not a pass over every hand.
pub fn open_hand_count(conn: &mut DbConnection) -> QueryResult<i64> {
    let open = super::tables::last_hands(conn)?.iter().filter(|(_, last)| last.open).count();
    Ok(i64::try_from(open).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(seat: i32, seating: i64, stack: i64) -> HandSeatRow {
        HandSeatRow {
            seat: SeatNo(seat),
            seating_id: SeatingId(seating),
            stack_start_cents: Money::from_cents(stack),
            in_fantasyland: false,
            player: String::new(),
            exposure_start_cents: None,
            fantasyland_cards: None,
        }
    }

    /// The seats as read back: their players to be read from the seatings.
    fn unnamed(seats: &[HandSeatRow]) -> Vec<PackedSeat> {
        seats.iter().map(|s| PackedSeat { row: s.clone(), player: None }).collect()
    }

    #[test]
    fn a_hands_seats_are_kept_short_and_read_back_as_written() {
        let plain = vec![seat(1, 7, 50_000), seat(3, 9, 0)];
        assert_eq!(pack_seats(&plain), "[[1,7,50000],[3,9,0]]");
        assert_eq!(unpack_seats(&pack_seats(&plain)).unwrap(), unnamed(&plain));
        let open_face = vec![
            HandSeatRow { in_fantasyland: true, fantasyland_cards: Some(14), ..seat(2, 8, 1_250) },
            HandSeatRow { exposure_start_cents: Some(Money::from_cents(900)), ..seat(5, 11, 1_000) },
        ];
        assert_eq!(pack_seats(&open_face), "[[2,8,1250,1,null,14],[5,11,1000,0,900,null]]");
        assert_eq!(unpack_seats(&pack_seats(&open_face)).unwrap(), unnamed(&open_face));
    }

    #[test]
    fn a_hands_seats_with_their_players_as_written_before_still_read() {
        let named = |s: HandSeatRow, player: &str| PackedSeat { row: s, player: Some(player.to_string()) };
        assert_eq!(
            unpack_seats(r#"[[1,7,"P1 \"Ace\" Zoë",50000],[3,9,"P3",0]]"#).unwrap(),
            vec![named(seat(1, 7, 50_000), "P1 \"Ace\" Zoë"), named(seat(3, 9, 0), "P3")]
        );
        assert_eq!(
            unpack_seats(r#"[[2,8,"P2",1250,1,null,14],[5,11,"P5",1000,0,900,null]]"#).unwrap(),
            vec![
                named(HandSeatRow { in_fantasyland: true, fantasyland_cards: Some(14), ..seat(2, 8, 1_250) }, "P2"),
                named(HandSeatRow { exposure_start_cents: Some(Money::from_cents(900)), ..seat(5, 11, 1_000) }, "P5"),
            ]
        );
    }

    #[test]
    fn seats_not_as_written_are_an_error_not_a_guess() {
        for text in [
            "",
            "{}",
            r#"[[1,7,"a"]]"#,
            "[[1,7]]",
            "[[1,7,null]]",
            "[[1,7,5,0]]",
            "[[1,7,5,2,null,null]]",
            "[[1,7,5,0,1,2,3]]",
            r#"[[1,7,"a",null]]"#,
            "[[1,7,5,5]]",
            r#"[[1,7,"a",5,2,null,null]]"#,
            r#"[[1,7,"a",5,0]]"#,
            r#"[[1,7,"a",5.5]]"#,
            r#"[[1,7,"a",5,0,1,2,3]]"#,
            r#"[[1,7,"a",5,0,"x",null]]"#,
            r#"[[9999999999,7,"a",5]]"#,
        ] {
            assert!(unpack_seats(text).is_err(), "{text}");
        }
    }
}
