//! Use cases of a hand: start (button, seats dealt in, stacks, fantasyland),
//! preview, commit (one transaction, idempotent), void (reversing rows),
//! rescore, and cards scanned by a shoe.

use serde::{Deserialize, Serialize};

use super::audit;
use super::jackpots;
use super::tables::{ruleset_to_start, Ruleset, RulesetView};
use super::{rollups, showdown_z};
use crate::db::hands::{self as q, HandRow, HandSeatRow, StoredShowdown};
use crate::db::ledger::{self, NewEntry};
use crate::db::rollups::{PoolDay, SeatingTotals, TableDay};
use crate::db::tables::{self as tq, Seated};
use crate::db::{lock_pool, now, Database, DbConnection};
use crate::domain::money::check_table_money;
use crate::domain::{
    Actor, AppError, EntryKind, HandId, HandNumber, HandStatus, HitId, HitStatus, Money, PoolId, SeatNo, SeatingId,
    StoredResult, TableId, VoidReason,
};
use crate::engine::showdown::{MoneyText, PairUnitInput, SeatInput, ShowdownInput};
use crate::engine::{score, ScoreResult, Showdown};

// ---- inputs ----

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartHandRequest {
    /// Seats dealt in; default: every seated player whose stack covers the rake.
    pub seats: Option<Vec<i32>>,
}

/// A showdown as the dealer enters it: CONTRACT.md's seats without `stack`
/// and `in_fantasyland`, which come from the hand.
#[derive(Clone, Debug, Deserialize, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShowdownRequest {
    /// Per seat, CONTRACT.md's fields: `seat`, and `front`, `middle`, `back`
    /// (or `cards` with `claim`), `surrender`, `aces_bet`, `discards`,
    /// `penalties`.
    #[schema(value_type = Vec<Object>)]
    pub seats: Vec<SeatInput>,
    /// Refused: per-pair stakes are the table's ruleset's (kept here only to
    /// say so clearly).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_units: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VoidRequest {
    pub reason: VoidReason,
    pub note: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScanRequest {
    pub seat: i32,
    pub row: String,
    pub card: String,
}

// ---- views ----

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct HandSeatView {
    pub seat: SeatNo,
    pub seating_id: SeatingId,
    pub player: String,
    pub stack_start: Money,
    pub in_fantasyland: bool,
    /// A fantasyland hand extends the previous one: the exposure (RULES §8)
    /// the seat carries into it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposure_start: Option<Money>,
    /// Cards a fantasyland seat is dealt (13; pineapple 14 to 17).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fantasyland_cards: Option<i32>,
}

impl From<HandSeatRow> for HandSeatView {
    fn from(s: HandSeatRow) -> Self {
        HandSeatView {
            seat: s.seat,
            seating_id: s.seating_id,
            player: s.player,
            stack_start: s.stack_start_cents,
            in_fantasyland: s.in_fantasyland,
            exposure_start: s.exposure_start_cents,
            fantasyland_cards: s.fantasyland_cards,
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct JackpotHitView {
    pub id: HitId,
    pub pool_id: PoolId,
    pub kind: String,
    pub loser_seat: SeatNo,
    pub winner_seat: SeatNo,
    pub amount: Money,
    pub status: HitStatus,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct HandView {
    /// The hand's id (ledger rows name it as `hand_id`).
    pub id: HandId,
    pub table_id: TableId,
    pub number: HandNumber,
    pub dealer_seat: SeatNo,
    pub status: HandStatus,
    pub ruleset: RulesetView,
    pub seats: Vec<HandSeatView>,
    pub started_at: chrono::DateTime<chrono::Utc>,
    /// The settlement sheet as committed (CONTRACT.md result), verbatim.
    #[schema(value_type = Option<Object>)]
    pub result: Option<Box<serde_json::value::RawValue>>,
    /// The showdown as committed (CONTRACT.md input, cards in canonical order).
    #[schema(value_type = Option<Object>)]
    pub showdown: Option<Box<serde_json::value::RawValue>>,
    pub jackpot_hits: Vec<JackpotHitView>,
    /// The void's reason code and note.
    pub void_reason: Option<VoidReason>,
    pub void_note: Option<String>,
}

impl HandView {
    /// The committed result, typed (`None` for an open hand).
    pub fn stored_result(&self) -> Result<Option<StoredResult>, AppError> {
        self.result.as_ref().map(|r| StoredResult::from_json(r.get())).transpose()
    }

    /// The committed showdown, typed (`None` for an open hand).
    pub fn stored_showdown(&self) -> Result<Option<ShowdownInput>, AppError> {
        self.showdown
            .as_ref()
            .map(|r| {
                serde_json::from_str(r.get())
                    .map_err(|e| AppError::internal(format!("a committed showdown does not read back: {e}")))
            })
            .transpose()
    }
}

/// A hand with everything a use case needs of it.
struct Hand {
    row: HandRow,
    ruleset: Ruleset,
    seats: Vec<HandSeatView>,
}

fn load(conn: &mut DbConnection, table: TableId, number: HandNumber) -> Result<Hand, AppError> {
    let (row, seats) = q::hand(conn, table, number)?
        .ok_or_else(|| AppError::not_found("no_hand", format!("table {table} has no hand {number}")))?;
    let seats = seats.into_iter().map(Into::into).collect();
    let ruleset = Ruleset::of(row.ruleset.clone())?;
    Ok(Hand { row, ruleset, seats })
}

// ---- the stored showdown ----

/// A row of cards stored compact: the canonical cards without spaces.
fn compact_cards(text: &str) -> String {
    text.split_whitespace().collect()
}

/// A compact row of cards spread out again (every card is two characters).
fn spread_cards(text: &str) -> String {
    if text.contains(char::is_whitespace) {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(2).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>().join(" ")
}

/// What the dealer entered, as stored: each seat's fields, cards compact.
fn seats_text(seats: &[SeatInput]) -> Result<String, AppError> {
    let compact: Vec<SeatInput> = seats
        .iter()
        .map(|s| {
            let c = |t: &Option<String>| t.as_deref().map(compact_cards);
            SeatInput {
                front: c(&s.front),
                middle: c(&s.middle),
                back: c(&s.back),
                cards: c(&s.cards),
                discards: c(&s.discards),
                ..s.clone()
            }
        })
        .collect();
    serde_json::to_string(&compact).map_err(AppError::internal)
}

fn seats_of_text(text: &str) -> Result<Vec<SeatInput>, AppError> {
    let seats: Vec<SeatInput> = serde_json::from_str(text)
        .map_err(|e| AppError::internal(format!("a stored showdown does not read back: {e}")))?;
    Ok(seats
        .into_iter()
        .map(|s| {
            let c = |t: &Option<String>| t.as_deref().map(spread_cards);
            SeatInput {
                front: c(&s.front),
                middle: c(&s.middle),
                back: c(&s.back),
                cards: c(&s.cards),
                discards: c(&s.discards),
                ..s
            }
        })
        .collect())
}

/// What the dealer entered, from either stored form.
fn stored_seats(stored: &StoredShowdown) -> Result<Vec<SeatInput>, AppError> {
    if let Some(z) = &stored.showdown_z {
        return seats_of_text(&showdown_z::unpack(z)?.0);
    }
    let input: ShowdownInput = serde_json::from_str(stored.engine_input.as_deref().unwrap_or_default())
        .map_err(|e| AppError::internal(format!("a stored showdown does not read back: {e}")))?;
    Ok(input
        .seats
        .into_iter()
        .map(|s| SeatInput { stack: None, in_fantasyland: false, exposure: None, fantasyland_cards: None, ..s })
        .collect())
}

/// The result as paid (CONTRACT.md's JSON, as the engine wrote it).
fn stored_result_json(stored: &StoredShowdown) -> Result<String, AppError> {
    match (&stored.showdown_z, &stored.result) {
        (Some(z), _) => Ok(showdown_z::unpack(z)?.1),
        (None, Some(json)) => Ok(json.clone()),
        (None, None) => Err(AppError::internal("a stored showdown has no result")),
    }
}

/// The engine's input the hand was scored from.
fn stored_engine_input(hand: &Hand, stored: &StoredShowdown) -> Result<ShowdownInput, AppError> {
    match &stored.engine_input {
        Some(json) => {
            let mut input: ShowdownInput = serde_json::from_str(json)
                .map_err(|e| AppError::internal(format!("a stored showdown does not read back: {e}")))?;
            // Inputs stored before revisions were recorded played their
            // version's (revision 1, pinned by the migration that added them).
            input.ruleset_revision.get_or_insert(u32::try_from(hand.ruleset.row.rules_revision).unwrap_or(1));
            Ok(input)
        }
        None => engine_input_for(hand, &stored_seats(stored)?),
    }
}

fn status_of(row: &HandRow) -> HandStatus {
    match (&row.showdown, &row.void) {
        (_, Some(_)) => HandStatus::Voided,
        (Some(_), None) => HandStatus::Committed,
        (None, None) => HandStatus::Open,
    }
}

fn hits(conn: &mut DbConnection, hand: HandId) -> Result<Vec<JackpotHitView>, AppError> {
    let rows = crate::db::jackpots::hits_of_hand(conn, hand)?;
    let status = jackpots::statuses(conn, &rows.iter().map(|r| r.0).collect::<Vec<_>>())?;
    Ok(rows
        .into_iter()
        .map(|(id, pool_id, kind, loser_seat, winner_seat, amount)| JackpotHitView {
            id,
            pool_id,
            kind,
            loser_seat,
            winner_seat,
            amount,
            status: status[&id],
        })
        .collect())
}

fn view(conn: &mut DbConnection, hand: Hand) -> Result<HandView, AppError> {
    let jackpot_hits = hit_views(conn, &hand)?;
    view_with(hand, jackpot_hits)
}

/// A hand's jackpot hits (none before its showdown).
fn hit_views(conn: &mut DbConnection, hand: &Hand) -> Result<Vec<JackpotHitView>, AppError> {
    if hand.row.showdown.is_some() {
        hits(conn, hand.row.id)
    } else {
        Ok(Vec::new())
    }
}

/// The view of a hand whose hits are known.
fn view_with(hand: Hand, jackpot_hits: Vec<JackpotHitView>) -> Result<HandView, AppError> {
    let status = status_of(&hand.row);
    let raw = |json: String| serde_json::value::RawValue::from_string(json).map_err(AppError::internal);
    let (result, showdown) = match &hand.row.showdown {
        Some(s) => {
            let input = serde_json::to_string(&stored_engine_input(&hand, s)?).map_err(AppError::internal)?;
            (Some(raw(stored_result_json(s)?)?), Some(raw(input)?))
        }
        None => (None, None),
    };
    Ok(HandView {
        id: hand.row.id,
        table_id: hand.row.table_id,
        number: hand.row.number,
        dealer_seat: hand.row.dealer_seat,
        status,
        ruleset: hand.ruleset.view(),
        seats: hand.seats,
        started_at: hand.row.started_at.and_utc(),
        result,
        showdown,
        jackpot_hits,
        void_reason: hand.row.void.as_ref().map(|v| v.reason),
        void_note: hand.row.void.map(|v| v.note),
    })
}

pub fn get_hand(conn: &mut DbConnection, table: TableId, number: HandNumber) -> Result<HandView, AppError> {
    let hand = load(conn, table, number)?;
    view(conn, hand)
}

/// The last hand committed and not voided.
pub fn last_committed(conn: &mut DbConnection, table: TableId) -> Result<Option<HandNumber>, AppError> {
    Ok(q::last_committed(conn, table)?.map(|h| h.1))
}

// ---- start ----

/// What a fantasyland hand carries from the hand it extends (issue 8).
struct Carry {
    /// The hand extended.
    from_hand: HandNumber,
    /// Seats in fantasyland next: (seat, seating, cards dealt).
    fantasyland: Vec<(SeatNo, SeatingId, i32)>,
    /// Exposure left after the hand extended, by seating.
    exposure: Vec<(SeatingId, Money)>,
    /// Seatings whose exposure was used up in the hand extended (or earlier
    /// in the same run of fantasyland hands).
    used_up: Vec<SeatingId>,
}

/// Exposure left per seat of a committed hand, from its stored engine input
/// and result: the exposure it started with (carried, or stack less rake)
/// less every amount it paid or was paid. Also whether any seat played it
/// from fantasyland.
fn exposure_after(input: &ShowdownInput, result: &StoredResult) -> Result<(Vec<(SeatNo, Money)>, bool), AppError> {
    let showdown =
        Showdown::from_input(input).map_err(|e| AppError::internal(format!("a committed hand does not parse: {e}")))?;
    let cents = |d| Money::from_decimal(d).ok_or_else(|| AppError::internal(format!("{d} is not whole cents")));
    let mut seats = Vec::with_capacity(showdown.seats.len());
    for s in &showdown.seats {
        let bound = cents(s.stack - showdown.rake_per_seat)?;
        let start = match s.exposure {
            Some(e) => cents(e)?.min(bound),
            None => bound,
        };
        seats.push((SeatNo(s.number as i32), (start - result.moved(s.number)).max(Money::ZERO)));
    }
    Ok((seats, showdown.seats.iter().any(|s| s.in_fantasyland)))
}

/// The fantasyland carry after the last committed hand (ofc presets), or
/// `None` when no seat qualified.
fn fantasyland_carry(conn: &mut DbConnection, table: TableId, ruleset: &Ruleset) -> Result<Option<Carry>, AppError> {
    let Some((_, number)) = q::last_committed(conn, table)? else {
        return Ok(None);
    };
    let last = load(conn, table, number)?;
    let Some(stored) = &last.row.showdown else { return Ok(None) };
    let result = StoredResult::from_json(&stored_result_json(stored)?)?;
    let default_cards = crate::engine::options::TableOptions::default().fantasyland_cards(
        ruleset.rules,
        crate::engine::eval::Strength3(0),
        false,
    ) as i32;
    let seatings: Vec<(SeatNo, SeatingId)> = last.seats.iter().map(|s| (s.seat, s.seating_id)).collect();
    let fantasyland: Vec<(SeatNo, SeatingId, i32)> = result
        .seats
        .iter()
        .filter(|s| s.fantasyland_next)
        .filter_map(|s| {
            let seat = SeatNo(s.seat as i32);
            let cards = s.fantasyland_cards.map_or(default_cards, |c| c as i32);
            seatings.iter().find(|x| x.0 == seat).map(|x| (seat, x.1, cards))
        })
        .collect();
    if fantasyland.is_empty() {
        return Ok(None);
    }
    // The hand extended, then back through the run of fantasyland hands it
    // belongs to: a seat that used up its exposure anywhere in the run sits
    // the rest of it out.
    let committed = q::recent_committed(conn, table, 64)?;
    let mut exposure = Vec::new();
    let mut used_up: Vec<SeatingId> = Vec::new();
    for (k, n) in committed.iter().enumerate() {
        let hand = load(conn, table, *n)?;
        let Some(stored) = &hand.row.showdown else { continue };
        let result = StoredResult::from_json(&stored_result_json(stored)?)?;
        let (left, extension) = exposure_after(&stored_engine_input(&hand, stored)?, &result)?;
        let seats: Vec<(SeatNo, SeatingId)> = hand.seats.iter().map(|s| (s.seat, s.seating_id)).collect();
        for (seat, amount) in left {
            let Some(&(_, seating)) = seats.iter().find(|s| s.0 == seat) else { continue };
            if k == 0 {
                exposure.push((seating, amount));
            }
            if amount.is_zero() && !used_up.contains(&seating) {
                used_up.push(seating);
            }
        }
        if !extension {
            break;
        }
    }
    Ok(Some(Carry { from_hand: number, fantasyland, exposure, used_up }))
}

/// Starts the next hand: the button moves clockwise to the next seat dealt
/// in; stacks at the start are recorded.
pub fn start_hand(db: &Database, actor: &Actor, table: TableId, req: StartHandRequest) -> Result<HandView, AppError> {
    let wanted = req.seats;
    let actor = actor.clone();
    db.write(Some(table), move |conn| {
        let last = tq::last_hand(conn, table)?;
        if let Some(l) = last.filter(|l| l.open) {
            return Err(AppError::conflict(
                "hand_in_progress",
                format!("hand {} is still in progress; commit or void it first", l.number),
            ));
        }
        // A closed table, or a closed gaming day, starts no hand (read with
        // the ruleset: one statement).
        let started_at = now();
        let version = ruleset_to_start(conn, table, started_at)?;
        let rules = version.rules;
        let options = version.options;
        let rake = version.row.rake_cents;
        let seated = tq::active_seatings(conn, table)?;
        let funded = |stack: Money| stack > Money::ZERO && stack >= rake;
        // A fantasyland hand extends the last hand (issue 8): seats that
        // used up their exposure do not play it; with no qualifying seat
        // left, or fewer than two seats, there is no fantasyland hand.
        let mut carry = if rules.fantasyland.is_some() { fantasyland_carry(conn, table, &version)? } else { None };
        let tournament = options.tournament;
        let sits_out = |carry: &Option<Carry>, s: &Seated| {
            !tournament && carry.as_ref().is_some_and(|c| c.used_up.contains(&s.seating))
        };
        let eligible_of = |carry: &Option<Carry>| -> Vec<&Seated> {
            seated.iter().filter(|s| funded(s.stack) && !sits_out(carry, s)).collect()
        };
        if let Some(c) = &carry {
            let eligible = eligible_of(&carry);
            let in_play = c.fantasyland.iter().any(|f| eligible.iter().any(|s| s.seating == f.1));
            let players = eligible.len().saturating_sub(usize::from(options.final_table));
            if !in_play || players < 2 {
                carry = None;
            }
        }
        let eligible = eligible_of(&carry);
        // The final table of five: the button moves round the five seats and
        // the button seat does not play.
        let button = match (options.final_table, last) {
            (false, _) => None,
            (true, None) => eligible.first().map(|s| s.seat),
            (true, Some(l)) => {
                eligible.iter().map(|s| s.seat).find(|&s| s > l.dealer_seat).or(eligible.first().map(|s| s.seat))
            }
        };
        let dealt: Vec<&Seated> = match &wanted {
            Some(wanted) => {
                let mut dealt: Vec<&Seated> = Vec::new();
                for &seat in wanted {
                    let refuse = |code, why: String| AppError::invalid(code, why).at_field("seats");
                    let s = seated
                        .iter()
                        .find(|s| s.seat == SeatNo(seat))
                        .ok_or_else(|| refuse("seat_empty", format!("seat {seat} has no player")))?;
                    if !funded(s.stack) {
                        return Err(refuse(
                            "stack_below_rake",
                            format!("seat {seat}'s stack {} does not cover the rake {rake}", s.stack),
                        ));
                    }
                    if sits_out(&carry, s) {
                        return Err(refuse(
                            "exposure_used_up",
                            format!(
                                "seat {seat} used up its exposure in hand {}; it does not play the fantasyland hand \
                                 that extends it",
                                carry.as_ref().map_or(HandNumber(0), |c| c.from_hand)
                            ),
                        ));
                    }
                    if button == Some(s.seat) {
                        return Err(refuse(
                            "button_sits_out",
                            format!("seat {seat} has the button at the final table and does not play this hand"),
                        ));
                    }
                    if dealt.iter().any(|d| d.seat == s.seat) {
                        return Err(refuse("repeated_seat", format!("seat {seat} is listed twice")));
                    }
                    dealt.push(s);
                }
                dealt.sort_unstable_by_key(|d| d.seat);
                dealt
            }
            None => eligible.iter().copied().filter(|s| Some(s.seat) != button).collect(),
        };
        if dealt.len() < 2 {
            return Err(AppError::invalid(
                "too_few_seats",
                format!(
                    "a hand needs at least 2 seats dealt in with stacks covering the rake; there are {}",
                    dealt.len()
                ),
            ));
        }
        let most = options.max_players(rules);
        if dealt.len() > most {
            return Err(AppError::invalid(
                "too_many_seats",
                format!(
                    "{} is played by at most {most} players{}; {} seats would be dealt in: choose the seats",
                    rules.name,
                    if options.double_deck { " with a double deck" } else { "" },
                    dealt.len()
                ),
            ));
        }
        let number = HandNumber(last.map_or(1, |l| l.number.get() + 1));
        let dealer = match (button, last) {
            (Some(b), _) => b,
            (None, None) => dealt[0].seat,
            (None, Some(l)) => dealt.iter().map(|d| d.seat).find(|&s| s > l.dealer_seat).unwrap_or(dealt[0].seat),
        };
        let seats: Vec<HandSeatView> = dealt
            .iter()
            .map(|s| {
                let fl = carry.as_ref().and_then(|c| c.fantasyland.iter().find(|f| f.1 == s.seating));
                let exposure = match &carry {
                    Some(c) if !tournament => {
                        c.exposure.iter().find(|e| e.0 == s.seating).map(|e| e.1.min(s.stack - rake))
                    }
                    _ => None,
                };
                HandSeatView {
                    seat: s.seat,
                    seating_id: s.seating,
                    player: s.player.clone(),
                    stack_start: s.stack,
                    in_fantasyland: fl.is_some(),
                    exposure_start: exposure,
                    fantasyland_cards: fl.map(|f| f.2),
                }
            })
            .collect();
        let rows: Vec<HandSeatRow> = seats
            .iter()
            .map(|s| HandSeatRow {
                seat: s.seat,
                seating_id: s.seating_id,
                stack_start_cents: s.stack_start,
                in_fantasyland: s.in_fantasyland,
                player: s.player.clone(),
                exposure_start_cents: s.exposure_start,
                fantasyland_cards: s.fantasyland_cards,
            })
            .collect();
        let hand_id = q::insert_hand(
            conn,
            &q::NewHand { table, number, dealer_seat: dealer, ruleset: version.row.id, started_at, seats: rows },
        )?;
        audit::record(
            conn,
            &actor,
            "hand_start",
            &format!("table {table} hand {number}"),
            // The hand's row holds its dealer, seats and ruleset version.
            serde_json::json!({}),
        )?;
        Ok(HandView {
            id: hand_id,
            table_id: table,
            number,
            dealer_seat: dealer,
            status: HandStatus::Open,
            ruleset: version.view(),
            seats,
            started_at: started_at.and_utc(),
            result: None,
            showdown: None,
            jackpot_hits: Vec::new(),
            void_reason: None,
            void_note: None,
        })
    })
}

// ---- preview and commit ----

/// Cards in a canonical form (notation and order within the row do not
/// matter), so that the same showdown typed twice is the same commit. Text
/// that is not cards is kept as it is, for the engine to report.
fn canonical_cards(text: &str) -> String {
    match crate::engine::parse_cards(text) {
        Ok(mut cards) => {
            cards.sort_unstable();
            crate::engine::card::display_cards(&cards)
        }
        Err(_) => text.to_string(),
    }
}

/// What the dealer entered for this hand, checked against its seats and
/// with the cards in canonical form: one entry per seat dealt in, in seat
/// order (the fields the hand itself gives are refused).
fn entered_seats(hand: &Hand, req: &ShowdownRequest) -> Result<Vec<SeatInput>, AppError> {
    let number = hand.row.number;
    for s in &req.seats {
        if s.stack.is_some() || s.in_fantasyland || s.exposure.is_some() || s.fantasyland_cards.is_some() {
            return Err(AppError::invalid(
                "hand_fields",
                format!(
                    "seat {}: stack, in_fantasyland, exposure and fantasyland_cards come from the hand; leave them out",
                    s.seat
                ),
            )
            .at_seat(s.seat));
        }
        if !hand.seats.iter().any(|h| h.seat.engine() == s.seat) {
            return Err(AppError::invalid(
                "seat_not_dealt",
                format!("seat {} is not dealt in to hand {number}", s.seat),
            )
            .at_seat(s.seat));
        }
    }
    let mut seats = Vec::with_capacity(hand.seats.len());
    for h in &hand.seats {
        let mut given = req.seats.iter().filter(|s| s.seat == h.seat.engine());
        let s = given.next().ok_or_else(|| {
            AppError::invalid("seat_missing", format!("seat {} is dealt in but has no cards in the showdown", h.seat))
                .at_seat(h.seat.engine())
        })?;
        if given.next().is_some() {
            return Err(
                AppError::invalid("repeated_seat", format!("seat {} is listed twice", h.seat)).at_seat(h.seat.engine())
            );
        }
        let canonical = |text: &Option<String>| text.as_deref().map(canonical_cards);
        seats.push(SeatInput {
            front: canonical(&s.front),
            middle: canonical(&s.middle),
            back: canonical(&s.back),
            cards: canonical(&s.cards),
            discards: canonical(&s.discards),
            ..s.clone()
        });
    }
    if req.pair_units.is_some() {
        return Err(AppError::invalid(
            "pair_units_on_ruleset",
            "pair_units: per-pair stakes are part of the table's ruleset, set by a floor supervisor \
             (PUT /api/v1/tables/{id}/ruleset); a showdown cannot change them",
        )
        .at_field("pair_units"));
    }
    Ok(seats)
}

/// The engine's input for this hand and what was entered (seats clockwise
/// from seat 1): the stacks, fantasyland, exposures, dealer, preset and its
/// revision, unit, rake, options and per-pair stakes are the hand's and its
/// ruleset version's.
fn engine_input_for(hand: &Hand, entered: &[SeatInput]) -> Result<ShowdownInput, AppError> {
    let mut seats = Vec::with_capacity(entered.len());
    for s in entered {
        let h = hand.seats.iter().find(|h| h.seat.engine() == s.seat).ok_or_else(|| {
            AppError::invalid("seat_not_dealt", format!("seat {} is not dealt in to hand {}", s.seat, hand.row.number))
                .at_seat(s.seat)
        })?;
        seats.push(SeatInput {
            stack: Some(MoneyText::Text(h.stack_start.to_string())),
            in_fantasyland: h.in_fantasyland,
            exposure: h.exposure_start.map(|e| MoneyText::Text(e.to_string())),
            fantasyland_cards: h.fantasyland_cards.map(|c| c as u32),
            ..s.clone()
        });
    }
    let v = &hand.ruleset;
    // The table's per-pair stakes, for the pairs dealt in to this hand.
    let dealt = |seat: SeatNo| hand.seats.iter().any(|s| s.seat == seat);
    let pair_units: Vec<PairUnitInput> = v
        .pair_units
        .iter()
        .filter(|p| dealt(p.seats[0]) && dealt(p.seats[1]))
        .map(|p| PairUnitInput {
            seats: [p.seats[0].engine(), p.seats[1].engine()],
            unit: MoneyText::Text(p.unit_cents.to_string()),
        })
        .collect();
    // At the final table the button seat does not play: settlement starts
    // with the first seat dealt in after it.
    let dealer_seat = hand.row.dealer_seat;
    let dealer = if hand.seats.iter().any(|s| s.seat == dealer_seat) {
        dealer_seat
    } else {
        hand.seats.iter().map(|s| s.seat).find(|&s| s > dealer_seat).unwrap_or(hand.seats[0].seat)
    };
    Ok(ShowdownInput {
        ruleset: Some(v.row.preset.clone()),
        unit: Some(MoneyText::Text(v.row.unit_cents.to_string())),
        dealer: Some(dealer.engine()),
        rake: Some(crate::engine::showdown::RakeInput {
            per_seat: Some(MoneyText::Text(v.row.rake_cents.to_string())),
            jackpot: Some(MoneyText::Text(v.row.jackpot_cents.to_string())),
        }),
        pair_units: (!pair_units.is_empty()).then_some(pair_units),
        seats,
        // The options as stored: the engine checks them (a setting the house
        // must still fill in is refused here, by name).
        options: stored_options(&v.row.options)?,
        ruleset_revision: Some(u32::try_from(v.row.rules_revision).unwrap_or(1)),
    })
}

/// A version's stored options (`{}` when none differ from the default).
fn stored_options(text: &str) -> Result<Option<serde_json::Value>, AppError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(AppError::internal)?;
    Ok(value.as_object().is_some_and(|o| !o.is_empty()).then_some(value))
}

fn score_input(input: &ShowdownInput) -> Result<ScoreResult, AppError> {
    Ok(score(&Showdown::from_input(input)?)?)
}

/// How a showdown sent differs from the one committed, in words: the first
/// three seats or fields that differ (`seat 2 middle: committed "…", sent "…"`).
fn showdown_difference(stored: &[SeatInput], sent: &[SeatInput]) -> String {
    let field = |s: &SeatInput, name: &str| -> String {
        let text = |t: &Option<String>| t.clone().unwrap_or_default();
        match name {
            "front" => text(&s.front),
            "middle" => text(&s.middle),
            "back" => text(&s.back),
            "cards" => text(&s.cards),
            "discards" => text(&s.discards),
            "claim" => text(&s.claim),
            "surrender" => s.surrender.to_string(),
            "aces_bet" => s.aces_bet.map_or(String::new(), |b| b.to_string()),
            _ => s.penalties.clone().unwrap_or_default().join(" "),
        }
    };
    let mut out = Vec::new();
    for a in stored {
        let Some(b) = sent.iter().find(|b| b.seat == a.seat) else { continue };
        for name in ["front", "middle", "back", "cards", "discards", "claim", "surrender", "aces_bet", "penalties"] {
            let (was, now) = (field(a, name), field(b, name));
            if was != now {
                out.push(format!("seat {} {name}: committed {was:?}, sent {now:?}", a.seat));
            }
        }
    }
    match out.len() {
        0 => "the stakes or options differ".to_string(),
        1..=3 => out.join("; "),
        n => format!("{}; and {} more", out[..3].join("; "), n - 3),
    }
}

/// Scores the showdown without writing anything.
pub fn preview(
    conn: &mut DbConnection,
    table: TableId,
    number: HandNumber,
    req: &ShowdownRequest,
) -> Result<ScoreResult, AppError> {
    let hand = load(conn, table, number)?;
    score_input(&engine_input_for(&hand, &entered_seats(&hand, req)?)?)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct CommitView {
    pub hand: HandView,
    /// False when this answer repeats an earlier, identical commit.
    pub created: bool,
}

fn cents(d: rust_decimal::Decimal) -> Result<Money, AppError> {
    Money::from_decimal(d).ok_or_else(|| AppError::internal(format!("the engine paid {d}, not whole cents")))
}

/// Commits the showdown: settlement, stack changes, rake, jackpot
/// contribution and hits in one transaction, with the day's rollups. A
/// repeated identical commit (with or without the same `Idempotency-Key`)
/// answers the first result; a different showdown for a committed hand is a
/// conflict naming the difference.
///
/// A hand without a jackpot hit costs the database: the hand (one query),
/// the ledger rows, the showdown, the audit row, the table's day and the
/// seats' totals (one statement each).
pub fn commit(
    db: &Database,
    actor: &Actor,
    table: TableId,
    number: HandNumber,
    req: ShowdownRequest,
    idempotency_key: Option<String>,
) -> Result<CommitView, AppError> {
    let actor = actor.clone();
    let started = std::time::Instant::now();
    // The answer's view is built after the write, off the writer (it reads
    // the stored showdown back).
    let (created, hand, jackpot_hits) = db.write(Some(table), move |conn| {
        let mut hand = load(conn, table, number)?;
        if hand.row.void.is_some() {
            return Err(AppError::conflict("hand_voided", format!("hand {number} was voided")));
        }
        let entered = entered_seats(&hand, &req)?;
        let entered_text = seats_text(&entered)?;
        if let Some(stored) = &hand.row.showdown {
            let committed = stored_seats(stored)?;
            if seats_text(&committed)? == entered_text {
                let hits = hit_views(conn, &hand)?;
                return Ok((false, hand, hits));
            }
            let difference = showdown_difference(&committed, &entered);
            if idempotency_key.is_some() && stored.idempotency_key == idempotency_key {
                return Err(AppError::conflict(
                    "already_committed",
                    format!(
                        "this Idempotency-Key already committed hand {number} with a different showdown \
                         ({difference}); nothing was changed: a floor supervisor can void the hand"
                    ),
                ));
            }
            return Err(AppError::conflict(
                "already_committed",
                format!(
                    "hand {number} is already committed with a different showdown ({difference}); nothing was \
                     changed: a floor supervisor can void it"
                ),
            ));
        }
        let input = engine_input_for(&hand, &entered)?;
        let result = score_input(&input)?;
        let at = now();
        let clock = crate::db::rollups::clock(&hand.row.time_zone, &hand.row.gaming_day_cutoff)?;
        let day = crate::db::rollups::day(clock, at);
        let rake = hand.ruleset.row.rake_cents;
        let jackpot = hand.ruleset.row.jackpot_cents;
        let n = hand.seats.len() as i64;
        let hand_id = hand.row.id;
        let on_table =
            |kind, amount| NewEntry { table_id: Some(table), hand_id: Some(hand_id), ..NewEntry::new(kind, amount) };
        let mut entries = Vec::new();
        if !rake.is_zero() {
            entries.push(on_table(EntryKind::HouseRake, (rake - jackpot) * n));
        }
        if !jackpot.is_zero() {
            let pool = hand.row.pool_id.ok_or_else(|| {
                AppError::conflict(
                    "jackpot_without_pool",
                    "the table's ruleset has a jackpot part but the table feeds no pool",
                )
            })?;
            entries.push(NewEntry { pool_id: Some(pool), ..on_table(EntryKind::JackpotContribution, jackpot * n) });
        }
        // One row per seat, its result: the net of the hand's transactions
        // (which are on the stored sheet) less its rake, with the rake in it.
        for s in &hand.seats {
            let mut net = Money::ZERO;
            for t in &result.transactions {
                let paid = cents(t.paid)?;
                if t.payer == s.seat.engine() {
                    net = net - paid;
                }
                if t.payee == s.seat.engine() {
                    net += paid;
                }
            }
            if !(net.is_zero() && rake.is_zero()) {
                entries.push(NewEntry {
                    seating_id: Some(s.seating_id),
                    rake_cents: Some(rake),
                    ..on_table(EntryKind::HandResult, net - rake)
                });
            }
        }
        crate::db::rollups::add_table_day(
            conn,
            table,
            &day,
            hand.row.pool_id,
            TableDay {
                hands: 1,
                rake: rake * n,
                house: (rake - jackpot) * n,
                jackpot: jackpot * n,
                pool_in: if hand.row.pool_id.is_some() { jackpot * n } else { Money::ZERO },
            },
        )?;
        let seatings: Vec<SeatingId> = hand.seats.iter().map(|s| s.seating_id).collect();
        crate::db::rollups::add_rake(conn, &seatings, rake)?;
        let result_json = serde_json::to_string(&result).map_err(AppError::internal)?;
        let packed = showdown_z::pack(&entered_text, &result_json)?;
        q::insert_showdown(
            conn,
            &q::NewShowdown {
                hand: hand_id,
                idempotency_key: idempotency_key.as_deref(),
                showdown_z: &packed,
                committed_at: at,
            },
        )?;
        // The ledger rows last: a contribution takes the lock of its table's
        // share of the pool (the database keeps the balance there) until the
        // commit.
        let hits_pool = hand.row.pool_id.filter(|_| !result.jackpot_triggers.is_empty());
        if let Some(pool) = hits_pool {
            // Before this hand's rows reference the pool (PostgreSQL would
            // otherwise deadlock two hits on a shared pool).
            lock_pool(conn, pool)?;
        }
        // No add-on or cash-out can happen while a hand is open: each seat's
        // stack is still its stack at the start.
        let known: Vec<(SeatingId, Money)> = hand.seats.iter().map(|s| (s.seating_id, s.stack_start)).collect();
        ledger::insert_with(conn, &entries, &known)?;
        let mut jackpot_hits = Vec::new();
        if let Some(pool) = hits_pool {
            let seed = tq::pool(conn, pool)?.map_or(Money::ZERO, |p| p.seed_cents);
            for trigger in &result.jackpot_triggers {
                let amount = ledger::pool_balance(conn, pool)?;
                if amount <= Money::ZERO {
                    // Nothing to lock (a pool seeded with 0 and not fed
                    // since): the trigger stays on the sheet, no hit.
                    continue;
                }
                let (loser, winner) = (SeatNo(trigger.loser as i32), SeatNo(trigger.winner as i32));
                let hit = crate::db::jackpots::insert_hit(
                    conn,
                    &crate::db::jackpots::NewHit { pool, hand: hand_id, kind: trigger.kind, loser, winner, amount },
                )?;
                ledger::insert(
                    conn,
                    &[
                        NewEntry {
                            pool_id: Some(pool),
                            jackpot_hit_id: Some(hit),
                            ..on_table(EntryKind::JackpotLock, -amount)
                        },
                        NewEntry { pool_id: Some(pool), ..on_table(EntryKind::PoolSeed, seed) },
                    ],
                )?;
                rollups::add_pool_day(conn, pool, at, PoolDay { locked: amount, seeds: seed, ..Default::default() })?;
                jackpot_hits.push(JackpotHitView {
                    id: hit,
                    pool_id: pool,
                    kind: trigger.kind.to_string(),
                    loser_seat: loser,
                    winner_seat: winner,
                    amount,
                    status: HitStatus::Pending,
                });
            }
        }
        audit::record(
            conn,
            &actor,
            "hand_commit",
            &format!("table {table} hand {number}"),
            match jackpot_hits.len() {
                0 => serde_json::json!({}),
                n => serde_json::json!({ "jackpot_hits": n }),
            },
        )?;
        hand.row.showdown = Some(StoredShowdown {
            idempotency_key,
            committed_at: at,
            showdown_z: Some(packed),
            request_hash: None,
            engine_input: None,
            result: None,
        });
        Ok((true, hand, jackpot_hits))
    })?;
    let hand = view_with(hand, jackpot_hits)?;
    if created {
        crate::metrics::hand_committed(started.elapsed());
    }
    Ok(CommitView { hand, created })
}

// ---- void ----

/// Voids a hand: new rows reverse every money row of the hand; an open hand
/// (a misdeal) is closed with no money moved. Needs a reason code and a
/// note; refused once a jackpot hit of the hand has been signed off. A
/// jackpot contribution a later hit has locked stays in that hit: the house
/// refunds it to the players (`contribution_refund`).
pub fn void(
    db: &Database,
    actor: &Actor,
    table: TableId,
    number: HandNumber,
    req: VoidRequest,
) -> Result<HandView, AppError> {
    let reason = req.reason;
    let note = req.note.trim().to_string();
    super::check_text(&note, "note")?;
    if note.is_empty() || note.chars().count() > 500 {
        return Err(
            AppError::invalid("note_required", "note: say what happened (1 to 500 characters)").at_field("note")
        );
    }
    let actor = actor.clone();
    let ledger_reason = format!("{reason}: {note}");
    db.write(Some(table), move |conn| {
        let hand = load(conn, table, number)?;
        if hand.row.void.is_some() {
            return Err(AppError::conflict("hand_voided", format!("hand {number} is already voided")));
        }
        // A hand of a closed gaming day: the correction goes into the open
        // day (the table's today), naming the closed one.
        let clock = crate::db::rollups::clock(&hand.row.time_zone, &hand.row.gaming_day_cutoff)?;
        let hand_day = hand.row.showdown.as_ref().map(|s| crate::db::rollups::day(clock, s.committed_at));
        let booked_day = match &hand_day {
            Some(d) => super::gaming_days::booking_day_for_void(
                conn,
                hand.row.id,
                table,
                d,
                &crate::db::rollups::day(clock, now()),
            )?,
            None => None,
        };
        let ledger_reason = match (&booked_day, &hand_day) {
            (Some(open), Some(closed)) => {
                format!("{ledger_reason} (correction of closed gaming day {closed}, booked on {open})")
            }
            _ => ledger_reason.clone(),
        };
        // Stacks move only between hands (a hand in progress settles from
        // the stacks it started with); the open hand itself may be voided.
        if let Some(open) = tq::open_hand(conn, table)? {
            if open.number != number {
                return Err(AppError::conflict(
                    "hand_in_progress",
                    format!("hand {} is in progress; void hand {number} between hands", open.number),
                ));
            }
        }
        let hit_ids: Vec<HitId> = crate::db::jackpots::hits_of_hand(conn, hand.row.id)?.iter().map(|h| h.0).collect();
        if let Some((hit, action)) = crate::db::jackpots::actions_of(conn, &hit_ids)?.first() {
            return Err(AppError::conflict(
                "hit_signed_off",
                format!("jackpot hit {hit} of hand {number} has been signed off ({action}); it cannot be voided now"),
            ));
        }
        crate::db::hands::insert_void(conn, hand.row.id, reason, &note, actor.user_id)?;
        audit::record(
            conn,
            &actor,
            "hand_void",
            &format!("table {table} hand {number}"),
            serde_json::json!({
                "reason": reason, "note": note,
                "was": if hand.row.showdown.is_some() { "committed" } else { "open" },
                "correction_of": booked_day.as_ref().and(hand_day.as_ref()),
            }),
        )?;
        let entries = ledger::entries_for_hand(conn, hand.row.id)?;
        // Pools first, before any row of this void names them (PostgreSQL
        // serialises the pool's negative rows; SQLite has one writer).
        let mut pools: Vec<PoolId> = entries.iter().filter_map(|e| e.pool_id).collect();
        pools.sort_unstable();
        pools.dedup();
        for &pool in &pools {
            lock_pool(conn, pool)?;
        }
        // One time for the void's rows and the rollups they change, so that
        // a recount from the rows books them on the same days.
        let at = now();
        let mut reversals: Vec<NewEntry> = Vec::with_capacity(entries.len());
        // (A hand result of no stack change still gives its rake back.)
        for e in entries.iter().filter(|e| !(e.amount_cents.is_zero() && e.rake_cents.is_none_or(|r| r.is_zero()))) {
            // Money of this hand that a later jackpot hit has locked stays in
            // that hit (a locked amount never changes).
            let locked_by = match e.pool_id {
                Some(pool) => jackpots::standing_lock_after(conn, pool, e.id, hand.row.id)?,
                None => None,
            };
            match (e.kind, locked_by) {
                (_, None) => reversals.push(NewEntry {
                    table_id: e.table_id,
                    hand_id: e.hand_id,
                    seating_id: e.seating_id,
                    pool_id: e.pool_id,
                    jackpot_hit_id: e.jackpot_hit_id,
                    reverses_id: Some(e.id),
                    reason: Some(&ledger_reason),
                    created_at: at,
                    rake_cents: e.rake_cents.map(|r| -r),
                    ..NewEntry::new(EntryKind::Reversal, -e.amount_cents)
                }),
                // The players still get their whole rake back: the house
                // pays the jackpot part.
                (EntryKind::JackpotContribution, Some(_)) => reversals.push(NewEntry {
                    table_id: e.table_id,
                    hand_id: e.hand_id,
                    reverses_id: Some(e.id),
                    reason: Some(&ledger_reason),
                    created_at: at,
                    ..NewEntry::new(EntryKind::ContributionRefund, -e.amount_cents)
                }),
                // This hand's own hit re-seeded the pool and a later hit has
                // locked that seed: taking it back would take that hit's money.
                (_, Some((later, later_hand))) => {
                    return Err(AppError::conflict(
                        "locked_by_later_hit",
                        format!(
                            "jackpot hit {later} (hand {later_hand}) has locked the pool since hand {number}'s own \
                             jackpot hit re-seeded it; voiding hand {number} would take money from that hit, so it \
                             is refused"
                        ),
                    ));
                }
            }
        }
        // The books must stay whole: a void may not take a departed player's
        // money back, nor leave a stack below zero.
        let seated = tq::active_seatings(conn, table)?;
        for seating in reversals.iter().filter_map(|r| r.seating_id) {
            let seat = hand.seats.iter().find(|s| s.seating_id == seating).map_or(SeatNo(0), |s| s.seat);
            let Some(now_seated) = seated.iter().find(|s| s.seating == seating) else {
                return Err(AppError::conflict(
                    "player_left",
                    format!(
                        "the player of seat {seat} in hand {number} has cashed out; settle with them before voiding"
                    ),
                ));
            };
            let change: Money =
                reversals.iter().filter(|r| r.seating_id == Some(seating)).map(|r| r.amount_cents).sum();
            if now_seated.stack + change < Money::ZERO {
                return Err(AppError::conflict(
                    "stack_would_go_negative",
                    format!(
                        "voiding hand {number} would leave seat {seat} at {}; they have lost chips since",
                        now_seated.stack + change
                    ),
                ));
            }
        }
        // Nor take the money on the table past its limit (a void gives back
        // what the hand took, which may since have been bought in again).
        let back: Money = reversals.iter().filter(|r| r.seating_id.is_some()).map(|r| r.amount_cents).sum();
        if back > Money::ZERO {
            check_table_money(seated.iter().map(|s| s.stack), back, &format!("voiding hand {number}"))
                .map_err(|e| AppError::conflict(e.code, e.message))?;
        }
        // Money in before money out: each account's running balance rises
        // to its end and falls to it, never below both (a pool or a stack
        // the database checks row by row stays at zero or more).
        reversals.sort_by_key(|r| std::cmp::Reverse(r.amount_cents));
        ledger::insert(conn, &reversals)?;
        // The rollups: the hand leaves its commit day; what left the pool
        // today is today's.
        if let Some(stored) = &hand.row.showdown {
            let clock = crate::db::rollups::clock(&hand.row.time_zone, &hand.row.gaming_day_cutoff)?;
            let kind_of = |id| entries.iter().find(|e| Some(e.id) == id).map(|e| e.kind);
            let mut commit_day = TableDay { hands: -1, ..Default::default() };
            let mut void_day = TableDay::default();
            let mut pool_day = PoolDay::default();
            let mut seats: Vec<(SeatingId, SeatingTotals)> = Vec::new();
            for r in &reversals {
                let a = r.amount_cents;
                match (r.kind, kind_of(r.reverses_id)) {
                    (EntryKind::ContributionRefund, _) => commit_day.house += a,
                    (_, Some(k @ (EntryKind::Rake | EntryKind::HandResult))) => {
                        let rake = ledger::rake_taken(k, a, r.rake_cents);
                        commit_day.rake += rake;
                        if let Some(s) = r.seating_id {
                            seats.push((s, SeatingTotals { rake, ..Default::default() }));
                        }
                    }
                    (_, Some(EntryKind::HouseRake)) => commit_day.house += a,
                    (_, Some(EntryKind::JackpotContribution)) => {
                        commit_day.jackpot += a;
                        void_day.pool_in += a;
                    }
                    (_, Some(EntryKind::JackpotLock)) => pool_day.locked += -a,
                    (_, Some(EntryKind::PoolSeed)) => pool_day.seeds += a,
                    _ => {}
                }
            }
            let pool = hand.row.pool_id;
            // The hand leaves its commit day, or, that day being closed, the
            // open day takes the correction.
            let booked = booked_day.clone().unwrap_or_else(|| crate::db::rollups::day(clock, stored.committed_at));
            crate::db::rollups::add_table_day(conn, table, &booked, pool, commit_day)?;
            if !void_day.pool_in.is_zero() {
                // Today's (or, for a correction of a closed day, the open day's).
                let today = booked_day.clone().unwrap_or_else(|| crate::db::rollups::day(clock, at));
                crate::db::rollups::add_table_day(conn, table, &today, pool, void_day)?;
            }
            if pool_day != PoolDay::default() {
                if let Some(p) = pool {
                    rollups::add_pool_day(conn, p, at, pool_day)?;
                }
            }
            crate::db::rollups::add_seating_totals(conn, &seats)?;
        }
        Ok(())
    })?;
    get_hand(&mut *db.conn()?, table, number)
}

// ---- rescore ----

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RescoreView {
    pub reproduced: bool,
    pub stored: serde_json::Value,
    pub rescored: serde_json::Value,
}

/// Scores a committed hand again from its stored input under the ruleset
/// version it was committed with.
pub fn rescore(conn: &mut DbConnection, table: TableId, number: HandNumber) -> Result<RescoreView, AppError> {
    let hand = load(conn, table, number)?;
    let stored = hand
        .row
        .showdown
        .as_ref()
        .ok_or_else(|| AppError::conflict("not_committed", format!("hand {number} is not committed")))?;
    let input = stored_engine_input(&hand, stored)?;
    let rescored = serde_json::to_value(score_input(&input)?).map_err(AppError::internal)?;
    let stored: serde_json::Value = serde_json::from_str(&stored_result_json(stored)?).map_err(AppError::internal)?;
    Ok(RescoreView { reproduced: rescored == stored, stored, rescored })
}

// ---- scans from a card-reading shoe or an RFID table ----

pub fn scans(conn: &mut DbConnection, table: TableId, number: HandNumber) -> Result<Vec<q::ScanRow>, AppError> {
    let (hand, _) = q::hand(conn, table, number)?
        .ok_or_else(|| AppError::not_found("no_hand", format!("table {table} has no hand {number}")))?;
    Ok(q::scans(conn, hand.id)?)
}

/// Records one scanned card in an open hand. A card already scanned into the
/// hand, a full row or a seat not dealt in is refused and nothing is written.
/// (Each card once, also at a double-deck open-face table: the database
/// keeps one scan of a card a hand. Such a table's hands are entered.)
pub fn add_scan(
    db: &Database,
    actor: &Actor,
    table: TableId,
    number: HandNumber,
    req: ScanRequest,
) -> Result<Vec<q::ScanRow>, AppError> {
    let actor = actor.clone();
    let (seat, row) = (SeatNo(req.seat), req.row);
    let needed = match row.as_str() {
        "front" => 3,
        "middle" | "back" => 5,
        other => {
            return Err(
                AppError::invalid("bad_row", format!("row {other:?} is not front, middle or back")).at_field("row")
            )
        }
    };
    let card = crate::engine::Card::parse(req.card.trim(), 1)
        .map_err(|e| {
            AppError::invalid("bad_card", format!("seat {seat} {row}: {e}")).at_seat(seat.engine()).at_row(&row)
        })?
        .to_string();
    db.write(Some(table), move |conn| {
        let hand = load(conn, table, number)?;
        if hand.row.showdown.is_some() || hand.row.void.is_some() {
            return Err(AppError::conflict(
                "hand_closed",
                format!("hand {number} is closed; scans go to an open hand"),
            ));
        }
        if !hand.seats.iter().any(|s| s.seat == seat) {
            return Err(AppError::invalid("seat_not_dealt", format!("seat {seat} is not dealt in to hand {number}"))
                .at_seat(seat.engine()));
        }
        let existing = q::scans(conn, hand.row.id)?;
        if let Some(s) = existing.iter().find(|s| s.card == card) {
            return Err(AppError::conflict(
                "card_scanned_twice",
                format!("{card} was already scanned, into seat {} {}; it is not added twice", s.seat, s.row),
            )
            .at_seat(seat.engine())
            .at_row(&row));
        }
        if existing.iter().filter(|s| s.seat == seat && s.row == row).count() >= needed {
            return Err(AppError::conflict("row_full", format!("seat {seat} {row} already has its {needed} cards"))
                .at_seat(seat.engine())
                .at_row(&row));
        }
        q::insert_scan(conn, hand.row.id, seat, &row, &card)?;
        audit::record(
            conn,
            &actor,
            "card_scan",
            &format!("table {table} hand {number}"),
            serde_json::json!({ "seat": seat, "row": row, "card": card }),
        )
    })?;
    scans(&mut *db.conn()?, table, number)
}
