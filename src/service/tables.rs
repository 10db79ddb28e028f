//! Use cases of tables: jackpot pools, tables and their versioned rulesets,
//! seating a player, add-ons and cash-outs. Each decides its policy and
//! writes its audit row in the one transaction it runs in.

use std::collections::HashMap;

use chrono::NaiveTime;
use serde::{Deserialize, Serialize};

use super::players::{self, PlayerChoice};
use super::{audit, check_name};
use crate::db::ledger::{self, NewEntry};
use crate::db::rollups::{self, PoolDay, SeatingTotals};
use crate::db::tables::{self as q, RulesetRow, Seated};
use crate::db::{Database, DbConnection};
use crate::domain::money::check_table_money;
use crate::domain::{
    Actor, AppError, EntryId, EntryKind, HandNumber, Money, PairUnit, PoolId, SeatNo, SeatingId, TableId, TableStatus,
};
use crate::engine::options::TableOptions;
use crate::engine::ruleset;

// ---- views ----

#[derive(Clone, Copy, Debug, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SharesView {
    pub loser: u32,
    pub winner: u32,
    pub others: u32,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct PoolView {
    pub id: PoolId,
    pub name: String,
    pub seed: Money,
    pub balance: Money,
    pub shares: SharesView,
    /// The pool's clock: its money counts on gaming days in this zone,
    /// starting at this time (set when it is made; it stays).
    pub time_zone: String,
    pub gaming_day_cutoff: String,
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct PairUnitView {
    pub seats: [SeatNo; 2],
    pub unit: Money,
}

/// A ruleset version as stored, read typed.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub row: RulesetRow,
    pub rules: &'static ruleset::Ruleset,
    pub options: TableOptions,
    pub pair_units: Vec<PairUnit>,
}

impl Ruleset {
    pub fn of(row: RulesetRow) -> Result<Ruleset, AppError> {
        let revision = u32::try_from(row.rules_revision).unwrap_or(1);
        let rules = ruleset::preset_at(&row.preset, revision)
            .ok_or_else(|| AppError::internal(format!("unknown stored preset {} revision {revision}", row.preset)))?;
        // Stored checked; the default when unreadable.
        let value: serde_json::Value = serde_json::from_str(&row.options).unwrap_or_default();
        let options = TableOptions::from_json(&value, rules).unwrap_or_default();
        let pair_units = serde_json::from_str(&row.pair_units).unwrap_or_default();
        Ok(Ruleset { row, rules, options, pair_units })
    }

    pub fn view(&self) -> RulesetView {
        RulesetView {
            version: self.row.version,
            preset: self.row.preset.clone(),
            unit: self.row.unit_cents,
            rake_per_seat: self.row.rake_cents,
            jackpot_part: self.row.jackpot_cents,
            created_at: self.row.created_at.and_utc(),
            revision: self.row.rules_revision,
            options: self.options.to_json_for(self.rules),
            pair_units: self.pair_units.iter().map(|p| PairUnitView { seats: p.seats, unit: p.unit_cents }).collect(),
        }
    }
}

#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct RulesetView {
    pub version: i32,
    pub preset: String,
    pub unit: Money,
    pub rake_per_seat: Money,
    pub jackpot_part: Money,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// The revision of the preset's definition (docs/rules.md): a table keeps
    /// the one it was set up with until its ruleset is changed.
    pub revision: i32,
    /// The options the preset takes, every one with its value.
    pub options: serde_json::Value,
    /// Pairs of seats playing for their own unit (RULES §7), set by the floor.
    pub pair_units: Vec<PairUnitView>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct SeatView {
    pub seat: SeatNo,
    pub seating_id: SeatingId,
    pub player: String,
    pub stack: Money,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TableView {
    pub id: TableId,
    pub name: String,
    pub seat_count: i32,
    pub time_zone: String,
    pub gaming_day_cutoff: String,
    pub ruleset: RulesetView,
    pub pool: Option<PoolView>,
    pub seats: Vec<SeatView>,
    /// The last hand started (0 before the first).
    pub hand_number: HandNumber,
    /// The dealer button of the last hand.
    pub dealer_seat: Option<SeatNo>,
    /// A hand started and not yet committed or voided.
    pub open_hand: Option<HandNumber>,
}

// ---- inputs (parsed at the edge) ----

pub struct NewPool {
    pub name: String,
    pub seed: Money,
    pub shares: Option<SharesView>,
    /// Default UTC, as a table's.
    pub time_zone: Option<String>,
    /// Default 06:00, as a table's.
    pub gaming_day_cutoff: Option<String>,
}

/// A pair's own unit as asked for (seats checked against the table here).
#[derive(Clone, Debug)]
pub struct PairUnitInput {
    pub seats: [i32; 2],
    pub unit: Money,
}

#[derive(Clone, Debug)]
pub struct RulesetInput {
    pub preset: String,
    pub unit: Money,
    pub rake_per_seat: Money,
    pub jackpot_part: Money,
    pub options: Option<serde_json::Value>,
    pub pair_units: Vec<PairUnitInput>,
}

pub struct NewTable {
    pub name: String,
    pub seat_count: Option<i32>,
    pub pool: Option<PoolId>,
    /// IANA time zone of the casino, e.g. `America/Los_Angeles`.
    pub time_zone: Option<String>,
    /// Local time at which the gaming day starts, `HH:MM`.
    pub gaming_day_cutoff: Option<String>,
    pub ruleset: RulesetInput,
}

pub struct SeatPlayer {
    pub seat: i32,
    /// Who: a player's record chosen, or one made now.
    pub player: PlayerChoice,
    pub buy_in: Money,
}

// ---- pools ----

pub fn create_pool(db: &Database, actor: &Actor, req: NewPool) -> Result<PoolView, AppError> {
    let name = check_name(&req.name, "the pool name", "name")?;
    let shares = req.shares.unwrap_or(SharesView { loser: 50, winner: 25, others: 25 });
    crate::engine::jackpot::Shares::new(shares.loser, shares.winner, shares.others)
        .map_err(|e| AppError::invalid("bad_shares", format!("the shares: {e}")).at_field("shares"))?;
    let (time_zone, cutoff) = check_clock(req.time_zone, req.gaming_day_cutoff)?;
    let (seed, actor) = (req.seed, actor.clone());
    let id = db.write(None, move |conn| {
        let pct = |p: u32| i32::try_from(p).unwrap_or(i32::MAX);
        let id = q::insert_pool(
            conn,
            &q::NewPool {
                name: &name,
                seed,
                shares: (pct(shares.loser), pct(shares.winner), pct(shares.others)),
                time_zone: &time_zone,
                gaming_day_cutoff: &cutoff,
            },
        )?;
        ledger::open_pool_share(conn, id, None)?;
        let row = NewEntry { pool_id: Some(id), ..NewEntry::new(EntryKind::PoolSeed, seed) };
        let at = row.created_at;
        ledger::insert(conn, &[row])?;
        super::rollups::add_pool_day(conn, id, at, PoolDay { seeds: seed, ..Default::default() })?;
        let detail = serde_json::json!({
            "name": name, "seed": seed, "shares": shares, "time_zone": time_zone, "gaming_day_cutoff": cutoff,
        });
        audit::record(conn, &actor, "pool_create", &format!("pool {id}"), detail)?;
        Ok(id)
    })?;
    get_pool(&mut *db.conn()?, id)
}

pub fn get_pool(conn: &mut DbConnection, id: PoolId) -> Result<PoolView, AppError> {
    let row = q::pool(conn, id)?.ok_or_else(|| AppError::not_found("no_pool", format!("no pool {id}")))?;
    let balance = ledger::pool_balance(conn, id)?;
    let share = |p: i32| p.max(0) as u32;
    Ok(PoolView {
        id,
        name: row.name,
        seed: row.seed_cents,
        balance,
        shares: SharesView {
            loser: share(row.loser_share_pct),
            winner: share(row.winner_share_pct),
            others: share(row.others_share_pct),
        },
        time_zone: row.time_zone,
        gaming_day_cutoff: row.gaming_day_cutoff,
    })
}

/// Every pool with its balance and shares, by name.
pub fn list_pools(conn: &mut DbConnection) -> Result<Vec<PoolView>, AppError> {
    q::pools_by_name(conn)?.into_iter().map(|p| get_pool(conn, p.id)).collect()
}

/// A pool's settings as the admin changes them; what is left out stays.
#[derive(Default)]
pub struct PoolEdit {
    pub name: Option<String>,
    /// What the pool restarts from after a hit locks it (future hits).
    pub seed: Option<Money>,
    pub shares: Option<SharesView>,
}

/// Changes a pool's name, re-seed amount or shares (admin). The shares
/// cannot change while a hit of the pool waits for its sign-offs (409
/// `jackpot_hit_waiting`): it was approved on the shares it showed. A hit
/// already paid keeps what it paid (its ledger rows).
pub fn edit_pool(db: &Database, actor: &Actor, pool: PoolId, edit: PoolEdit) -> Result<PoolView, AppError> {
    let name = edit.name.as_deref().map(|n| check_name(n, "the pool's name", "name")).transpose()?;
    if let Some(s) = edit.shares {
        crate::engine::jackpot::Shares::new(s.loser, s.winner, s.others)
            .map_err(|e| AppError::invalid("bad_shares", format!("the shares: {e}")).at_field("shares"))?;
    }
    let actor = actor.clone();
    db.write(None, move |conn| {
        let row = q::pool(conn, pool)?.ok_or_else(|| AppError::not_found("no_pool", format!("no pool {pool}")))?;
        let current = get_pool(conn, pool)?;
        let name = name.unwrap_or(row.name.clone());
        let seed = edit.seed.unwrap_or(row.seed_cents);
        let shares = edit.shares.unwrap_or(current.shares);
        if q::pool_name_taken(conn, &name, Some(pool))? {
            return Err(AppError::conflict("already_exists", format!("another pool is called {name}")).at_field("name"));
        }
        let mut changed = serde_json::Map::new();
        if name != row.name {
            changed.insert("name".into(), serde_json::json!({ "from": row.name, "to": name }));
        }
        if seed != row.seed_cents {
            changed.insert("seed".into(), serde_json::json!({ "from": row.seed_cents, "to": seed }));
        }
        let (was, now) = (current.shares, shares);
        if (was.loser, was.winner, was.others) != (now.loser, now.winner, now.others) {
            if let Some(hit) = super::jackpots::open_hits_of_pool(conn, pool)?.first() {
                return Err(AppError::conflict(
                    "jackpot_hit_waiting",
                    format!(
                        "jackpot hit {hit} of {} waits for its sign-offs on the shares it shows; change the shares \
                         after it is paid or rejected",
                        row.name
                    ),
                )
                .at_field("shares"));
            }
            changed.insert("shares".into(), serde_json::json!({ "from": was, "to": now }));
        }
        if changed.is_empty() {
            return Ok(current);
        }
        let pct = |p: u32| i32::try_from(p).unwrap_or(i32::MAX);
        q::update_pool(conn, pool, &name, seed, (pct(shares.loser), pct(shares.winner), pct(shares.others)))?;
        audit::record(conn, &actor, "pool_edit", &format!("pool {pool}"), changed.into())?;
        get_pool(conn, pool)
    })
}

/// One change of a pool, from the audit trail.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct PoolChangeView {
    pub at: chrono::DateTime<chrono::Utc>,
    /// Who (username).
    pub by: String,
    /// `pool_create`, `pool_edit` or `pool_seed`.
    pub action: String,
    /// What changed, in words.
    pub what: String,
}

/// A pool's history: made, changed, seeded by hand (newest first, at most
/// 200). The re-seeds that follow jackpot hits are the hits' own rows.
pub fn pool_history(conn: &mut DbConnection, pool: PoolId) -> Result<Vec<PoolChangeView>, AppError> {
    let words = |action: &str, detail: &serde_json::Value| -> String {
        let text = |v: &serde_json::Value| match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Object(o) if o.contains_key("loser") => {
                format!("loser {}% · winner {}% · others {}%", o["loser"], o["winner"], o["others"])
            }
            other => other.to_string(),
        };
        match action {
            "pool_seed" => format!("seeded {}: {}", text(&detail["amount"]), text(&detail["note"])),
            "pool_create" => format!("made with a seed of {} ({})", text(&detail["seed"]), text(&detail["shares"])),
            _ => detail
                .as_object()
                .map(|o| {
                    o.iter()
                        .filter(|(_, v)| v.get("from").is_some())
                        .map(|(k, v)| {
                            format!("{} from {} to {}", k.replace('_', " "), text(&v["from"]), text(&v["to"]))
                        })
                        .collect::<Vec<_>>()
                        .join("; ")
                })
                .unwrap_or_default(),
        }
    };
    Ok(crate::db::audit::pool_history(conn, &format!("pool {pool}"))?
        .into_iter()
        .map(|e| {
            let detail: serde_json::Value = serde_json::from_str(&e.detail).unwrap_or_default();
            PoolChangeView { at: e.at.and_utc(), by: e.username, what: words(&e.action, &detail), action: e.action }
        })
        .collect())
}

/// Adds the house's money to a pool now (a re-seed between hits, or a top-up;
/// floor or admin): a `pool_seed` ledger row with the note as its reason, and
/// who did it in the audit trail.
pub fn seed_pool(
    db: &Database,
    actor: &Actor,
    pool: PoolId,
    amount: Money,
    note: String,
) -> Result<PoolView, AppError> {
    if amount.is_zero() {
        return Err(AppError::invalid("bad_money", "the amount must be more than zero").at_field("amount"));
    }
    let note = note.trim().to_string();
    super::check_text(&note, "note")?;
    if note.is_empty() {
        return Err(AppError::invalid("note_required", "say why the pool is seeded (a note)").at_field("note"));
    }
    if note.chars().count() > 500 {
        return Err(AppError::invalid("note_too_long", "the note is at most 500 characters").at_field("note"));
    }
    let actor = actor.clone();
    db.write(None, move |conn| {
        let name = q::pool(conn, pool)?.ok_or_else(|| AppError::not_found("no_pool", format!("no pool {pool}")))?.name;
        let balance = ledger::pool_balance(conn, pool)?;
        if balance.checked_add(amount).is_none_or(|total| total > Money::MAX) {
            return Err(AppError::invalid(
                "pool_money_limit",
                format!("{name} holds {balance}: a seed of {amount} would take it past the limit of {}", Money::MAX),
            )
            .at_field("amount"));
        }
        let row = NewEntry { pool_id: Some(pool), reason: Some(&note), ..NewEntry::new(EntryKind::PoolSeed, amount) };
        let at = row.created_at;
        ledger::insert(conn, &[row])?;
        super::rollups::add_pool_day(conn, pool, at, PoolDay { seeds: amount, ..Default::default() })?;
        let detail = serde_json::json!({ "pool": name, "amount": amount, "note": note, "balance_before": balance });
        audit::record(conn, &actor, "pool_seed", &format!("pool {pool}"), detail)?;
        get_pool(conn, pool)
    })
}

// ---- tables and rulesets ----

/// A ruleset asked for, checked: the preset, options that fit it, amounts
/// (rake at least the jackpot part), and per-pair stakes on this table's seats.
struct ValidRuleset {
    preset: &'static str,
    rules: &'static ruleset::Ruleset,
    input: RulesetInput,
    options: TableOptions,
    pair_units: Vec<PairUnit>,
}

/// Per-pair stakes: seats of this table, each pair once, a unit above zero.
fn validate_pair_units(req: &[PairUnitInput], seat_count: i32) -> Result<Vec<PairUnit>, AppError> {
    let mut out: Vec<PairUnit> = Vec::new();
    for (i, p) in req.iter().enumerate() {
        let [a, b] = p.seats;
        let field = format!("pair_units[{i}]");
        let refuse =
            |why: String| AppError::invalid("bad_pair_units", format!("pair {}: {why}", i + 1)).at_field(&field);
        for seat in [a, b] {
            if !(1..=seat_count).contains(&seat) {
                return Err(refuse(format!("seat {seat} is not a seat of this table (1 to {seat_count})")));
            }
        }
        if a == b {
            return Err(refuse(format!("seat {a} is paired with itself")));
        }
        let seats = [SeatNo(a.min(b)), SeatNo(a.max(b))];
        if out.iter().any(|o| o.seats == seats) {
            return Err(refuse(format!("the pair of seats {a} and {b} is given twice")));
        }
        if p.unit.is_zero() {
            return Err(AppError::invalid(
                "bad_pair_units",
                format!("pair {}: the unit must be more than zero", i + 1),
            )
            .at_field(format!("{field} unit")));
        }
        out.push(PairUnit { seats, unit_cents: p.unit });
    }
    out.sort_by_key(|p| p.seats);
    Ok(out)
}

fn validate_ruleset(input: RulesetInput, seat_count: i32) -> Result<ValidRuleset, AppError> {
    let rules = ruleset::preset(&input.preset).ok_or_else(|| {
        AppError::invalid("unknown_preset", format!("{:?} is not a preset", input.preset)).at_field("preset")
    })?;
    let options = TableOptions::from_json(input.options.as_ref().unwrap_or(&serde_json::Value::Null), rules)
        .map_err(|e| AppError::invalid("bad_options", format!("the options: {e}")).at_field("options"))?;
    if input.unit.is_zero() {
        return Err(AppError::invalid("bad_money", "the unit must be more than zero").at_field("unit"));
    }
    if input.jackpot_part > input.rake_per_seat {
        return Err(AppError::invalid(
            "jackpot_above_rake",
            format!(
                "the jackpot part ({}) is larger than the rake per seat ({}) it is part of",
                input.jackpot_part, input.rake_per_seat
            ),
        )
        .at_field("jackpot_part"));
    }
    let pair_units = validate_pair_units(&input.pair_units, seat_count)?;
    Ok(ValidRuleset { preset: rules.name, rules, input, options, pair_units })
}

fn insert_version(
    conn: &mut DbConnection,
    actor: &Actor,
    table: TableId,
    version: i32,
    r: &ValidRuleset,
) -> Result<(), AppError> {
    q::insert_ruleset(
        conn,
        &q::NewRuleset {
            table,
            version,
            preset: r.preset,
            unit: r.input.unit,
            rake: r.input.rake_per_seat,
            jackpot: r.input.jackpot_part,
            created_by: actor.user_id,
            options: r.options.to_stored_json().to_string(),
            pair_units: serde_json::json!(r.pair_units).to_string(),
            rules_revision: i32::try_from(ruleset::current_revision(r.preset)).unwrap_or(1),
        },
    )?;
    let pair_units: Vec<serde_json::Value> =
        r.pair_units.iter().map(|p| serde_json::json!({ "seats": p.seats, "unit": p.unit_cents })).collect();
    let detail = serde_json::json!({
        "version": version, "preset": r.preset, "revision": ruleset::current_revision(r.preset),
        "unit": r.input.unit, "rake": r.input.rake_per_seat,
        "jackpot_part": r.input.jackpot_part, "options": r.options.to_stored_json(), "pair_units": pair_units,
    });
    audit::record(conn, actor, "ruleset_change", &format!("table {table}"), detail)
}

pub fn create_table(db: &Database, actor: &Actor, req: NewTable) -> Result<TableView, AppError> {
    let name = check_name(&req.name, "the table name", "name")?;
    let rules = validate_ruleset(req.ruleset, req.seat_count.unwrap_or(8))?;
    let max_seats = rules.options.max_table_seats(rules.rules) as i32;
    let seat_count = req.seat_count.unwrap_or(if rules.options.final_table { 5 } else { 4 });
    if !(2..=max_seats).contains(&seat_count) {
        return Err(AppError::invalid(
            "bad_seat_count",
            format!("{seat_count} seats: this preset seats 2 to {max_seats}"),
        )
        .at_field("seat_count"));
    }
    if rules.options.final_table && seat_count != 5 {
        return Err(AppError::invalid("bad_seat_count", format!("a final table has five seats, not {seat_count}"))
            .at_field("seat_count"));
    }
    validate_pair_units(&rules.input.pair_units, seat_count)?;
    let (time_zone, cutoff) = check_clock(req.time_zone, req.gaming_day_cutoff)?;
    let pool = req.pool;
    if !rules.input.jackpot_part.is_zero() && pool.is_none() {
        return Err(AppError::invalid(
            "jackpot_without_pool",
            "a jackpot part of the rake needs a pool to go to: choose one",
        )
        .at_field("pool_id"));
    }
    if let Some(p) = pool {
        if q::pool(&mut *db.conn()?, p)?.is_none() {
            return Err(AppError::invalid("bad_pool", format!("there is no pool {p}")).at_field("pool_id"));
        }
    }
    let actor = actor.clone();
    let id = db.write(None, move |conn| {
        let id = q::insert_table(
            conn,
            &q::NewTable { name: &name, pool, seat_count, time_zone: &time_zone, gaming_day_cutoff: &cutoff },
        )?;
        if let Some(p) = pool {
            ledger::open_pool_share(conn, p, Some(id))?;
        }
        let detail = serde_json::json!({
            "name": name, "seat_count": seat_count, "pool": pool, "time_zone": time_zone,
            "gaming_day_cutoff": cutoff,
        });
        audit::record(conn, &actor, "table_create", &format!("table {id}"), detail)?;
        insert_version(conn, &actor, id, 1, &rules)?;
        Ok(id)
    })?;
    get_table(&mut *db.conn()?, id)
}

/// Changing the preset, the numbers or the stakes makes a new version;
/// hands keep theirs.
pub fn change_ruleset(db: &Database, actor: &Actor, table: TableId, req: RulesetInput) -> Result<TableView, AppError> {
    let actor = actor.clone();
    let row = table_row(&mut *db.conn()?, table)?;
    let rules = validate_ruleset(req, row.seat_count)?;
    if !rules.input.jackpot_part.is_zero() && row.pool_id.is_none() {
        return Err(AppError::invalid(
            "jackpot_without_pool",
            "a jackpot part of the rake needs a pool, and this table feeds none",
        )
        .at_field("jackpot_part"));
    }
    let max_seats = rules.options.max_table_seats(rules.rules) as i32;
    if row.seat_count > max_seats {
        return Err(AppError::invalid(
            "bad_seat_count",
            format!(
                "this table has {} seats; {} with these options allows at most {max_seats}",
                row.seat_count, rules.preset
            ),
        ));
    }
    if rules.options.final_table && row.seat_count != 5 {
        return Err(AppError::invalid(
            "bad_seat_count",
            format!("a final table has five seats; this table has {}", row.seat_count),
        )
        .at_field("options"));
    }
    db.write(Some(table), move |conn| {
        if q::open_hand(conn, table)?.is_some() {
            return Err(AppError::conflict(
                "hand_in_progress",
                "a hand is in progress; change the ruleset between hands",
            ));
        }
        let current = current_ruleset(conn, table)?;
        insert_version(conn, &actor, table, current.row.version + 1, &rules)
    })?;
    get_table(&mut *db.conn()?, table)
}

/// A table's settings as the admin changes them; what is left out stays.
#[derive(Default)]
pub struct TableEdit {
    pub name: Option<String>,
    pub seat_count: Option<i32>,
    pub time_zone: Option<String>,
    pub gaming_day_cutoff: Option<String>,
    /// `Some(None)`: the table feeds no pool.
    pub pool: Option<Option<PoolId>>,
}

/// A new table's or pool's clock, as asked for or by default (UTC, 06:00).
fn check_clock(time_zone: Option<String>, cutoff: Option<String>) -> Result<(String, String), AppError> {
    let time_zone = time_zone.map_or_else(|| "UTC".to_string(), |t| t.trim().to_string());
    check_time_zone(&time_zone)?;
    let cutoff = check_cutoff(cutoff.as_deref().unwrap_or("06:00"))?;
    Ok((time_zone, cutoff))
}

fn check_time_zone(time_zone: &str) -> Result<(), AppError> {
    time_zone.parse::<chrono_tz::Tz>().map(|_| ()).map_err(|_| {
        AppError::invalid("bad_time_zone", format!("{time_zone:?} is not a time zone (e.g. America/Los_Angeles)"))
            .at_field("time_zone")
    })
}

/// A gaming day's start, as kept: `HH:MM` (`6:00` is kept as `06:00`, so
/// that the same time given again is no change).
fn check_cutoff(cutoff: &str) -> Result<String, AppError> {
    let cutoff = cutoff.trim();
    NaiveTime::parse_from_str(cutoff, "%H:%M").map(|t| t.format("%H:%M").to_string()).map_err(|_| {
        AppError::invalid("bad_cutoff", format!("the gaming day's start {cutoff:?} is not a time of day HH:MM"))
            .at_field("gaming_day_cutoff")
    })
}

/// Changes a table's settings (admin), between hands. Its name at any time;
/// its seats as long as every seated player and every per-pair stake keeps
/// a seat and the preset allows the number; its gaming-day clock only before
/// anyone has sat there (409 `table_has_sessions`) and its pool only before
/// its first hand (afterwards its hands and their rake would move to other
/// gaming days or pools: 409 `table_has_hands`). Stakes,
/// rake and options are its ruleset (a new version, `change_ruleset`).
pub fn edit_table(db: &Database, actor: &Actor, table: TableId, edit: TableEdit) -> Result<TableView, AppError> {
    let name = edit.name.as_deref().map(|n| check_name(n, "the table's name", "name")).transpose()?;
    let time_zone = edit.time_zone.map(|t| t.trim().to_string());
    if let Some(t) = &time_zone {
        check_time_zone(t)?;
    }
    let cutoff = edit.gaming_day_cutoff.as_deref().map(check_cutoff).transpose()?;
    let actor = actor.clone();
    db.write(Some(table), move |conn| {
        let before = table_row(conn, table)?;
        let mut after = before.clone();
        if let Some(n) = name {
            if q::table_name_taken(conn, &n, table)? {
                return Err(
                    AppError::conflict("already_exists", format!("another table is called {n}")).at_field("name")
                );
            }
            after.name = n;
        }
        let open = q::open_hand(conn, table)?;
        let has_hands = q::last_hand(conn, table)?.is_some();
        let ruleset = current_ruleset(conn, table)?;
        if let Some(seats) = edit.seat_count {
            let max = ruleset.options.max_table_seats(ruleset.rules) as i32;
            if !(2..=max).contains(&seats) {
                return Err(AppError::invalid(
                    "bad_seat_count",
                    format!("{} with these options seats 2 to {max} players, not {seats}", ruleset.rules.name),
                )
                .at_field("seat_count"));
            }
            if ruleset.options.final_table && seats != 5 {
                return Err(AppError::invalid("bad_seat_count", "a final table has five seats").at_field("seat_count"));
            }
            if seats != before.seat_count {
                if let Some(h) = open {
                    return Err(AppError::conflict(
                        "hand_in_progress",
                        format!("hand {} is in progress; change the seats between hands", h.number),
                    ));
                }
                if let Some(s) = q::active_seatings(conn, table)?.iter().find(|s| s.seat.0 > seats) {
                    return Err(AppError::conflict(
                        "seat_taken",
                        format!(
                            "{} sits in seat {}; cash them out before the table has {seats} seats",
                            s.player, s.seat
                        ),
                    )
                    .at_field("seat_count"));
                }
                if let Some(p) = ruleset.pair_units.iter().find(|p| p.seats[1].0 > seats) {
                    return Err(AppError::conflict(
                        "pair_units_seat",
                        format!(
                            "seats {} and {} play for their own unit; change the ruleset's per-pair stakes first",
                            p.seats[0], p.seats[1]
                        ),
                    )
                    .at_field("seat_count"));
                }
            }
            after.seat_count = seats;
        }
        let history = |what: &str| {
            AppError::conflict(
                "table_has_hands",
                format!(
                    "{} has played hands: its {what} cannot change, or its past hands would move; make a new table",
                    before.name
                ),
            )
        };
        // A session counts on the gaming day its player sat down, kept with
        // it: once anyone has sat here, the clock stays.
        let clock_kept = |what: &str| {
            AppError::conflict(
                "table_has_sessions",
                format!(
                    "players have sat at {}: its {what} cannot change, or their sessions would move to other \
                     gaming days; make a new table",
                    before.name
                ),
            )
        };
        let clock_change = time_zone.as_ref().is_some_and(|t| *t != before.time_zone)
            || cutoff.as_ref().is_some_and(|c| *c != before.gaming_day_cutoff);
        let has_sessions = clock_change && !has_hands && q::has_seatings(conn, table)?;
        if let Some(t) = time_zone.filter(|t| *t != before.time_zone) {
            if has_hands {
                return Err(history("time zone").at_field("time_zone"));
            }
            if has_sessions {
                return Err(clock_kept("time zone").at_field("time_zone"));
            }
            after.time_zone = t;
        }
        if let Some(c) = cutoff.filter(|c| *c != before.gaming_day_cutoff) {
            if has_hands {
                return Err(history("gaming day's start").at_field("gaming_day_cutoff"));
            }
            if has_sessions {
                return Err(clock_kept("gaming day's start").at_field("gaming_day_cutoff"));
            }
            after.gaming_day_cutoff = c;
        }
        if let Some(pool) = edit.pool.filter(|p| *p != before.pool_id) {
            if has_hands {
                return Err(history("jackpot pool").at_field("pool_id"));
            }
            match pool {
                Some(p) => {
                    if q::pool(conn, p)?.is_none() {
                        return Err(AppError::invalid("bad_pool", format!("there is no pool {p}")).at_field("pool_id"));
                    }
                    ledger::open_pool_share(conn, p, Some(table))?;
                }
                None if !ruleset.row.jackpot_cents.is_zero() => {
                    return Err(AppError::invalid(
                        "jackpot_without_pool",
                        "the table's rake has a jackpot part: it needs a pool (set the jackpot part to 0 first)",
                    )
                    .at_field("pool_id"));
                }
                None => {}
            }
            after.pool_id = pool;
        }
        let mut changed = serde_json::Map::new();
        let mut note = |field: &str, from: serde_json::Value, to: serde_json::Value| {
            if from != to {
                changed.insert(field.into(), serde_json::json!({ "from": from, "to": to }));
            }
        };
        note("name", before.name.clone().into(), after.name.clone().into());
        note("seat_count", before.seat_count.into(), after.seat_count.into());
        note("time_zone", before.time_zone.clone().into(), after.time_zone.clone().into());
        note("gaming_day_cutoff", before.gaming_day_cutoff.clone().into(), after.gaming_day_cutoff.clone().into());
        note("pool", serde_json::json!(before.pool_id), serde_json::json!(after.pool_id));
        if !changed.is_empty() {
            q::update_table(conn, &after)?;
            audit::record(conn, &actor, "table_edit", &format!("table {table}"), changed.into())?;
        }
        get_table(conn, table)
    })
}

/// A ruleset version and who made it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct RulesetVersionView {
    #[serde(flatten)]
    pub ruleset: RulesetView,
    /// Username (none: made before sign-in existed, or from the command line).
    pub created_by: Option<String>,
}

/// Every ruleset version of a table, newest first.
pub fn ruleset_history(conn: &mut DbConnection, table: TableId) -> Result<Vec<RulesetVersionView>, AppError> {
    table_row(conn, table)?;
    q::ruleset_history(conn, table)?
        .into_iter()
        .map(|(row, by)| Ok(RulesetVersionView { ruleset: Ruleset::of(row)?.view(), created_by: by }))
        .collect()
}

/// Whether a table has played a hand (its clock and pool are then fixed).
/// Whether anyone has ever sat at the table (its clock is then fixed).
pub fn has_seatings(conn: &mut DbConnection, table: TableId) -> Result<bool, AppError> {
    Ok(q::has_seatings(conn, table)?)
}

pub fn has_hands(conn: &mut DbConnection, table: TableId) -> Result<bool, AppError> {
    Ok(q::last_hand(conn, table)?.is_some())
}

pub fn table_row(conn: &mut DbConnection, id: TableId) -> Result<q::TableRow, AppError> {
    q::table(conn, id)?.ok_or_else(|| AppError::not_found("no_table", format!("no table {id}")))
}

pub fn current_ruleset(conn: &mut DbConnection, table: TableId) -> Result<Ruleset, AppError> {
    Ruleset::of(
        q::current_ruleset(conn, table)?.ok_or_else(|| AppError::not_found("no_table", format!("no table {table}")))?,
    )
}

pub fn get_table(conn: &mut DbConnection, id: TableId) -> Result<TableView, AppError> {
    let row = table_row(conn, id)?;
    let ruleset = current_ruleset(conn, id)?;
    let pool = row.pool_id.map(|p| get_pool(conn, p)).transpose()?;
    let seats = q::active_seatings(conn, id)?;
    let last = q::last_hand(conn, id)?;
    Ok(table_view(row, ruleset, pool, seats, last))
}

fn table_view(
    row: q::TableRow,
    ruleset: Ruleset,
    pool: Option<PoolView>,
    seats: Vec<Seated>,
    last: Option<q::LastHand>,
) -> TableView {
    TableView {
        id: row.id,
        name: row.name,
        seat_count: row.seat_count,
        time_zone: row.time_zone,
        gaming_day_cutoff: row.gaming_day_cutoff,
        ruleset: ruleset.view(),
        pool,
        seats: seats
            .into_iter()
            .map(|s| SeatView { seat: s.seat, seating_id: s.seating, player: s.player, stack: s.stack })
            .collect(),
        hand_number: last.map_or(HandNumber(0), |l| l.number),
        dealer_seat: last.map(|l| l.dealer_seat),
        open_hand: last.filter(|l| l.open).map(|l| l.number),
    }
}

/// Every table's view, as [`get_table`] gives each, read for all tables at
/// once (a statement for each part, and two for each pool), not table by
/// table: the pit board and the tables page cost the same for 5 tables and
/// for 50.
pub fn list_tables(conn: &mut DbConnection) -> Result<Vec<TableView>, AppError> {
    let rows = q::tables(conn)?;
    let mut rulesets: HashMap<TableId, q::RulesetRow> =
        q::current_rulesets(conn)?.into_iter().map(|r| (r.table_id, r)).collect();
    let mut seated: HashMap<TableId, Vec<Seated>> = HashMap::new();
    for (table, s) in q::all_active_seatings(conn)? {
        seated.entry(table).or_default().push(s);
    }
    let last: HashMap<TableId, q::LastHand> = q::last_hands(conn)?.into_iter().collect();
    let mut pools: HashMap<PoolId, PoolView> = HashMap::new();
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let id = row.id;
        let ruleset = Ruleset::of(
            rulesets.remove(&id).ok_or_else(|| AppError::not_found("no_table", format!("no table {id}")))?,
        )?;
        let pool = match row.pool_id {
            Some(p) => Some(match pools.get(&p) {
                Some(view) => view.clone(),
                None => {
                    let view = get_pool(conn, p)?;
                    pools.insert(p, view.clone());
                    view
                }
            }),
            None => None,
        };
        let seats = seated.remove(&id).unwrap_or_default();
        out.push(table_view(row, ruleset, pool, seats, last.get(&id).copied()));
    }
    Ok(out)
}

// ---- open and closed (the floor) ----

/// A table's status after the floor changed it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TableStatusView {
    pub table_id: TableId,
    pub name: String,
    pub status: TableStatus,
    pub changed_at: chrono::DateTime<chrono::Utc>,
    /// Who changed it (username).
    pub changed_by: String,
    pub note: String,
}

/// A table's status: its latest change (open when never changed).
pub fn table_status(conn: &mut DbConnection, table: TableId) -> Result<TableStatus, AppError> {
    Ok(q::table_status(conn, table)?.unwrap_or(TableStatus::Open))
}

/// A closed table starts no hand and seats no player (409 `table_closed`).
pub fn refuse_if_closed(conn: &mut DbConnection, table: TableId, doing: &str) -> Result<(), AppError> {
    if table_status(conn, table)? == TableStatus::Closed {
        return Err(closed(conn, table, doing)?);
    }
    Ok(())
}

fn closed(conn: &mut DbConnection, table: TableId, doing: &str) -> Result<AppError, AppError> {
    let name = table_row(conn, table)?.name;
    Ok(AppError::conflict(
        "table_closed",
        format!("{name} is closed: the floor opens it before anyone can {doing} there"),
    ))
}

/// The current ruleset of a table where a hand may start now: the table is
/// open (409 `table_closed`) and its gaming day at `at` is not closed (409
/// `day_closed`: a hand started there could never be committed). Read in one
/// statement; a second only when a table's clock was set back behind the
/// latest closed day.
pub fn ruleset_to_start(
    conn: &mut DbConnection,
    table: TableId,
    at: chrono::NaiveDateTime,
) -> Result<Ruleset, AppError> {
    let checks =
        q::start_checks(conn, table)?.ok_or_else(|| AppError::not_found("no_table", format!("no table {table}")))?;
    if checks.status == Some(TableStatus::Closed) {
        return Err(closed(conn, table, "start a hand")?);
    }
    if let Some(last_closed) = &checks.last_closed_day {
        let today = rollups::day(rollups::clock(&checks.time_zone, &checks.gaming_day_cutoff)?, at);
        // A day closes only once every table has started it, so a table's
        // day is normally the latest closed day or after it.
        let is_closed = match today.cmp(last_closed) {
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => true,
            std::cmp::Ordering::Less => crate::db::gaming_days::is_closed(conn, &today)?,
        };
        if is_closed {
            return Err(AppError::conflict(
                "day_closed",
                format!(
                    "gaming day {today} is closed at this table's clock ({}, the day starting at {}): no hand \
                     starts in it; hands start again when the next gaming day begins",
                    checks.time_zone, checks.gaming_day_cutoff
                ),
            ));
        }
    }
    Ruleset::of(checks.ruleset)
}

/// Closes a table (the floor): refused while a hand is in progress or a
/// player is seated; nothing is changed then.
pub fn close_table(db: &Database, actor: &Actor, table: TableId, note: String) -> Result<TableStatusView, AppError> {
    change_status(db, actor, table, TableStatus::Closed, note)
}

/// Opens a closed table again (the floor).
pub fn open_table(db: &Database, actor: &Actor, table: TableId, note: String) -> Result<TableStatusView, AppError> {
    change_status(db, actor, table, TableStatus::Open, note)
}

fn change_status(
    db: &Database,
    actor: &Actor,
    table: TableId,
    to: TableStatus,
    note: String,
) -> Result<TableStatusView, AppError> {
    let note = note.trim().to_string();
    super::check_text(&note, "note")?;
    if note.chars().count() > 500 {
        return Err(AppError::invalid("note_too_long", "the note is at most 500 characters").at_field("note"));
    }
    let name = table_row(&mut *db.conn()?, table)?.name;
    let actor = actor.clone();
    db.write(Some(table), move |conn| {
        let now = table_status(conn, table)?;
        if now == to {
            let code = if to == TableStatus::Open { "table_already_open" } else { "table_already_closed" };
            return Err(AppError::conflict(code, format!("{name} is already {to}")));
        }
        if to == TableStatus::Closed {
            if let Some(h) = q::open_hand(conn, table)? {
                return Err(AppError::conflict(
                    "table_has_open_hand",
                    format!("{name} has hand {} in progress; commit or void it before closing the table", h.number),
                ));
            }
            let seated = q::active_seatings(conn, table)?;
            if !seated.is_empty() {
                let seats: Vec<String> = seated.iter().map(|s| format!("seat {} ({})", s.seat, s.player)).collect();
                return Err(AppError::conflict(
                    "table_has_players",
                    format!(
                        "{name} has {} player(s) seated: {}; cash them out before closing the table",
                        seated.len(),
                        seats.join(", ")
                    ),
                ));
            }
        }
        let at = q::insert_status_change(conn, table, to, actor.user_id, &note)?;
        let action = if to == TableStatus::Open { "table_open" } else { "table_close" };
        let detail = serde_json::json!({ "name": name, "status": to, "note": note });
        audit::record(conn, &actor, action, &format!("table {table}"), detail)?;
        Ok(TableStatusView {
            table_id: table,
            name,
            status: to,
            changed_at: at.and_utc(),
            changed_by: actor.username.clone(),
            note,
        })
    })
}

// ---- players ----

pub fn seat_player(db: &Database, actor: &Actor, table: TableId, req: SeatPlayer) -> Result<TableView, AppError> {
    let actor = actor.clone();
    let row = table_row(&mut *db.conn()?, table)?;
    if !(1..=row.seat_count).contains(&req.seat) {
        return Err(AppError::invalid(
            "bad_seat",
            format!("seat {} is not a seat of this table (1 to {})", req.seat, row.seat_count),
        )
        .at_field("seat"));
    }
    let seat = SeatNo(req.seat);
    let choice = req.player.checked()?;
    let buy_in = req.buy_in;
    if buy_in.is_zero() {
        return Err(AppError::invalid("bad_money", "the buy-in must be more than zero").at_field("buy_in"));
    }
    db.write(Some(table), move |conn| {
        refuse_if_closed(conn, table, "seat a player")?;
        if q::open_hand(conn, table)?.is_some() {
            return Err(AppError::conflict("hand_in_progress", "a hand is in progress; seat players between hands"));
        }
        let seated = q::active_seatings(conn, table)?;
        if seated.iter().any(|s| s.seat == seat) {
            return Err(AppError::conflict("seat_taken", format!("seat {seat} is taken")).at_field("seat"));
        }
        check_table_money(seated.iter().map(|s| s.stack), buy_in, "the buy-in").map_err(|e| e.at_field("buy_in"))?;
        let player = players::choose_or_make(conn, &actor, choice)?;
        let at = crate::db::now();
        // The clock as written now (an edit of it cannot come between).
        let clock = table_row(conn, table)?;
        let seating = q::insert_seating(conn, table, seat, player.id, &player.name, at)?;
        ledger::insert(
            conn,
            &[NewEntry { table_id: Some(table), seating_id: Some(seating), ..NewEntry::new(EntryKind::BuyIn, buy_in) }],
        )?;
        // The session counts on the gaming day it was seated on.
        let day = rollups::day(rollups::clock(&clock.time_zone, &clock.gaming_day_cutoff)?, at);
        let seated = rollups::Seated {
            table_id: table,
            seat,
            player: player.name.clone(),
            seated_at: at,
            player_id: Some(player.id),
            member_no: player.member_no.clone(),
        };
        rollups::make_seating_totals(
            conn,
            &[rollups::SeatingTotalsRow { buy_in, ..rollups::SeatingTotalsRow::made(seating, &seated, day) }],
        )?;
        let detail = serde_json::json!({
            "seat": seat, "player": player.name, "player_id": player.id, "member_no": player.member_no,
            "new_player": player.made, "buy_in": buy_in
        });
        audit::record(conn, &actor, "seat_player", &format!("table {table} seat {seat}"), detail)
    })?;
    get_table(&mut *db.conn()?, table)
}

fn seated_at(conn: &mut DbConnection, table: TableId, seat: SeatNo) -> Result<Seated, AppError> {
    q::active_seatings(conn, table)?
        .into_iter()
        .find(|s| s.seat == seat)
        .ok_or_else(|| AppError::not_found("seat_empty", format!("no player in seat {seat}")))
}

/// Add-ons only between hands.
pub fn add_on(
    db: &Database,
    actor: &Actor,
    table: TableId,
    seat: SeatNo,
    amount: Money,
) -> Result<TableView, AppError> {
    let actor = actor.clone();
    table_row(&mut *db.conn()?, table)?;
    if amount.is_zero() {
        return Err(AppError::invalid("bad_money", "the amount must be more than zero").at_field("amount"));
    }
    db.write(Some(table), move |conn| {
        if let Some(h) = q::open_hand(conn, table)? {
            return Err(AppError::conflict(
                "hand_in_progress",
                format!("hand {} is in progress; add-ons only between hands", h.number),
            ));
        }
        let seating = seated_at(conn, table, seat)?;
        let stacks: Vec<Money> = q::active_seatings(conn, table)?.iter().map(|s| s.stack).collect();
        check_table_money(stacks, amount, "the add-on").map_err(|e| e.at_field("amount"))?;
        ledger::insert(
            conn,
            &[NewEntry {
                table_id: Some(table),
                seating_id: Some(seating.seating),
                ..NewEntry::new(EntryKind::AddOn, amount)
            }],
        )?;
        rollups::add_seating_totals(
            conn,
            &[(seating.seating, SeatingTotals { add_ons: amount, ..Default::default() })],
        )?;
        let detail = serde_json::json!({ "amount": amount });
        audit::record(conn, &actor, "add_on", &format!("table {table} seat {seat}"), detail)
    })?;
    get_table(&mut *db.conn()?, table)
}

/// Cash-out of the whole stack; the seat is free afterwards.
pub fn cash_out(db: &Database, actor: &Actor, table: TableId, seat: SeatNo) -> Result<TableView, AppError> {
    table_row(&mut *db.conn()?, table)?;
    let actor = actor.clone();
    db.write(Some(table), move |conn| {
        if let Some(h) = q::open_hand(conn, table)? {
            return Err(AppError::conflict(
                "hand_in_progress",
                format!("hand {} is in progress; cash out between hands", h.number),
            ));
        }
        let seating = seated_at(conn, table, seat)?;
        if let Some(hit) = super::jackpots::open_hits_for_seating(conn, seating.seating)?.first() {
            return Err(AppError::conflict(
                "jackpot_share_waiting",
                format!("jackpot hit {hit} owes seat {seat} a share and waits for sign-off; verify or reject it first"),
            ));
        }
        ledger::insert(
            conn,
            &[NewEntry {
                table_id: Some(table),
                seating_id: Some(seating.seating),
                ..NewEntry::new(EntryKind::CashOut, -seating.stack)
            }],
        )?;
        rollups::add_seating_totals(
            conn,
            &[(seating.seating, SeatingTotals { cash_out: seating.stack, ..Default::default() })],
        )?;
        // The row's id names the cash-out's slip (`cash_out_slip`).
        let entry = ledger::cash_out_entry(conn, seating.seating)?;
        let detail = serde_json::json!({ "amount": seating.stack, "entry": entry });
        audit::record(conn, &actor, "cash_out", &format!("table {table} seat {seat}"), detail)
    })?;
    get_table(&mut *db.conn()?, table)
}

/// A cash-out slip: the table, seat and player, what they bought in and
/// added, the amount cashed out, who did it and when (UTC).
#[derive(Clone, Debug, Serialize)]
pub struct CashOutSlip {
    pub entry: crate::domain::EntryId,
    pub table_id: TableId,
    pub table_name: String,
    /// The table's time zone and the cash-out's gaming day there.
    pub time_zone: String,
    pub gaming_day: String,
    pub seat: SeatNo,
    pub player: String,
    pub seated_at: chrono::NaiveDateTime,
    pub buy_in: Money,
    pub add_ons: Money,
    /// Jackpot shares paid to the seat.
    pub jackpot_payouts: Money,
    /// Taken off the table (positive).
    pub cashed_out: Money,
    /// What the session won (negative: lost): cashed out − buy-in − add-ons.
    pub result: Money,
    /// UTC.
    pub at: chrono::NaiveDateTime,
    /// Who cashed the player out (from the audit trail).
    pub by_username: String,
    pub by_name: String,
}

/// The slip of the cash-out that ledger row `entry` of `table` records; any
/// other row (or one of another table) is `no_cash_out`.
pub fn cash_out_slip(
    conn: &mut DbConnection,
    table: TableId,
    entry: crate::domain::EntryId,
) -> Result<CashOutSlip, AppError> {
    let missing = || AppError::not_found("no_cash_out", format!("table {table} has no cash-out {entry}"));
    let row = ledger::entry(conn, entry)?.ok_or_else(missing)?;
    let seating = match (row.kind, row.table_id, row.seating_id) {
        (EntryKind::CashOut, Some(t), Some(s)) if t == table => s,
        _ => return Err(missing()),
    };
    let t = table_row(conn, table)?;
    let (_, seat, player, seated_at) =
        q::seating(conn, seating)?.ok_or_else(|| AppError::internal(format!("ledger row {entry} names no seating")))?;
    let totals = rollups::seating_totals(conn, Some(&[seating]))?.pop();
    let (buy_in, add_ons, jackpot_payouts) =
        totals.map_or((Money::ZERO, Money::ZERO, Money::ZERO), |t| (t.buy_in, t.add_ons, t.payouts));
    let cashed_out = -row.amount_cents;
    // The audit row written with the cash-out names its ledger row (older
    // ones do not: then the first cash-out of that seat from that time on).
    let events = crate::db::audit::cash_out_events_since(conn, &format!("table {table} seat {seat}"), row.created_at)?;
    let names_entry = |detail: &str| {
        serde_json::from_str::<serde_json::Value>(detail).ok().and_then(|d| d.get("entry").and_then(|e| e.as_i64()))
    };
    let event = events
        .iter()
        .find(|e| names_entry(&e.2) == Some(entry.get()))
        .or_else(|| events.iter().find(|e| names_entry(&e.2).is_none()));
    let (by_username, by_name) =
        event.map_or((String::new(), String::new()), |e| (e.0.clone(), e.1.clone().unwrap_or_else(|| e.0.clone())));
    let clock = rollups::clock(&t.time_zone, &t.gaming_day_cutoff)?;
    Ok(CashOutSlip {
        entry,
        table_id: table,
        table_name: t.name,
        gaming_day: rollups::day(clock, row.created_at),
        time_zone: t.time_zone,
        seat,
        player,
        seated_at,
        buy_in,
        add_ons,
        jackpot_payouts,
        cashed_out,
        result: cashed_out - buy_in - add_ons,
        at: row.created_at,
        by_username,
        by_name,
    })
}

// ---- the ledger ----

/// A ledger row as the API shows it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct EntryView {
    pub id: crate::domain::EntryId,
    pub kind: EntryKind,
    pub amount: Money,
    pub table_id: Option<TableId>,
    pub hand_id: Option<crate::domain::HandId>,
    pub seating_id: Option<SeatingId>,
    pub pool_id: Option<PoolId>,
    pub jackpot_hit_id: Option<crate::domain::HitId>,
    pub reverses_id: Option<crate::domain::EntryId>,
    pub reason: Option<String>,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// For a seat row, the seat's stack after it.
    pub stack_after: Option<Money>,
    /// For a `hand_result`, the rake in its amount (a reversal of one: the
    /// negative); null on every other row.
    pub rake: Option<Money>,
}

impl From<ledger::Entry> for EntryView {
    fn from(e: ledger::Entry) -> Self {
        EntryView {
            id: e.id,
            kind: e.kind,
            amount: e.amount_cents,
            table_id: e.table_id,
            hand_id: e.hand_id,
            seating_id: e.seating_id,
            pool_id: e.pool_id,
            jackpot_hit_id: e.jackpot_hit_id,
            reverses_id: e.reverses_id,
            reason: e.reason,
            created_at: e.created_at.and_utc(),
            stack_after: e.balance_after_cents,
            rake: e.rake_cents,
        }
    }
}

/// A page of a table's ledger: the rows after one (by id), oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LedgerPage {
    pub after: Option<EntryId>,
    pub limit: i64,
    /// Rows of the whole ledger a page looks through at most
    /// (`db::ledger::TABLE_PAGE_SCAN`; not a parameter of the API).
    pub scan: i64,
}

impl LedgerPage {
    /// Rows a page holds unless asked for fewer, and at most.
    pub const MAX_ROWS: i64 = 1000;

    /// From a query's pairs (`after`, `limit`); anything else is refused,
    /// naming it.
    pub fn parse(pairs: &[(String, String)]) -> Result<LedgerPage, AppError> {
        let mut page = LedgerPage { after: None, limit: Self::MAX_ROWS, scan: ledger::TABLE_PAGE_SCAN };
        for (key, value) in pairs {
            let value = value.trim();
            let number = value.parse::<i64>().ok();
            match key.as_str() {
                "after" => match number {
                    Some(n) if n >= 0 => page.after = Some(EntryId(n)),
                    _ => {
                        return Err(AppError::invalid("bad_page", format!("after {value:?} is not a ledger row's id"))
                            .at_field("after"))
                    }
                },
                "limit" => match number {
                    Some(n) if (1..=Self::MAX_ROWS).contains(&n) => page.limit = n,
                    _ => {
                        return Err(AppError::invalid(
                            "bad_page",
                            format!("limit {value:?} is not a number of rows from 1 to {}", Self::MAX_ROWS),
                        )
                        .at_field("limit"))
                    }
                },
                other => {
                    return Err(AppError::invalid(
                        "unknown_parameter",
                        format!("unknown parameter {other:?}; a table's ledger takes after and limit"),
                    )
                    .at_field(other))
                }
            }
        }
        Ok(page)
    }
}

/// A page of a table's ledger rows, oldest first, and where the next page
/// starts when more rows may follow: after the last row of a full page, or
/// after the rows of the ledger this one looked through
/// (`db::ledger::entries_for_table`: a page may be short, even empty, and
/// still have a next one).
pub fn table_ledger(
    conn: &mut DbConnection,
    table: TableId,
    page: LedgerPage,
) -> Result<(Vec<EntryView>, Option<EntryId>), AppError> {
    table_row(conn, table)?;
    let (rows, looked_to) = ledger::entries_for_table(conn, table, page.after, page.limit, page.scan)?;
    let next = match rows.last() {
        Some(last) if rows.len() as i64 == page.limit => Some(last.id),
        _ => looked_to,
    };
    Ok((rows.into_iter().map(Into::into).collect(), next))
}
