//! Tables, their versioned rulesets, jackpot pools, and seated players.

use chrono::NaiveTime;
use diesel::prelude::*;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::audit::{self, Actor};
use super::ledger::{self, EntryKind, NewEntry};
use super::schema::{casino_tables, hands, pools, ruleset_versions, seatings, showdowns};
use super::{now, Database, DbConnection};
use crate::engine::options::TableOptions;
use crate::engine::ruleset;
use crate::error::AppError;
use crate::money::{check_stack, from_cents, parse_amount, to_cents};

// ---- pools ----

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPoolRequest {
    pub name: String,
    pub seed: String,
    /// How an approved hit is shared, in percent (default 50 / 25 / 25).
    #[serde(default)]
    pub shares: Option<SharesView>,
}

#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SharesView {
    pub loser: u32,
    pub winner: u32,
    pub others: u32,
}

#[derive(Debug, Serialize)]
pub struct PoolView {
    pub id: i64,
    pub name: String,
    pub seed: Decimal,
    pub balance: Decimal,
    pub shares: SharesView,
}

fn check_name(name: &str, what: &str) -> Result<String, AppError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 80 || name.chars().any(char::is_control) {
        return Err(AppError::Invalid(format!("{what} must be 1 to 80 printable characters")));
    }
    Ok(name.to_string())
}

pub fn create_pool(db: &Database, actor: &Actor, req: &NewPoolRequest) -> Result<PoolView, AppError> {
    let name = check_name(&req.name, "the pool name")?;
    let seed = to_cents(parse_amount(&req.seed, "seed")?, "seed")?;
    let shares = req.shares.unwrap_or(SharesView { loser: 50, winner: 25, others: 25 });
    crate::engine::jackpot::Shares::new(shares.loser, shares.winner, shares.others)
        .map_err(|e| AppError::Invalid(format!("shares: {e}")))?;
    let actor = actor.clone();
    let id = db.write(None, move |conn| {
        let id: i64 = diesel::insert_into(pools::table)
            .values((
                pools::name.eq(&name),
                pools::seed_cents.eq(seed),
                pools::created_at.eq(now()),
                pools::loser_share_pct.eq(shares.loser as i32),
                pools::winner_share_pct.eq(shares.winner as i32),
                pools::others_share_pct.eq(shares.others as i32),
            ))
            .returning(pools::id)
            .get_result(conn)?;
        ledger::insert(conn, &[NewEntry { pool_id: Some(id), ..NewEntry::new(EntryKind::PoolSeed, seed) }])?;
        let detail = serde_json::json!({ "name": name, "seed": from_cents(seed).to_string(), "shares": shares });
        audit::record(conn, &actor, "pool_create", &format!("pool {id}"), detail)?;
        Ok(id)
    })?;
    get_pool(&mut *db.conn()?, id)
}

pub fn get_pool(conn: &mut DbConnection, id: i64) -> Result<PoolView, AppError> {
    let (name, seed, loser, winner, others): (String, i64, i32, i32, i32) = pools::table
        .find(id)
        .select((
            pools::name,
            pools::seed_cents,
            pools::loser_share_pct,
            pools::winner_share_pct,
            pools::others_share_pct,
        ))
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::NotFound(format!("no pool {id}")))?;
    let balance = ledger::pool_balance(conn, id)?;
    let shares = SharesView { loser: loser as u32, winner: winner as u32, others: others as u32 };
    Ok(PoolView { id, name, seed: from_cents(seed), balance: from_cents(balance), shares })
}

pub fn pool_seed(conn: &mut DbConnection, id: i64) -> Result<i64, AppError> {
    Ok(pools::table.find(id).select(pools::seed_cents).first(conn)?)
}

// ---- tables and rulesets ----

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetRequest {
    pub preset: String,
    pub unit: String,
    #[serde(default)]
    pub rake_per_seat: Option<String>,
    #[serde(default)]
    pub jackpot_part: Option<String>,
    /// Open-face table options (`engine::options`), checked against the preset.
    #[serde(default)]
    pub options: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTableRequest {
    pub name: String,
    pub seat_count: Option<i32>,
    pub pool_id: Option<i64>,
    /// IANA time zone of the casino, e.g. `America/Los_Angeles`.
    pub time_zone: Option<String>,
    /// Local time at which the gaming day starts, `HH:MM`.
    pub gaming_day_cutoff: Option<String>,
    #[serde(flatten)]
    pub ruleset: RulesetRequest,
}

#[derive(Clone, Debug, Serialize, Queryable, Selectable)]
#[diesel(table_name = ruleset_versions)]
pub struct RulesetVersion {
    pub id: i64,
    #[serde(skip)]
    pub table_id: i64,
    pub version: i32,
    pub preset: String,
    #[serde(skip)]
    pub unit_cents: i64,
    #[serde(skip)]
    pub rake_cents: i64,
    #[serde(skip)]
    pub jackpot_cents: i64,
    #[serde(skip)]
    pub created_at: chrono::NaiveDateTime,
    /// The options that differ from the default, as JSON text.
    #[serde(skip)]
    pub options: String,
}

impl RulesetVersion {
    pub fn rules(&self) -> Result<&'static ruleset::Ruleset, AppError> {
        ruleset::preset(&self.preset)
            .ok_or_else(|| AppError::Internal(format!("unknown stored preset {}", self.preset)))
    }

    /// The version's open-face options (stored checked; default when unreadable).
    pub fn table_options(&self) -> TableOptions {
        let value: serde_json::Value = serde_json::from_str(&self.options).unwrap_or_default();
        self.rules().ok().and_then(|r| TableOptions::from_json(&value, r).ok()).unwrap_or_default()
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct RulesetView {
    pub version: i32,
    pub preset: String,
    pub unit: Decimal,
    pub rake_per_seat: Decimal,
    pub jackpot_part: Decimal,
    pub created_at: chrono::DateTime<chrono::Utc>,
    /// Open-face options, every one with its value (`{}` for other presets).
    pub options: serde_json::Value,
}

impl From<&RulesetVersion> for RulesetView {
    fn from(v: &RulesetVersion) -> Self {
        RulesetView {
            version: v.version,
            preset: v.preset.clone(),
            unit: from_cents(v.unit_cents),
            rake_per_seat: from_cents(v.rake_cents),
            jackpot_part: from_cents(v.jackpot_cents),
            created_at: v.created_at.and_utc(),
            options: match v.rules() {
                Ok(r) if r.fantasyland.is_some() => v.table_options().to_json(),
                _ => serde_json::json!({}),
            },
        }
    }
}

#[derive(Debug, Serialize)]
pub struct SeatView {
    pub seat: i32,
    pub seating_id: i64,
    pub player: String,
    pub stack: Decimal,
}

#[derive(Debug, Serialize)]
pub struct TableView {
    pub id: i64,
    pub name: String,
    pub seat_count: i32,
    pub time_zone: String,
    pub gaming_day_cutoff: String,
    pub ruleset: RulesetView,
    pub pool: Option<PoolView>,
    pub seats: Vec<SeatView>,
    /// The last hand started (0 before the first).
    pub hand_number: i32,
    /// The dealer button of the last hand.
    pub dealer_seat: Option<i32>,
    /// A hand started and not yet committed or voided.
    pub open_hand: Option<i32>,
}

struct ValidRuleset {
    preset: &'static str,
    unit: i64,
    rake: i64,
    jackpot: i64,
    options: TableOptions,
    rules: &'static ruleset::Ruleset,
}

fn validate_ruleset(req: &RulesetRequest) -> Result<ValidRuleset, AppError> {
    let rules =
        ruleset::preset(&req.preset).ok_or_else(|| AppError::Invalid(format!("unknown preset {:?}", req.preset)))?;
    let preset = rules.name;
    let options = TableOptions::from_json(req.options.as_ref().unwrap_or(&serde_json::Value::Null), rules)
        .map_err(|e| AppError::Invalid(format!("options: {e}")))?;
    let unit = to_cents(parse_amount(&req.unit, "unit")?, "unit")?;
    if unit == 0 {
        return Err(AppError::Invalid("unit must be greater than zero".to_string()));
    }
    let rake = to_cents(parse_amount(req.rake_per_seat.as_deref().unwrap_or("0"), "rake_per_seat")?, "rake_per_seat")?;
    let jackpot = to_cents(parse_amount(req.jackpot_part.as_deref().unwrap_or("0"), "jackpot_part")?, "jackpot_part")?;
    if jackpot > rake {
        return Err(AppError::Invalid(format!(
            "jackpot_part {} is larger than rake_per_seat {}",
            from_cents(jackpot),
            from_cents(rake)
        )));
    }
    Ok(ValidRuleset { preset, unit, rake, jackpot, options, rules })
}

fn insert_version(
    conn: &mut DbConnection,
    actor: &Actor,
    table_id: i64,
    version: i32,
    r: &ValidRuleset,
) -> Result<(), AppError> {
    diesel::insert_into(ruleset_versions::table)
        .values((
            ruleset_versions::table_id.eq(table_id),
            ruleset_versions::version.eq(version),
            ruleset_versions::preset.eq(r.preset),
            ruleset_versions::unit_cents.eq(r.unit),
            ruleset_versions::rake_cents.eq(r.rake),
            ruleset_versions::jackpot_cents.eq(r.jackpot),
            ruleset_versions::created_at.eq(now()),
            ruleset_versions::created_by.eq(actor.user_id),
            ruleset_versions::options.eq(r.options.to_stored_json().to_string()),
        ))
        .execute(conn)?;
    let detail = serde_json::json!({
        "version": version, "preset": r.preset, "unit": from_cents(r.unit).to_string(),
        "rake": from_cents(r.rake).to_string(), "jackpot_part": from_cents(r.jackpot).to_string(),
    });
    audit::record(conn, actor, "ruleset_change", &format!("table {table_id}"), detail)
}

pub fn create_table(db: &Database, actor: &Actor, req: &NewTableRequest) -> Result<TableView, AppError> {
    let name = check_name(&req.name, "the table name")?;
    let rules = validate_ruleset(&req.ruleset)?;
    let max_seats = rules.options.max_table_seats(rules.rules) as i32;
    let seat_count = req.seat_count.unwrap_or(if rules.options.final_table { 5 } else { 4 });
    if !(2..=max_seats).contains(&seat_count) {
        return Err(AppError::Invalid(format!("seat_count {seat_count} must be 2 to {max_seats}")));
    }
    if rules.options.final_table && seat_count != 5 {
        return Err(AppError::Invalid(format!(
            "option final_table is a table of five seats; seat_count is {seat_count}"
        )));
    }
    let time_zone = req.time_zone.clone().unwrap_or_else(|| "UTC".to_string());
    time_zone
        .parse::<chrono_tz::Tz>()
        .map_err(|_| AppError::Invalid(format!("time_zone {time_zone:?} is not an IANA time zone")))?;
    let cutoff = req.gaming_day_cutoff.clone().unwrap_or_else(|| "06:00".to_string());
    NaiveTime::parse_from_str(&cutoff, "%H:%M")
        .map_err(|_| AppError::Invalid(format!("gaming_day_cutoff {cutoff:?} is not a time HH:MM")))?;
    let pool_id = req.pool_id;
    if rules.jackpot > 0 && pool_id.is_none() {
        return Err(AppError::Invalid("jackpot_part needs a pool: give pool_id".to_string()));
    }
    if let Some(pool) = pool_id {
        get_pool(&mut *db.conn()?, pool).map_err(|_| AppError::Invalid(format!("pool_id {pool} is not a pool")))?;
    }
    let actor = actor.clone();
    let id = db.write(None, move |conn| {
        let id: i64 = diesel::insert_into(casino_tables::table)
            .values((
                casino_tables::name.eq(&name),
                casino_tables::pool_id.eq(pool_id),
                casino_tables::seat_count.eq(seat_count),
                casino_tables::time_zone.eq(&time_zone),
                casino_tables::gaming_day_cutoff.eq(&cutoff),
                casino_tables::created_at.eq(now()),
            ))
            .returning(casino_tables::id)
            .get_result(conn)?;
        let detail = serde_json::json!({
            "name": name, "seat_count": seat_count, "pool": pool_id, "time_zone": time_zone,
            "gaming_day_cutoff": cutoff,
        });
        audit::record(conn, &actor, "table_create", &format!("table {id}"), detail)?;
        insert_version(conn, &actor, id, 1, &rules)?;
        Ok(id)
    })?;
    get_table(&mut *db.conn()?, id)
}

/// Changing the preset or the numbers makes a new version; hands keep theirs.
pub fn change_ruleset(
    db: &Database,
    actor: &Actor,
    table_id: i64,
    req: &RulesetRequest,
) -> Result<TableView, AppError> {
    let actor = actor.clone();
    let rules = validate_ruleset(req)?;
    let table = table_row(&mut *db.conn()?, table_id)?;
    if rules.jackpot > 0 && table.pool_id.is_none() {
        return Err(AppError::Invalid("jackpot_part needs a pool, and this table feeds none".to_string()));
    }
    let max_seats = rules.options.max_table_seats(rules.rules) as i32;
    if table.seat_count > max_seats {
        return Err(AppError::Invalid(format!(
            "this table has {} seats; {} with these options allows at most {max_seats}",
            table.seat_count, rules.preset
        )));
    }
    if rules.options.final_table && table.seat_count != 5 {
        return Err(AppError::Invalid(format!(
            "option final_table is a table of five seats; this table has {}",
            table.seat_count
        )));
    }
    db.write(Some(table_id), move |conn| {
        if open_hand(conn, table_id)?.is_some() {
            return Err(AppError::Conflict("a hand is in progress; change the ruleset between hands".to_string()));
        }
        let current = current_ruleset(conn, table_id)?;
        insert_version(conn, &actor, table_id, current.version + 1, &rules)
    })?;
    get_table(&mut *db.conn()?, table_id)
}

pub struct TableRow {
    pub id: i64,
    pub name: String,
    pub pool_id: Option<i64>,
    pub seat_count: i32,
    pub time_zone: String,
    pub gaming_day_cutoff: String,
}

pub fn table_row(conn: &mut DbConnection, id: i64) -> Result<TableRow, AppError> {
    let row: (i64, String, Option<i64>, i32, String, String) = casino_tables::table
        .find(id)
        .select((
            casino_tables::id,
            casino_tables::name,
            casino_tables::pool_id,
            casino_tables::seat_count,
            casino_tables::time_zone,
            casino_tables::gaming_day_cutoff,
        ))
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::NotFound(format!("no table {id}")))?;
    Ok(TableRow {
        id: row.0,
        name: row.1,
        pool_id: row.2,
        seat_count: row.3,
        time_zone: row.4,
        gaming_day_cutoff: row.5,
    })
}

pub fn current_ruleset(conn: &mut DbConnection, table_id: i64) -> Result<RulesetVersion, AppError> {
    Ok(ruleset_versions::table
        .filter(ruleset_versions::table_id.eq(table_id))
        .order(ruleset_versions::version.desc())
        .select(RulesetVersion::as_select())
        .first(conn)?)
}

pub fn ruleset_version(conn: &mut DbConnection, id: i64) -> Result<RulesetVersion, AppError> {
    Ok(ruleset_versions::table.find(id).select(RulesetVersion::as_select()).first(conn)?)
}

/// Seated players (seatings without a cash-out) by seat, with their stacks
/// in cents: `(seating id, seat, player, stack)`.
pub fn active_seatings(conn: &mut DbConnection, table_id: i64) -> Result<Vec<(i64, i32, String, i64)>, AppError> {
    use super::schema::ledger_entries;
    let cashed_out = ledger_entries::table
        .filter(ledger_entries::seating_id.eq(seatings::id.nullable()))
        .filter(ledger_entries::kind.eq(EntryKind::CashOut.name()));
    let seated: Vec<(i64, i32, String)> = seatings::table
        .filter(seatings::table_id.eq(table_id))
        .filter(diesel::dsl::not(diesel::dsl::exists(cashed_out)))
        .order(seatings::seat.asc())
        .select((seatings::id, seatings::seat, seatings::player))
        .load(conn)?;
    let ids: Vec<i64> = seated.iter().map(|s| s.0).collect();
    let stacks = ledger::seating_balances(conn, &ids)?;
    Ok(seated
        .into_iter()
        .map(|(id, seat, player)| {
            let stack = stacks.iter().find(|s| s.0 == id).map_or(0, |s| s.1);
            (id, seat, player, stack)
        })
        .collect())
}

/// The last hand started at a table: (id, number, dealer seat, still open).
pub fn last_hand(conn: &mut DbConnection, table_id: i64) -> Result<Option<(i64, i32, i32, bool)>, AppError> {
    use super::schema::hand_voids;
    /// (id, number, dealer seat, commit id, void id)
    type LastHand = (i64, i32, i32, Option<i64>, Option<i64>);
    let last: Option<LastHand> = hands::table
        .left_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(table_id))
        .order(hands::number.desc())
        .select((hands::id, hands::number, hands::dealer_seat, showdowns::id.nullable(), hand_voids::id.nullable()))
        .first(conn)
        .optional()?;
    Ok(last
        .map(|(id, number, dealer, committed, voided)| (id, number, dealer, committed.is_none() && voided.is_none())))
}

/// The hand started last and neither committed nor voided, if any.
pub fn open_hand(conn: &mut DbConnection, table_id: i64) -> Result<Option<(i64, i32)>, AppError> {
    Ok(last_hand(conn, table_id)?.filter(|h| h.3).map(|h| (h.0, h.1)))
}

pub fn get_table(conn: &mut DbConnection, id: i64) -> Result<TableView, AppError> {
    let row = table_row(conn, id)?;
    let ruleset = current_ruleset(conn, id)?;
    let pool = row.pool_id.map(|p| get_pool(conn, p)).transpose()?;
    let mut seats = Vec::new();
    for (seating_id, seat, player, stack) in active_seatings(conn, id)? {
        seats.push(SeatView { seat, seating_id, player, stack: from_cents(stack) });
    }
    let last = last_hand(conn, id)?;
    Ok(TableView {
        id,
        name: row.name,
        seat_count: row.seat_count,
        time_zone: row.time_zone,
        gaming_day_cutoff: row.gaming_day_cutoff,
        ruleset: (&ruleset).into(),
        pool,
        seats,
        hand_number: last.map_or(0, |l| l.1),
        dealer_seat: last.map(|l| l.2),
        open_hand: last.filter(|l| l.3).map(|l| l.1),
    })
}

pub fn list_tables(conn: &mut DbConnection) -> Result<Vec<TableView>, AppError> {
    let ids: Vec<i64> = casino_tables::table.order(casino_tables::id.asc()).select(casino_tables::id).load(conn)?;
    ids.into_iter().map(|id| get_table(conn, id)).collect()
}

// ---- players ----

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatPlayerRequest {
    pub seat: i32,
    pub player: String,
    pub buy_in: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmountRequest {
    pub amount: String,
}

pub fn seat_player(
    db: &Database,
    actor: &Actor,
    table_id: i64,
    req: &SeatPlayerRequest,
) -> Result<TableView, AppError> {
    let actor = actor.clone();
    let table = table_row(&mut *db.conn()?, table_id)?;
    let seat = req.seat;
    if !(1..=table.seat_count).contains(&req.seat) {
        return Err(AppError::Invalid(format!(
            "seat {} is not a seat of this table (1 to {})",
            req.seat, table.seat_count
        )));
    }
    let player = check_name(&req.player, "the player name")?;
    let buy_in = to_cents(parse_amount(&req.buy_in, "buy_in")?, "buy_in")?;
    if buy_in == 0 {
        return Err(AppError::Invalid("buy_in must be greater than zero".to_string()));
    }
    db.write(Some(table_id), move |conn| {
        if open_hand(conn, table_id)?.is_some() {
            return Err(AppError::Conflict("a hand is in progress; seat players between hands".to_string()));
        }
        if active_seatings(conn, table_id)?.iter().any(|s| s.1 == seat) {
            return Err(AppError::Conflict(format!("seat {seat} is taken")));
        }
        let seating: i64 = diesel::insert_into(seatings::table)
            .values((
                seatings::table_id.eq(table_id),
                seatings::seat.eq(seat),
                seatings::player.eq(&player),
                seatings::seated_at.eq(now()),
            ))
            .returning(seatings::id)
            .get_result(conn)?;
        ledger::insert(
            conn,
            &[NewEntry {
                table_id: Some(table_id),
                seating_id: Some(seating),
                ..NewEntry::new(EntryKind::BuyIn, buy_in)
            }],
        )?;
        let detail = serde_json::json!({ "seat": seat, "player": player, "buy_in": from_cents(buy_in).to_string() });
        audit::record(conn, &actor, "seat_player", &format!("table {table_id} seat {seat}"), detail)
    })?;
    get_table(&mut *db.conn()?, table_id)
}

fn seated(conn: &mut DbConnection, table_id: i64, seat: i32) -> Result<i64, AppError> {
    active_seatings(conn, table_id)?
        .into_iter()
        .find(|s| s.1 == seat)
        .map(|s| s.0)
        .ok_or_else(|| AppError::NotFound(format!("no player in seat {seat}")))
}

/// Add-ons only between hands.
pub fn add_on(
    db: &Database,
    actor: &Actor,
    table_id: i64,
    seat: i32,
    req: &AmountRequest,
) -> Result<TableView, AppError> {
    let actor = actor.clone();
    table_row(&mut *db.conn()?, table_id)?;
    let amount = to_cents(parse_amount(&req.amount, "amount")?, "amount")?;
    if amount == 0 {
        return Err(AppError::Invalid("amount must be greater than zero".to_string()));
    }
    db.write(Some(table_id), move |conn| {
        if let Some((_, n)) = open_hand(conn, table_id)? {
            return Err(AppError::Conflict(format!("hand {n} is in progress; add-ons only between hands")));
        }
        let seating = seated(conn, table_id, seat)?;
        check_stack(
            ledger::seating_balance(conn, seating)? + amount,
            &format!("seat {seat}'s stack after the add-on"),
        )?;
        ledger::insert(
            conn,
            &[NewEntry {
                table_id: Some(table_id),
                seating_id: Some(seating),
                ..NewEntry::new(EntryKind::AddOn, amount)
            }],
        )?;
        let detail = serde_json::json!({ "amount": from_cents(amount).to_string() });
        audit::record(conn, &actor, "add_on", &format!("table {table_id} seat {seat}"), detail)
    })?;
    get_table(&mut *db.conn()?, table_id)
}

/// Cash-out of the whole stack; the seat is free afterwards.
pub fn cash_out(db: &Database, actor: &Actor, table_id: i64, seat: i32) -> Result<TableView, AppError> {
    table_row(&mut *db.conn()?, table_id)?;
    let actor = actor.clone();
    db.write(Some(table_id), move |conn| {
        if let Some((_, n)) = open_hand(conn, table_id)? {
            return Err(AppError::Conflict(format!("hand {n} is in progress; cash out between hands")));
        }
        let seating = seated(conn, table_id, seat)?;
        if let Some(hit) = super::jackpots::open_hits_for_seating(conn, seating)?.first() {
            return Err(AppError::Conflict(format!(
                "jackpot hit {hit} owes seat {seat} a share and waits for sign-off; verify or reject it first"
            )));
        }
        let stack = ledger::seating_balance(conn, seating)?;
        ledger::insert(
            conn,
            &[NewEntry {
                table_id: Some(table_id),
                seating_id: Some(seating),
                ..NewEntry::new(EntryKind::CashOut, -stack)
            }],
        )?;
        let detail = serde_json::json!({ "amount": from_cents(stack).to_string() });
        audit::record(conn, &actor, "cash_out", &format!("table {table_id} seat {seat}"), detail)
    })?;
    get_table(&mut *db.conn()?, table_id)
}
