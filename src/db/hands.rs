//! The hand lifecycle: start (button, seats dealt in, stacks, fantasyland),
//! preview, commit (one transaction, idempotent), void (reversing rows).

use diesel::prelude::*;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::audit::{self, Actor};
use super::jackpots;
use super::ledger::{self, EntryKind, NewEntry};
use super::schema::{hand_seats, hand_voids, hands, jackpot_hits, seatings, showdowns};
use super::tables::{self, RulesetVersion};
use super::{lock_pool, now, Database, DbConnection};
use crate::engine::showdown::{MoneyText, PairUnitInput, SeatInput, ShowdownInput};
use crate::engine::{score, ScoreResult, Showdown};
use crate::error::AppError;
use crate::money::{from_cents, to_cents};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartHandRequest {
    /// Seats dealt in; default: every seated player whose stack covers the rake.
    pub seats: Option<Vec<i32>>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ShowdownRequest {
    /// CONTRACT.md's seats without `stack` and `in_fantasyland`, which come
    /// from the hand.
    pub seats: Vec<SeatInput>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_units: Option<Vec<PairUnitInput>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct HandSeatView {
    pub seat: i32,
    pub seating_id: i64,
    pub player: String,
    pub stack_start: Decimal,
    pub in_fantasyland: bool,
    /// A fantasyland hand extends the previous one: the exposure (RULES §8)
    /// the seat carries into it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposure_start: Option<Decimal>,
    /// Cards a fantasyland seat is dealt (13; pineapple 14 to 17).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fantasyland_cards: Option<i32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct JackpotHitView {
    pub id: i64,
    pub pool_id: i64,
    pub kind: String,
    pub loser_seat: i32,
    pub winner_seat: i32,
    pub amount: Decimal,
    pub status: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct HandView {
    /// The hand's id (ledger rows name it as `hand_id`).
    pub id: i64,
    pub table_id: i64,
    pub number: i32,
    pub dealer_seat: i32,
    pub status: &'static str,
    pub ruleset: tables::RulesetView,
    pub seats: Vec<HandSeatView>,
    pub started_at: chrono::DateTime<chrono::Utc>,
    /// The settlement sheet as committed (CONTRACT.md result), verbatim.
    pub result: Option<Box<serde_json::value::RawValue>>,
    /// The showdown as committed (CONTRACT.md input, cards in canonical order).
    pub showdown: Option<Box<serde_json::value::RawValue>>,
    pub jackpot_hits: Vec<JackpotHitView>,
    /// The void's reason code (`VOID_REASONS`) and note.
    pub void_reason: Option<String>,
    pub void_note: Option<String>,
}

struct HandRow {
    id: i64,
    number: i32,
    dealer_seat: i32,
    /// The pool the table feeds.
    pool_id: Option<i64>,
    version: RulesetVersion,
    started_at: chrono::NaiveDateTime,
    seats: Vec<HandSeatView>,
    /// The commit: (request hash, idempotency key, result JSON, engine input JSON).
    stored: Option<(String, Option<String>, String, String)>,
    void_reason: Option<String>,
    void_note: Option<String>,
}

/// A hand with its ruleset version, commit and void (two queries).
fn hand_row(conn: &mut DbConnection, table_id: i64, number: i32) -> Result<HandRow, AppError> {
    use super::schema::{casino_tables, ruleset_versions};
    type Row = (
        (i64, i32, chrono::NaiveDateTime, Option<i64>),
        RulesetVersion,
        Option<(String, Option<String>, String, String)>,
        Option<(String, String)>,
    );
    let (hand, version, stored, void): Row = hands::table
        .inner_join(ruleset_versions::table.on(ruleset_versions::id.eq(hands::ruleset_version_id)))
        .inner_join(casino_tables::table.on(casino_tables::id.eq(hands::table_id)))
        .left_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(table_id))
        .filter(hands::number.eq(number))
        .select((
            (hands::id, hands::dealer_seat, hands::started_at, casino_tables::pool_id),
            RulesetVersion::as_select(),
            (showdowns::request_hash, showdowns::idempotency_key, showdowns::result, showdowns::engine_input)
                .nullable(),
            (hand_voids::reason, hand_voids::note).nullable(),
        ))
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::NotFound(format!("table {table_id} has no hand {number}")))?;
    let (id, dealer_seat, started_at, pool_id) = hand;
    type SeatRow = (i32, i64, i64, bool, String, Option<i64>, Option<i32>);
    let rows: Vec<SeatRow> = hand_seats::table
        .inner_join(seatings::table.on(seatings::id.eq(hand_seats::seating_id)))
        .filter(hand_seats::hand_id.eq(id))
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
        .load(conn)?;
    let seats = rows
        .into_iter()
        .map(|(seat, seating_id, stack, in_fantasyland, player, exposure, cards)| HandSeatView {
            seat,
            seating_id,
            player,
            stack_start: from_cents(stack),
            in_fantasyland,
            exposure_start: exposure.map(from_cents),
            fantasyland_cards: cards,
        })
        .collect();
    let (void_reason, void_note) = void.unzip();
    Ok(HandRow { id, number, dealer_seat, pool_id, version, started_at, seats, stored, void_reason, void_note })
}

fn hits(conn: &mut DbConnection, hand_id: i64) -> Result<Vec<JackpotHitView>, AppError> {
    let rows: Vec<(i64, i64, String, i32, i32, i64)> = jackpot_hits::table
        .filter(jackpot_hits::hand_id.eq(hand_id))
        .order(jackpot_hits::id.asc())
        .select((
            jackpot_hits::id,
            jackpot_hits::pool_id,
            jackpot_hits::kind,
            jackpot_hits::loser_seat,
            jackpot_hits::winner_seat,
            jackpot_hits::amount_cents,
        ))
        .load(conn)?;
    let status = jackpots::statuses(conn, &rows.iter().map(|r| r.0).collect::<Vec<_>>())?;
    Ok(rows
        .into_iter()
        .map(|(id, pool_id, kind, loser_seat, winner_seat, amount)| JackpotHitView {
            id,
            pool_id,
            kind,
            loser_seat,
            winner_seat,
            amount: from_cents(amount),
            status: status[&id],
        })
        .collect())
}

pub fn get_hand(conn: &mut DbConnection, table_id: i64, number: i32) -> Result<HandView, AppError> {
    let hand = hand_row(conn, table_id, number)?;
    hand_view(conn, table_id, hand)
}

fn hand_view(conn: &mut DbConnection, table_id: i64, hand: HandRow) -> Result<HandView, AppError> {
    let status = match (&hand.stored, &hand.void_reason) {
        (_, Some(_)) => "voided",
        (Some(_), None) => "committed",
        (None, None) => "open",
    };
    let jackpot_hits = if hand.stored.is_some() { hits(conn, hand.id)? } else { Vec::new() };
    let raw =
        |json: String| serde_json::value::RawValue::from_string(json).map_err(|e| AppError::Internal(e.to_string()));
    let (result, showdown) = match hand.stored {
        Some((_, _, result, input)) => (Some(raw(result)?), Some(raw(input)?)),
        None => (None, None),
    };
    Ok(HandView {
        id: hand.id,
        table_id,
        number: hand.number,
        dealer_seat: hand.dealer_seat,
        status,
        ruleset: (&hand.version).into(),
        seats: hand.seats,
        started_at: hand.started_at.and_utc(),
        result,
        showdown,
        jackpot_hits,
        void_reason: hand.void_reason,
        void_note: hand.void_note,
    })
}

/// What a fantasyland hand carries from the hand it extends (issue 8).
struct Carry {
    /// The hand extended.
    from_hand: i32,
    /// Seats in fantasyland next: (seat, seating id, cards dealt).
    fantasyland: Vec<(i32, i64, i32)>,
    /// Exposure left after the hand extended, by seating id, in cents.
    exposure: Vec<(i64, i64)>,
    /// Seatings whose exposure was used up in the hand extended (or earlier
    /// in the same run of fantasyland hands), with their seats.
    used_up: Vec<(i32, i64)>,
}

/// Exposure left per seat of a committed hand, from its stored engine input
/// and result: the exposure it started with (carried, or stack less rake)
/// less every amount it paid or was paid. Also whether any seat played it
/// from fantasyland.
fn exposure_after(input: &str, result: &str) -> Result<(Vec<(i32, Decimal)>, bool), AppError> {
    let input: ShowdownInput = serde_json::from_str(input).map_err(|e| AppError::Internal(e.to_string()))?;
    let showdown = Showdown::from_input(&input)
        .map_err(|e| AppError::Internal(format!("a committed hand does not parse: {e}")))?;
    let result: serde_json::Value = serde_json::from_str(result).map_err(|e| AppError::Internal(e.to_string()))?;
    let paid: Vec<(u32, u32, Decimal)> = result["transactions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| {
            let amount = t["paid"].as_str()?.parse::<Decimal>().ok()?;
            Some((t["payer"].as_u64()? as u32, t["payee"].as_u64()? as u32, amount))
        })
        .collect();
    let seats = showdown
        .seats
        .iter()
        .map(|s| {
            let bound = s.stack - showdown.rake_per_seat;
            let start = s.exposure.map_or(bound, |e| e.min(bound));
            let used: Decimal = paid.iter().filter(|t| t.0 == s.number || t.1 == s.number).map(|t| t.2).sum();
            (s.number as i32, (start - used).max(Decimal::ZERO))
        })
        .collect();
    Ok((seats, showdown.seats.iter().any(|s| s.in_fantasyland)))
}

/// The fantasyland carry after the last committed hand (ofc presets), or
/// `None` when no seat qualified.
fn fantasyland_carry(
    conn: &mut DbConnection,
    table_id: i64,
    version: &RulesetVersion,
) -> Result<Option<Carry>, AppError> {
    let Some((hand_id, number, result)) = last_committed_hand(conn, table_id)? else {
        return Ok(None);
    };
    let rules = version.rules()?;
    let default_cards = crate::engine::options::TableOptions::default().fantasyland_cards(
        rules,
        crate::engine::eval::Strength3(0),
        false,
    ) as i32;
    let parsed: serde_json::Value = serde_json::from_str(&result).map_err(|e| AppError::Internal(e.to_string()))?;
    let seatings_of = |conn: &mut DbConnection, hand: i64| -> Result<Vec<(i32, i64)>, AppError> {
        Ok(hand_seats::table
            .filter(hand_seats::hand_id.eq(hand))
            .select((hand_seats::seat, hand_seats::seating_id))
            .load(conn)?)
    };
    let seatings = seatings_of(conn, hand_id)?;
    let fantasyland: Vec<(i32, i64, i32)> = parsed["seats"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["fantasyland_next"].as_bool() == Some(true))
        .filter_map(|s| {
            let seat = s["seat"].as_i64()? as i32;
            let cards = s["fantasyland_cards"].as_i64().map_or(default_cards, |c| c as i32);
            seatings.iter().find(|x| x.0 == seat).map(|x| (seat, x.1, cards))
        })
        .collect();
    if fantasyland.is_empty() {
        return Ok(None);
    }
    // The hand extended, then back through the run of fantasyland hands it
    // belongs to: a seat that used up its exposure anywhere in the run sits
    // the rest of it out.
    let committed: Vec<(i64, String, String)> = hands::table
        .inner_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(table_id))
        .filter(hand_voids::id.is_null())
        .order(hands::number.desc())
        .select((hands::id, showdowns::engine_input, showdowns::result))
        .limit(64)
        .load(conn)?;
    let mut exposure = Vec::new();
    let mut used_up = Vec::new();
    for (k, (id, input, result)) in committed.iter().enumerate() {
        let (left, extension) = exposure_after(input, result)?;
        let seats = if k == 0 { seatings.clone() } else { seatings_of(conn, *id)? };
        for (seat, amount) in left {
            let Some(&(_, seating)) = seats.iter().find(|s| s.0 == seat) else { continue };
            let cents = cents(amount)?;
            if k == 0 {
                exposure.push((seating, cents));
            }
            if cents == 0 && !used_up.iter().any(|u: &(i32, i64)| u.1 == seating) {
                used_up.push((seat, seating));
            }
        }
        if !extension {
            break;
        }
    }
    Ok(Some(Carry { from_hand: number, fantasyland, exposure, used_up }))
}

/// The last hand committed and not voided: (id, number, result JSON).
pub fn last_committed_hand(conn: &mut DbConnection, table_id: i64) -> Result<Option<(i64, i32, String)>, AppError> {
    Ok(hands::table
        .inner_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(table_id))
        .filter(hand_voids::id.is_null())
        .order(hands::number.desc())
        .select((hands::id, hands::number, showdowns::result))
        .first(conn)
        .optional()?)
}

/// Starts the next hand: the button moves clockwise to the next seat dealt
/// in; stacks at the start are recorded.
pub fn start_hand(db: &Database, actor: &Actor, table_id: i64, req: &StartHandRequest) -> Result<HandView, AppError> {
    let wanted = req.seats.clone();
    let actor = actor.clone();
    db.write(Some(table_id), move |conn| {
        let last = tables::last_hand(conn, table_id)?;
        if let Some((_, n, _, true)) = last {
            return Err(AppError::Conflict(format!("hand {n} is still in progress; commit or void it first")));
        }
        let version = tables::current_ruleset(conn, table_id).map_err(|e| match e {
            AppError::NotFound(_) => AppError::NotFound(format!("no table {table_id}")),
            other => other,
        })?;
        let rules = version.rules()?;
        let options = version.table_options();
        let seated = tables::active_seatings(conn, table_id)?;
        let funded = |stack: i64| stack > 0 && stack >= version.rake_cents;
        type Seated = (i64, i32, String, i64);
        // A fantasyland hand extends the last hand (issue 8): seats that
        // used up their exposure do not play it; with no qualifying seat
        // left, or fewer than two seats, there is no fantasyland hand.
        let mut carry = if rules.fantasyland.is_some() { fantasyland_carry(conn, table_id, &version)? } else { None };
        let tournament = options.tournament;
        let sits_out = |carry: &Option<Carry>, s: &Seated| {
            !tournament && carry.as_ref().is_some_and(|c| c.used_up.iter().any(|u| u.1 == s.0))
        };
        let eligible_of = |carry: &Option<Carry>| -> Vec<&Seated> {
            seated.iter().filter(|s| funded(s.3) && !sits_out(carry, s)).collect()
        };
        if let Some(c) = &carry {
            let eligible = eligible_of(&carry);
            let in_play = c.fantasyland.iter().any(|f| eligible.iter().any(|s| s.0 == f.1));
            let players = eligible.len() - usize::from(options.final_table);
            if !in_play || players < 2 {
                carry = None;
            }
        }
        let eligible = eligible_of(&carry);
        // The final table of five: the button moves round the five seats and
        // the button seat does not play.
        let button = match (options.final_table, last) {
            (false, _) => None,
            (true, None) => eligible.first().map(|s| s.1),
            (true, Some((_, _, previous, _))) => {
                eligible.iter().map(|s| s.1).find(|&s| s > previous).or(eligible.first().map(|s| s.1))
            }
        };
        let dealt: Vec<&Seated> = match &wanted {
            Some(wanted) => {
                let mut dealt = Vec::new();
                for &seat in wanted {
                    let s = seated
                        .iter()
                        .find(|s| s.1 == seat)
                        .ok_or_else(|| AppError::Invalid(format!("seat {seat} has no player")))?;
                    if !funded(s.3) {
                        return Err(AppError::Invalid(format!(
                            "seat {seat}'s stack {} does not cover the rake {}",
                            from_cents(s.3),
                            from_cents(version.rake_cents)
                        )));
                    }
                    if sits_out(&carry, s) {
                        return Err(AppError::Invalid(format!(
                            "seat {seat} used up its exposure in hand {}; it does not play the fantasyland hand that extends it",
                            carry.as_ref().map_or(0, |c| c.from_hand)
                        )));
                    }
                    if button == Some(seat) {
                        return Err(AppError::Invalid(format!(
                            "seat {seat} has the button at the final table and does not play this hand"
                        )));
                    }
                    if dealt.iter().any(|d: &&Seated| d.1 == seat) {
                        return Err(AppError::Invalid(format!("seat {seat} is listed twice")));
                    }
                    dealt.push(s);
                }
                dealt.sort_unstable_by_key(|d| d.1);
                dealt
            }
            None => eligible.iter().copied().filter(|s| Some(s.1) != button).collect(),
        };
        if dealt.len() < 2 {
            return Err(AppError::Invalid(format!(
                "a hand needs at least 2 seats dealt in with stacks covering the rake; there are {}",
                dealt.len()
            )));
        }
        let most = options.max_players(rules);
        if dealt.len() > most {
            return Err(AppError::Invalid(format!(
                "{} is played by at most {most} players{}; {} seats would be dealt in: choose the seats",
                rules.name,
                if options.double_deck { " with a double deck" } else { "" },
                dealt.len()
            )));
        }
        let number = last.map_or(1, |l| l.1 + 1);
        let dealer = match (button, last) {
            (Some(b), _) => b,
            (None, None) => dealt[0].1,
            (None, Some((_, _, previous, _))) => {
                dealt.iter().map(|d| d.1).find(|&s| s > previous).unwrap_or(dealt[0].1)
            }
        };
        let started_at = now();
        let hand_id: i64 = diesel::insert_into(hands::table)
            .values((
                hands::table_id.eq(table_id),
                hands::number.eq(number),
                hands::dealer_seat.eq(dealer),
                hands::ruleset_version_id.eq(version.id),
                hands::started_at.eq(started_at),
            ))
            .returning(hands::id)
            .get_result(conn)?;
        let seats: Vec<HandSeatView> = dealt
            .iter()
            .map(|&&(seating_id, seat, ref player, stack)| {
                let fl = carry.as_ref().and_then(|c| c.fantasyland.iter().find(|f| f.1 == seating_id));
                let exposure = match &carry {
                    Some(c) if !tournament => c
                        .exposure
                        .iter()
                        .find(|e| e.0 == seating_id)
                        .map(|e| from_cents(e.1.min(stack - version.rake_cents))),
                    _ => None,
                };
                HandSeatView {
                    seat,
                    seating_id,
                    player: player.clone(),
                    stack_start: from_cents(stack),
                    in_fantasyland: fl.is_some(),
                    exposure_start: exposure,
                    fantasyland_cards: fl.map(|f| f.2),
                }
            })
            .collect();
        let rows: Vec<_> = dealt
            .iter()
            .zip(&seats)
            .map(|(d, s)| {
                Ok((
                    hand_seats::hand_id.eq(hand_id),
                    hand_seats::seat.eq(s.seat),
                    hand_seats::seating_id.eq(s.seating_id),
                    hand_seats::stack_start_cents.eq(d.3),
                    hand_seats::in_fantasyland.eq(s.in_fantasyland),
                    hand_seats::exposure_start_cents.eq(s.exposure_start.map(cents).transpose()?),
                    hand_seats::fantasyland_cards.eq(s.fantasyland_cards),
                ))
            })
            .collect::<Result<_, AppError>>()?;
        let insert = diesel::insert_into(hand_seats::table).values(&rows);
        match conn {
            DbConnection::Pg(c) => insert.execute(c)?,
            DbConnection::Sqlite(c) => insert.execute(c)?,
        };
        let dealt: Vec<i32> = seats.iter().map(|s| s.seat).collect();
        audit::record(
            conn,
            &actor,
            "hand_start",
            &format!("table {table_id} hand {number}"),
            serde_json::json!({ "dealer_seat": dealer, "seats": dealt, "ruleset_version": version.version }),
        )?;
        Ok(HandView {
            id: hand_id,
            table_id,
            number,
            dealer_seat: dealer,
            status: "open",
            ruleset: (&version).into(),
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

/// The engine's input for this hand and showdown (seats clockwise from seat 1).
fn engine_input(hand: &HandRow, req: &ShowdownRequest) -> Result<ShowdownInput, AppError> {
    for s in &req.seats {
        if s.stack.is_some() || s.in_fantasyland || s.exposure.is_some() || s.fantasyland_cards.is_some() {
            return Err(AppError::Invalid(format!(
                "seat {}: stack, in_fantasyland, exposure and fantasyland_cards come from the hand; leave them out",
                s.seat
            )));
        }
        if !hand.seats.iter().any(|h| h.seat as u32 == s.seat) {
            return Err(AppError::Invalid(format!("seat {} is not dealt in to hand {}", s.seat, hand.number)));
        }
    }
    let mut seats = Vec::with_capacity(hand.seats.len());
    for h in &hand.seats {
        let mut given = req.seats.iter().filter(|s| s.seat as i32 == h.seat);
        let s = given.next().ok_or_else(|| {
            AppError::Invalid(format!("seat {} is dealt in but has no cards in the showdown", h.seat))
        })?;
        if given.next().is_some() {
            return Err(AppError::Invalid(format!("seat {} is listed twice", h.seat)));
        }
        let canonical = |text: &Option<String>| text.as_deref().map(canonical_cards);
        seats.push(SeatInput {
            stack: Some(MoneyText::Text(h.stack_start.to_string())),
            in_fantasyland: h.in_fantasyland,
            exposure: h.exposure_start.map(|e| MoneyText::Text(e.to_string())),
            fantasyland_cards: h.fantasyland_cards.map(|c| c as u32),
            front: canonical(&s.front),
            middle: canonical(&s.middle),
            back: canonical(&s.back),
            cards: canonical(&s.cards),
            discards: canonical(&s.discards),
            ..s.clone()
        });
    }
    let v = &hand.version;
    let options = v.table_options();
    // At the final table the button seat does not play: settlement starts
    // with the first seat dealt in after it.
    let dealer = if hand.seats.iter().any(|s| s.seat == hand.dealer_seat) {
        hand.dealer_seat
    } else {
        hand.seats.iter().map(|s| s.seat).find(|&s| s > hand.dealer_seat).unwrap_or(hand.seats[0].seat)
    };
    Ok(ShowdownInput {
        ruleset: Some(v.preset.clone()),
        unit: Some(MoneyText::Text(from_cents(v.unit_cents).to_string())),
        dealer: Some(dealer as u32),
        rake: Some(crate::engine::showdown::RakeInput {
            per_seat: Some(MoneyText::Text(from_cents(v.rake_cents).to_string())),
            jackpot: Some(MoneyText::Text(from_cents(v.jackpot_cents).to_string())),
        }),
        pair_units: req.pair_units.clone(),
        seats,
        options: (!options.is_default()).then(|| options.to_stored_json()),
    })
}

fn score_input(input: &ShowdownInput) -> Result<ScoreResult, AppError> {
    let showdown = Showdown::from_input(input).map_err(|e| AppError::Invalid(e.to_string()))?;
    score(&showdown).map_err(|e| AppError::Invalid(e.to_string()))
}

/// Scores the showdown without writing anything.
pub fn preview(
    conn: &mut DbConnection,
    table_id: i64,
    number: i32,
    req: &ShowdownRequest,
) -> Result<ScoreResult, AppError> {
    let hand = hand_row(conn, table_id, number)?;
    score_input(&engine_input(&hand, req)?)
}

#[derive(Debug, Serialize)]
pub struct CommitView {
    pub hand: HandView,
    /// False when this answer repeats an earlier, identical commit.
    pub created: bool,
}

fn cents(d: Decimal) -> Result<i64, AppError> {
    to_cents(d, "amount").map_err(|e| AppError::Internal(e.to_string()))
}

/// Commits the showdown: settlement, stack changes, rake, jackpot
/// contribution and hits in one transaction. A repeated identical commit
/// (or one with the same `Idempotency-Key`) answers the first result; a
/// different commit of a committed hand is a conflict.
pub fn commit(
    db: &Database,
    actor: &Actor,
    table_id: i64,
    number: i32,
    req: &ShowdownRequest,
    idempotency_key: Option<&str>,
) -> Result<CommitView, AppError> {
    let req = req.clone();
    let idempotency_key = idempotency_key.map(str::to_string);
    let actor = actor.clone();
    let (created, hand) = db.write(Some(table_id), move |conn| {
        let mut hand = hand_row(conn, table_id, number)?;
        if hand.void_reason.is_some() {
            return Err(AppError::Conflict(format!("hand {number} was voided")));
        }
        let input = engine_input(&hand, &req)?;
        let canonical = serde_json::to_string(&input).map_err(|e| AppError::Internal(e.to_string()))?;
        let hash = format!("{:x}", Sha256::digest(canonical.as_bytes()));
        if let Some((stored_hash, stored_key, _, _)) = &hand.stored {
            let same_key = idempotency_key.is_some() && *stored_key == idempotency_key;
            if *stored_hash == hash || same_key {
                return Ok((false, hand_view(conn, table_id, hand)?));
            }
            return Err(AppError::Conflict(format!("hand {number} is already committed with a different showdown")));
        }
        let result = score_input(&input)?;
        let rake = hand.version.rake_cents;
        let jackpot = hand.version.jackpot_cents;
        let seats = hand.seats.len() as i64;
        let on_table =
            |kind, amount| NewEntry { table_id: Some(table_id), hand_id: Some(hand.id), ..NewEntry::new(kind, amount) };
        let seating_of = |seat: u32| hand.seats.iter().find(|s| s.seat as u32 == seat).map(|s| s.seating_id);
        let mut entries = Vec::new();
        if rake > 0 {
            for s in &hand.seats {
                entries.push(NewEntry { seating_id: Some(s.seating_id), ..on_table(EntryKind::Rake, -rake) });
            }
            entries.push(on_table(EntryKind::HouseRake, (rake - jackpot) * seats));
        }
        if jackpot > 0 {
            let pool = hand.pool_id.ok_or_else(|| {
                AppError::Conflict("the table's ruleset has a jackpot part but the table feeds no pool".to_string())
            })?;
            entries.push(NewEntry { pool_id: Some(pool), ..on_table(EntryKind::JackpotContribution, jackpot * seats) });
        }
        for t in &result.transactions {
            let paid = cents(t.paid)?;
            if paid == 0 {
                continue;
            }
            entries.push(NewEntry { seating_id: seating_of(t.payer), ..on_table(EntryKind::Settlement, -paid) });
            entries.push(NewEntry { seating_id: seating_of(t.payee), ..on_table(EntryKind::Settlement, paid) });
        }
        let hits_pool = hand.pool_id.filter(|_| !result.jackpot_triggers.is_empty());
        if let Some(pool) = hits_pool {
            // Before this hand's rows reference the pool (PostgreSQL would
            // otherwise deadlock two hits on a shared pool).
            lock_pool(conn, pool)?;
        }
        // No add-on or cash-out can happen while a hand is open: each seat's
        // stack is still its stack at the start.
        let known: Vec<(i64, i64)> =
            hand.seats.iter().map(|s| Ok((s.seating_id, cents(s.stack_start)?))).collect::<Result<_, AppError>>()?;
        ledger::insert_with(conn, &entries, &known)?;
        if let Some(pool) = hits_pool {
            {
                let seed = tables::pool_seed(conn, pool)?;
                for trigger in &result.jackpot_triggers {
                    let amount = ledger::pool_balance(conn, pool)?;
                    let hit: i64 = diesel::insert_into(jackpot_hits::table)
                        .values((
                            jackpot_hits::pool_id.eq(pool),
                            jackpot_hits::hand_id.eq(hand.id),
                            jackpot_hits::kind.eq(trigger.kind),
                            jackpot_hits::loser_seat.eq(trigger.loser as i32),
                            jackpot_hits::winner_seat.eq(trigger.winner as i32),
                            jackpot_hits::amount_cents.eq(amount),
                            jackpot_hits::created_at.eq(now()),
                        ))
                        .returning(jackpot_hits::id)
                        .get_result(conn)?;
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
                }
            }
        }
        let result_json = serde_json::to_string(&result).map_err(|e| AppError::Internal(e.to_string()))?;
        diesel::insert_into(showdowns::table)
            .values((
                showdowns::hand_id.eq(hand.id),
                showdowns::idempotency_key.eq(&idempotency_key),
                showdowns::request_hash.eq(&hash),
                showdowns::engine_input.eq(&canonical),
                showdowns::result.eq(&result_json),
                showdowns::committed_at.eq(now()),
            ))
            .execute(conn)?;
        audit::record(
            conn,
            &actor,
            "hand_commit",
            &format!("table {table_id} hand {number}"),
            serde_json::json!({ "request_hash": hash, "jackpot_hits": result.jackpot_triggers.len() }),
        )?;
        hand.stored = Some((hash, idempotency_key, result_json, canonical));
        Ok((true, hand_view(conn, table_id, hand)?))
    })?;
    Ok(CommitView { hand, created })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoidRequest {
    /// One of `VOID_REASONS`.
    pub reason: String,
    pub note: String,
}

/// The reason codes of a void, with their words.
pub const VOID_REASONS: &[(&str, &str)] = &[
    ("misdeal", "Misdeal"),
    ("wrong_cards", "Cards entered wrongly"),
    ("wrong_seat", "Wrong seat or player"),
    ("dispute", "Dispute ruled by the floor"),
    ("procedure", "Procedure error"),
    ("other", "Other (explained in the note)"),
];

/// Voids a hand: new rows reverse every money row of the hand; an open hand
/// (a misdeal) is closed with no money moved. Needs a reason code and a
/// note; refused once a jackpot hit of the hand has been signed off.
pub fn void(db: &Database, actor: &Actor, table_id: i64, number: i32, req: &VoidRequest) -> Result<HandView, AppError> {
    let reason = req.reason.trim().to_string();
    let note = req.note.trim().to_string();
    if !VOID_REASONS.iter().any(|(code, _)| *code == reason) {
        let codes: Vec<&str> = VOID_REASONS.iter().map(|(c, _)| *c).collect();
        return Err(AppError::Invalid(format!("reason {reason:?}: use one of {}", codes.join(", "))));
    }
    if note.is_empty() || note.chars().count() > 500 {
        return Err(AppError::Invalid("note: say what happened (1 to 500 characters)".to_string()));
    }
    let actor = actor.clone();
    let ledger_reason = format!("{reason}: {note}");
    db.write(Some(table_id), move |conn| {
        let hand = hand_row(conn, table_id, number)?;
        if hand.void_reason.is_some() {
            return Err(AppError::Conflict(format!("hand {number} is already voided")));
        }
        // Stacks move only between hands (a hand in progress settles from
        // the stacks it started with); the open hand itself may be voided.
        if let Some((_, open)) = tables::open_hand(conn, table_id)? {
            if open != number {
                return Err(AppError::Conflict(format!(
                    "hand {open} is in progress; void hand {number} between hands"
                )));
            }
        }
        let hit_ids: Vec<i64> =
            jackpot_hits::table.filter(jackpot_hits::hand_id.eq(hand.id)).select(jackpot_hits::id).load(conn)?;
        if let Some((hit, action)) = jackpots::actions_of(conn, &hit_ids)?.first() {
            return Err(AppError::Conflict(format!(
                "jackpot hit {hit} of hand {number} has been signed off ({action}); it cannot be voided now"
            )));
        }
        diesel::insert_into(hand_voids::table)
            .values((
                hand_voids::hand_id.eq(hand.id),
                hand_voids::reason.eq(&reason),
                hand_voids::note.eq(&note),
                hand_voids::created_at.eq(now()),
                hand_voids::voided_by.eq(actor.user_id),
            ))
            .execute(conn)?;
        audit::record(
            conn,
            &actor,
            "hand_void",
            &format!("table {table_id} hand {number}"),
            serde_json::json!({ "reason": reason, "note": note, "was": if hand.stored.is_some() { "committed" } else { "open" } }),
        )?;
        let reversals: Vec<NewEntry> = ledger::entries_for_hand(conn, hand.id)?
            .iter()
            .map(|e| NewEntry {
                table_id: e.table_id,
                hand_id: e.hand_id,
                seating_id: e.seating_id,
                pool_id: e.pool_id,
                jackpot_hit_id: e.jackpot_hit_id,
                reverses_id: Some(e.id),
                reason: Some(&ledger_reason),
                ..NewEntry::new(EntryKind::Reversal, -e.amount_cents)
            })
            .collect();
        // The books must stay whole: a void may not take a departed player's
        // money back, nor leave a stack below zero.
        let seated = tables::active_seatings(conn, table_id)?;
        for seating in reversals.iter().filter_map(|r| r.seating_id) {
            let seat = hand.seats.iter().find(|s| s.seating_id == seating).map_or(0, |s| s.seat);
            let Some(now_seated) = seated.iter().find(|s| s.0 == seating) else {
                return Err(AppError::Conflict(format!(
                    "the player of seat {seat} in hand {number} has cashed out; settle with them before voiding"
                )));
            };
            let change: i64 = reversals.iter().filter(|r| r.seating_id == Some(seating)).map(|r| r.amount_cents).sum();
            if now_seated.3 + change < 0 {
                return Err(AppError::Conflict(format!(
                    "voiding hand {number} would leave seat {seat} at {}; they have lost chips since",
                    from_cents(now_seated.3 + change)
                )));
            }
        }
        ledger::insert(conn, &reversals)
    })?;
    get_hand(&mut *db.conn()?, table_id, number)
}

#[derive(Debug, Serialize)]
pub struct RescoreView {
    pub reproduced: bool,
    pub stored: serde_json::Value,
    pub rescored: serde_json::Value,
}

/// Scores a committed hand again from its stored input under the ruleset
/// version it was committed with.
pub fn rescore(conn: &mut DbConnection, table_id: i64, number: i32) -> Result<RescoreView, AppError> {
    let hand = hand_row(conn, table_id, number)?;
    let (input, result): (String, String) = showdowns::table
        .filter(showdowns::hand_id.eq(hand.id))
        .select((showdowns::engine_input, showdowns::result))
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::Conflict(format!("hand {number} is not committed")))?;
    let parsed: ShowdownInput = serde_json::from_str(&input).map_err(|e| AppError::Internal(e.to_string()))?;
    let rescored = serde_json::to_value(score_input(&parsed)?).map_err(|e| AppError::Internal(e.to_string()))?;
    let stored: serde_json::Value = serde_json::from_str(&result).map_err(|e| AppError::Internal(e.to_string()))?;
    Ok(RescoreView { reproduced: rescored == stored, stored, rescored })
}

// ---- scans from a card-reading shoe or an RFID table ----

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScanRequest {
    pub seat: i32,
    pub row: String,
    pub card: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ScanView {
    pub seat: i32,
    pub row: String,
    pub card: String,
}

pub fn scans(conn: &mut DbConnection, table_id: i64, number: i32) -> Result<Vec<ScanView>, AppError> {
    use super::schema::hand_scans;
    let hand = hand_row(conn, table_id, number)?;
    let rows: Vec<(i32, String, String)> = hand_scans::table
        .filter(hand_scans::hand_id.eq(hand.id))
        .order(hand_scans::id.asc())
        .select((hand_scans::seat, hand_scans::row_name, hand_scans::card))
        .load(conn)?;
    Ok(rows.into_iter().map(|(seat, row, card)| ScanView { seat, row, card }).collect())
}

/// Records one scanned card in an open hand. A card already scanned into the
/// hand, a full row or a seat not dealt in is refused and nothing is written.
pub fn add_scan(
    db: &Database,
    actor: &Actor,
    table_id: i64,
    number: i32,
    req: &ScanRequest,
) -> Result<Vec<ScanView>, AppError> {
    let actor = actor.clone();
    use super::schema::hand_scans;
    let card = crate::engine::Card::parse(req.card.trim(), 1)
        .map_err(|e| AppError::Invalid(format!("seat {} {}: {e}", req.seat, req.row)))?
        .to_string();
    let needed = match req.row.as_str() {
        "front" => 3,
        "middle" | "back" => 5,
        other => return Err(AppError::Invalid(format!("row {other:?} is not front, middle or back"))),
    };
    let (seat, row) = (req.seat, req.row.clone());
    db.write(Some(table_id), move |conn| {
        let hand = hand_row(conn, table_id, number)?;
        if hand.stored.is_some() || hand.void_reason.is_some() {
            return Err(AppError::Conflict(format!("hand {number} is closed; scans go to an open hand")));
        }
        if !hand.seats.iter().any(|s| s.seat == seat) {
            return Err(AppError::Invalid(format!("seat {seat} is not dealt in to hand {number}")));
        }
        let existing: Vec<(i32, String, String)> = hand_scans::table
            .filter(hand_scans::hand_id.eq(hand.id))
            .select((hand_scans::seat, hand_scans::row_name, hand_scans::card))
            .load(conn)?;
        if let Some((s, r, _)) = existing.iter().find(|(_, _, c)| *c == card) {
            return Err(AppError::Conflict(format!(
                "{card} was already scanned, into seat {s} {r}; it is not added twice"
            )));
        }
        if existing.iter().filter(|(s, r, _)| *s == seat && *r == row).count() >= needed {
            return Err(AppError::Conflict(format!("seat {seat} {row} already has its {needed} cards")));
        }
        diesel::insert_into(hand_scans::table)
            .values((
                hand_scans::hand_id.eq(hand.id),
                hand_scans::seat.eq(seat),
                hand_scans::row_name.eq(&row),
                hand_scans::card.eq(&card),
                hand_scans::scanned_at.eq(now()),
            ))
            .execute(conn)?;
        audit::record(
            conn,
            &actor,
            "card_scan",
            &format!("table {table_id} hand {number}"),
            serde_json::json!({ "seat": seat, "row": row, "card": card }),
        )
    })?;
    scans(&mut *db.conn()?, table_id, number)
}
