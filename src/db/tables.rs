//! Queries on pools, tables, their versioned rulesets, and seated players.

use diesel::prelude::*;

use super::schema::{
    casino_tables, gaming_day_signoffs, hand_voids, hands, pools, ruleset_versions, seatings, showdowns,
    table_status_changes,
};
use super::{now, DbConnection};
use crate::domain::{
    HandId, HandNumber, Money, PlayerId, PoolId, RulesetVersionId, SeatNo, SeatingId, TableId, TableStatus, UserId,
};

// ---- pools ----

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = pools)]
pub struct PoolRow {
    pub id: PoolId,
    pub name: String,
    pub seed_cents: Money,
    pub created_at: chrono::NaiveDateTime,
    pub loser_share_pct: i32,
    pub winner_share_pct: i32,
    pub others_share_pct: i32,
    /// The pool's clock: its gaming days, kept as made.
    pub time_zone: String,
    pub gaming_day_cutoff: String,
}

pub struct NewPool<'a> {
    pub name: &'a str,
    pub seed: Money,
    /// loser, winner, others, in percent.
    pub shares: (i32, i32, i32),
    pub time_zone: &'a str,
    pub gaming_day_cutoff: &'a str,
}

pub fn insert_pool(conn: &mut DbConnection, pool: &NewPool) -> QueryResult<PoolId> {
    diesel::insert_into(pools::table)
        .values((
            pools::name.eq(pool.name),
            pools::seed_cents.eq(pool.seed),
            pools::created_at.eq(now()),
            pools::loser_share_pct.eq(pool.shares.0),
            pools::winner_share_pct.eq(pool.shares.1),
            pools::others_share_pct.eq(pool.shares.2),
            pools::time_zone.eq(pool.time_zone),
            pools::gaming_day_cutoff.eq(pool.gaming_day_cutoff),
        ))
        .returning(pools::id)
        .get_result(conn)
}

pub fn pool(conn: &mut DbConnection, id: PoolId) -> QueryResult<Option<PoolRow>> {
    pools::table.find(id).select(PoolRow::as_select()).first(conn).optional()
}

pub fn pools_by_name(conn: &mut DbConnection) -> QueryResult<Vec<PoolRow>> {
    pools::table.order(pools::name.asc()).select(PoolRow::as_select()).load(conn)
}

/// A pool's name, re-seed amount and shares, changed (audited by the caller).
pub fn update_pool(
    conn: &mut DbConnection,
    id: PoolId,
    name: &str,
    seed: Money,
    shares: (i32, i32, i32),
) -> QueryResult<()> {
    diesel::update(pools::table.find(id))
        .set((
            pools::name.eq(name),
            pools::seed_cents.eq(seed),
            pools::loser_share_pct.eq(shares.0),
            pools::winner_share_pct.eq(shares.1),
            pools::others_share_pct.eq(shares.2),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Whether another pool has this name.
pub fn pool_name_taken(conn: &mut DbConnection, name: &str, other_than: Option<PoolId>) -> QueryResult<bool> {
    let other = other_than.unwrap_or(PoolId(0));
    diesel::select(diesel::dsl::exists(pools::table.filter(pools::name.eq(name)).filter(pools::id.ne(other))))
        .get_result(conn)
}

/// The names of the tables feeding `pool`.
pub fn tables_feeding(conn: &mut DbConnection, pool: PoolId) -> QueryResult<Vec<String>> {
    casino_tables::table
        .filter(casino_tables::pool_id.eq(pool))
        .order(casino_tables::name.asc())
        .select(casino_tables::name)
        .load(conn)
}

// ---- tables and rulesets ----

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = casino_tables)]
pub struct TableRow {
    pub id: TableId,
    pub name: String,
    pub pool_id: Option<PoolId>,
    pub seat_count: i32,
    pub time_zone: String,
    pub gaming_day_cutoff: String,
}

pub struct NewTable<'a> {
    pub name: &'a str,
    pub pool: Option<PoolId>,
    pub seat_count: i32,
    pub time_zone: &'a str,
    pub gaming_day_cutoff: &'a str,
}

pub fn insert_table(conn: &mut DbConnection, t: &NewTable) -> QueryResult<TableId> {
    diesel::insert_into(casino_tables::table)
        .values((
            casino_tables::name.eq(t.name),
            casino_tables::pool_id.eq(t.pool),
            casino_tables::seat_count.eq(t.seat_count),
            casino_tables::time_zone.eq(t.time_zone),
            casino_tables::gaming_day_cutoff.eq(t.gaming_day_cutoff),
            casino_tables::created_at.eq(now()),
        ))
        .returning(casino_tables::id)
        .get_result(conn)
}

/// A table's settings, changed (audited by the caller).
pub fn update_table(conn: &mut DbConnection, t: &TableRow) -> QueryResult<()> {
    diesel::update(casino_tables::table.find(t.id))
        .set((
            casino_tables::name.eq(&t.name),
            casino_tables::pool_id.eq(t.pool_id),
            casino_tables::seat_count.eq(t.seat_count),
            casino_tables::time_zone.eq(&t.time_zone),
            casino_tables::gaming_day_cutoff.eq(&t.gaming_day_cutoff),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Whether another table has this name.
pub fn table_name_taken(conn: &mut DbConnection, name: &str, other_than: TableId) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        casino_tables::table.filter(casino_tables::name.eq(name)).filter(casino_tables::id.ne(other_than)),
    ))
    .get_result(conn)
}

pub fn table(conn: &mut DbConnection, id: TableId) -> QueryResult<Option<TableRow>> {
    casino_tables::table.find(id).select(TableRow::as_select()).first(conn).optional()
}

pub fn table_ids(conn: &mut DbConnection) -> QueryResult<Vec<TableId>> {
    casino_tables::table.order(casino_tables::id.asc()).select(casino_tables::id).load(conn)
}

/// Whether anyone has ever been seated at the table.
pub fn has_seatings(conn: &mut DbConnection, table: TableId) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(seatings::table.filter(seatings::table_id.eq(table)))).get_result(conn)
}

pub fn table_exists(conn: &mut DbConnection, id: TableId) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(casino_tables::table.find(id))).get_result(conn)
}

/// Every table's id and name, in id order.
pub fn table_names(conn: &mut DbConnection) -> QueryResult<Vec<(TableId, String)>> {
    casino_tables::table.order(casino_tables::id.asc()).select((casino_tables::id, casino_tables::name)).load(conn)
}

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = ruleset_versions)]
pub struct RulesetRow {
    pub id: RulesetVersionId,
    pub table_id: TableId,
    pub version: i32,
    pub preset: String,
    pub unit_cents: Money,
    pub rake_cents: Money,
    pub jackpot_cents: Money,
    pub created_at: chrono::NaiveDateTime,
    /// The options that differ from the default, as JSON text.
    pub options: String,
    /// Per-pair stakes, JSON `[{"seats": [a, b], "unit_cents": n}]`.
    pub pair_units: String,
    /// The revision of the preset's definition this version plays.
    pub rules_revision: i32,
}

pub struct NewRuleset<'a> {
    pub table: TableId,
    pub version: i32,
    pub preset: &'a str,
    pub unit: Money,
    pub rake: Money,
    pub jackpot: Money,
    pub created_by: Option<UserId>,
    pub options: String,
    pub pair_units: String,
    pub rules_revision: i32,
}

pub fn insert_ruleset(conn: &mut DbConnection, r: &NewRuleset) -> QueryResult<()> {
    diesel::insert_into(ruleset_versions::table)
        .values((
            ruleset_versions::table_id.eq(r.table),
            ruleset_versions::version.eq(r.version),
            ruleset_versions::preset.eq(r.preset),
            ruleset_versions::unit_cents.eq(r.unit),
            ruleset_versions::rake_cents.eq(r.rake),
            ruleset_versions::jackpot_cents.eq(r.jackpot),
            ruleset_versions::created_at.eq(now()),
            ruleset_versions::created_by.eq(r.created_by),
            ruleset_versions::options.eq(&r.options),
            ruleset_versions::pair_units.eq(&r.pair_units),
            ruleset_versions::rules_revision.eq(r.rules_revision),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Every ruleset version of a table, newest first, with who made it (username).
pub fn ruleset_history(conn: &mut DbConnection, table: TableId) -> QueryResult<Vec<(RulesetRow, Option<String>)>> {
    use super::schema::users;
    ruleset_versions::table
        .left_join(users::table.on(users::id.nullable().eq(ruleset_versions::created_by)))
        .filter(ruleset_versions::table_id.eq(table))
        .order(ruleset_versions::version.desc())
        .select((RulesetRow::as_select(), users::username.nullable()))
        .load(conn)
}

pub fn current_ruleset(conn: &mut DbConnection, table: TableId) -> QueryResult<Option<RulesetRow>> {
    ruleset_versions::table
        .filter(ruleset_versions::table_id.eq(table))
        .order(ruleset_versions::version.desc())
        .select(RulesetRow::as_select())
        .first(conn)
        .optional()
}

/// Every table's current ruleset: one statement.
pub fn current_rulesets(conn: &mut DbConnection) -> QueryResult<Vec<RulesetRow>> {
    let other = diesel::alias!(ruleset_versions as other);
    let latest = other
        .filter(other.field(ruleset_versions::table_id).eq(ruleset_versions::table_id))
        .select(diesel::dsl::max(other.field(ruleset_versions::version)))
        .single_value();
    ruleset_versions::table
        .filter(ruleset_versions::version.nullable().eq(latest))
        .select(RulesetRow::as_select())
        .load(conn)
}

/// Every table, by id.
pub fn tables(conn: &mut DbConnection) -> QueryResult<Vec<TableRow>> {
    casino_tables::table.order(casino_tables::id.asc()).select(TableRow::as_select()).load(conn)
}

/// What starting a hand reads of its table, in one statement.
pub struct StartChecks {
    pub ruleset: RulesetRow,
    /// The table's status as its latest change set it (`None`: never
    /// changed, so open).
    pub status: Option<TableStatus>,
    pub time_zone: String,
    pub gaming_day_cutoff: String,
    /// The latest gaming day an accountant closed (`YYYY-MM-DD`).
    pub last_closed_day: Option<String>,
}

/// The current ruleset with the table's status, its clock and the latest
/// closed gaming day: one statement, for starting a hand.
pub fn start_checks(conn: &mut DbConnection, table: TableId) -> QueryResult<Option<StartChecks>> {
    use diesel::dsl::max;
    // No `LIMIT`: SQLite plans a `LIMIT ?` with its bound value and so
    // prepares the statement again at every execution (`latest` by `MAX`).
    let latest_version = diesel::alias!(ruleset_versions as latest_version);
    let latest_change = diesel::alias!(table_status_changes as latest_change);
    let closed = diesel::alias!(gaming_day_signoffs as closed);
    let version = latest_version
        .filter(latest_version.field(ruleset_versions::table_id).eq(table))
        .select(max(latest_version.field(ruleset_versions::version)));
    let change = latest_change
        .filter(latest_change.field(table_status_changes::table_id).eq(table))
        .select(max(latest_change.field(table_status_changes::id)));
    let last_closed = closed
        .filter(closed.field(gaming_day_signoffs::action).eq("accountant"))
        .select(max(closed.field(gaming_day_signoffs::gaming_day)));
    ruleset_versions::table
        .inner_join(casino_tables::table)
        .left_join(table_status_changes::table.on(table_status_changes::id.nullable().eq_any(change)))
        .left_join(
            gaming_day_signoffs::table.on(gaming_day_signoffs::action
                .eq("accountant")
                .and(gaming_day_signoffs::gaming_day.nullable().eq_any(last_closed))),
        )
        .filter(ruleset_versions::table_id.eq(table))
        .filter(ruleset_versions::version.nullable().eq_any(version))
        .select((
            RulesetRow::as_select(),
            table_status_changes::status.nullable(),
            casino_tables::time_zone,
            casino_tables::gaming_day_cutoff,
            gaming_day_signoffs::gaming_day.nullable(),
        ))
        .get_result::<(RulesetRow, Option<TableStatus>, String, String, Option<String>)>(conn)
        .optional()
        .map(|found| {
            found.map(|(ruleset, status, time_zone, gaming_day_cutoff, last_closed_day)| StartChecks {
                ruleset,
                status,
                time_zone,
                gaming_day_cutoff,
                last_closed_day,
            })
        })
}

// ---- seatings ----

/// A seated player (a seating without a cash-out) with their stack.
#[derive(Clone, Debug)]
pub struct Seated {
    pub seating: SeatingId,
    pub seat: SeatNo,
    pub player: String,
    pub stack: Money,
}

/// Seated players by seat, with their stacks (`seating_stacks`, a key
/// probe each): one statement.
pub fn active_seatings(conn: &mut DbConnection, table: TableId) -> QueryResult<Vec<Seated>> {
    use super::schema::{open_seatings, seating_stacks};
    // The seats taken now (kept by the database as seatings are made and
    // cashed out), not every seating the table ever had.
    let seated: Vec<(SeatingId, SeatNo, String, Option<Money>)> = open_seatings::table
        .inner_join(seatings::table.on(seatings::id.eq(open_seatings::seating_id)))
        .left_join(seating_stacks::table.on(seating_stacks::seating_id.eq(open_seatings::seating_id)))
        .filter(open_seatings::table_id.eq(table))
        .order(open_seatings::seat.asc())
        .select((seatings::id, seatings::seat, seatings::player, seating_stacks::stack_cents.nullable()))
        .load(conn)?;
    Ok(seated
        .into_iter()
        .map(|(seating, seat, player, stack)| Seated { seating, seat, player, stack: stack.unwrap_or_default() })
        .collect())
}

/// Every table's seated players, by table and seat (the pit's view of all
/// tables at once): one statement.
pub fn all_active_seatings(conn: &mut DbConnection) -> QueryResult<Vec<(TableId, Seated)>> {
    use super::schema::{open_seatings, seating_stacks};
    let seated: Vec<(TableId, SeatingId, SeatNo, String, Option<Money>)> = open_seatings::table
        .inner_join(seatings::table.on(seatings::id.eq(open_seatings::seating_id)))
        .left_join(seating_stacks::table.on(seating_stacks::seating_id.eq(open_seatings::seating_id)))
        .order((open_seatings::table_id.asc(), open_seatings::seat.asc()))
        .select((
            open_seatings::table_id,
            seatings::id,
            seatings::seat,
            seatings::player,
            seating_stacks::stack_cents.nullable(),
        ))
        .load(conn)?;
    Ok(seated
        .into_iter()
        .map(|(table, seating, seat, player, stack)| {
            (table, Seated { seating, seat, player, stack: stack.unwrap_or_default() })
        })
        .collect())
}

/// A seating of a player's record, under the name it has now.
pub fn insert_seating(
    conn: &mut DbConnection,
    table: TableId,
    seat: SeatNo,
    player: PlayerId,
    name: &str,
    at: chrono::NaiveDateTime,
) -> QueryResult<SeatingId> {
    diesel::insert_into(seatings::table)
        .values((
            seatings::table_id.eq(table),
            seatings::seat.eq(seat),
            seatings::player.eq(name),
            seatings::player_id.eq(player),
            seatings::seated_at.eq(at),
        ))
        .returning(seatings::id)
        .get_result(conn)
}

// ---- hands at a table ----

/// The last hand started at a table.
#[derive(Clone, Copy, Debug)]
pub struct LastHand {
    pub id: HandId,
    pub number: HandNumber,
    pub dealer_seat: SeatNo,
    /// Neither committed nor voided.
    pub open: bool,
}

pub fn last_hand(conn: &mut DbConnection, table: TableId) -> QueryResult<Option<LastHand>> {
    type Row = (HandId, HandNumber, SeatNo, Option<i64>, Option<i64>);
    // No `LIMIT` (see `start_checks`): the last number by `MAX`.
    let other = diesel::alias!(hands as other);
    let last_number =
        other.filter(other.field(hands::table_id).eq(table)).select(diesel::dsl::max(other.field(hands::number)));
    let last: Option<Row> = hands::table
        .left_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::table_id.eq(table))
        .filter(hands::number.nullable().eq_any(last_number))
        .select((
            hands::id,
            hands::number,
            hands::dealer_seat,
            showdowns::hand_id.nullable(),
            hand_voids::id.nullable(),
        ))
        .get_result(conn)
        .optional()?;
    Ok(last.map(|(id, number, dealer_seat, committed, voided)| LastHand {
        id,
        number,
        dealer_seat,
        open: committed.is_none() && voided.is_none(),
    }))
}

/// Every table's last hand (tables without a hand are not in it): one
/// statement.
pub fn last_hands(conn: &mut DbConnection) -> QueryResult<Vec<(TableId, LastHand)>> {
    type Row = (TableId, HandId, HandNumber, SeatNo, Option<i64>, Option<i64>);
    // Each table's last hand's id (its number by `max`, then the hand: two
    // probes of the key of a table's hands), then those hands: driven from
    // the tables, never a pass over every hand. The `LIMIT`s diesel binds
    // on the subqueries cut nothing (each yields one row at most), so
    // PostgreSQL's generic plan is the custom one; with `ORDER BY number
    // DESC LIMIT $1` the generic plan was a pass over every hand.
    let (other, newest) = diesel::alias!(hands as other, hands as newest);
    let last_number = newest
        .filter(newest.field(hands::table_id).eq(casino_tables::id))
        .select(diesel::dsl::max(newest.field(hands::number)))
        .single_value();
    let last_of_table = other
        .filter(other.field(hands::table_id).eq(casino_tables::id))
        .filter(other.field(hands::number).nullable().eq(last_number))
        .select(other.field(hands::id))
        .single_value();
    let rows: Vec<Row> = hands::table
        .left_join(showdowns::table.on(showdowns::hand_id.eq(hands::id)))
        .left_join(hand_voids::table.on(hand_voids::hand_id.eq(hands::id)))
        .filter(hands::id.nullable().eq_any(casino_tables::table.select(last_of_table)))
        .select((
            hands::table_id,
            hands::id,
            hands::number,
            hands::dealer_seat,
            showdowns::hand_id.nullable(),
            hand_voids::id.nullable(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(table, id, number, dealer_seat, committed, voided)| {
            (table, LastHand { id, number, dealer_seat, open: committed.is_none() && voided.is_none() })
        })
        .collect())
}

/// The hand started last and neither committed nor voided, if any.
pub fn open_hand(conn: &mut DbConnection, table: TableId) -> QueryResult<Option<LastHand>> {
    Ok(last_hand(conn, table)?.filter(|h| h.open))
}

// ---- open and closed ----

/// A table's status as its latest change set it (`None`: never changed,
/// so open).
pub fn table_status(conn: &mut DbConnection, table: TableId) -> QueryResult<Option<TableStatus>> {
    table_status_changes::table
        .filter(table_status_changes::table_id.eq(table))
        .order(table_status_changes::id.desc())
        .select(table_status_changes::status)
        .first(conn)
        .optional()
}

/// A change of a table's status, appended to its history.
pub fn insert_status_change(
    conn: &mut DbConnection,
    table: TableId,
    status: TableStatus,
    by: Option<UserId>,
    note: &str,
) -> QueryResult<chrono::NaiveDateTime> {
    let at = now();
    diesel::insert_into(table_status_changes::table)
        .values((
            table_status_changes::table_id.eq(table),
            table_status_changes::status.eq(status),
            table_status_changes::changed_by.eq(by),
            table_status_changes::note.eq(note),
            table_status_changes::created_at.eq(at),
        ))
        .execute(conn)?;
    Ok(at)
}

/// A seating: (table, seat, player, seated at).
pub fn seating(
    conn: &mut DbConnection,
    id: SeatingId,
) -> QueryResult<Option<(TableId, SeatNo, String, chrono::NaiveDateTime)>> {
    seatings::table
        .find(id)
        .select((seatings::table_id, seatings::seat, seatings::player, seatings::seated_at))
        .first(conn)
        .optional()
}
