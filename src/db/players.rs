//! Queries on players' records (a name, perhaps a member or ID number).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{players, seatings};
use super::{now, DbConnection};
use crate::domain::{PlayerId, UserId};

#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = players)]
pub struct PlayerRow {
    pub id: PlayerId,
    pub name: String,
    pub member_no: Option<String>,
    pub created_at: NaiveDateTime,
}

pub fn insert(
    conn: &mut DbConnection,
    name: &str,
    member_no: Option<&str>,
    by: Option<UserId>,
) -> QueryResult<PlayerId> {
    diesel::insert_into(players::table)
        .values((
            players::name.eq(name),
            players::member_no.eq(member_no),
            players::created_by.eq(by),
            players::created_at.eq(now()),
        ))
        .returning(players::id)
        .get_result(conn)
}

pub fn by_id(conn: &mut DbConnection, id: PlayerId) -> QueryResult<Option<PlayerRow>> {
    players::table.find(id).select(PlayerRow::as_select()).first(conn).optional()
}

pub fn by_member_no(conn: &mut DbConnection, member_no: &str) -> QueryResult<Option<PlayerRow>> {
    players::table.filter(players::member_no.eq(member_no)).select(PlayerRow::as_select()).first(conn).optional()
}

/// How many of the newest seatings a list of all players looks through for
/// the players seated last, before it asks every other player for their
/// latest seating.
pub const RECENT_SEATINGS: i64 = 2_000;

/// Players whose name or member number contains `text` (any case; all when
/// it is empty), the most recently seated first, then the newest records; at
/// most `limit`, each with their count of sessions and last seating.
///
/// With no text, the players are found in the newest seatings (at most
/// [`RECENT_SEATINGS`] of them): any player seated there was seated after
/// every player who was not. Only when those are too few are the other
/// players ordered by their latest seating (an index probe each), and only
/// the players listed have their sessions counted: never a pass over every
/// player with their sessions counted, which grew with the room's history
/// (the dealer's screen lists them whenever a seat is open).
pub fn search(
    conn: &mut DbConnection,
    text: &str,
    limit: i64,
) -> QueryResult<Vec<(PlayerRow, i64, Option<NaiveDateTime>)>> {
    search_within(conn, text, limit, RECENT_SEATINGS)
}

/// [`search`], looking through the newest `recent` seatings first (a test
/// sets a small number to cross the boundary).
pub fn search_within(
    conn: &mut DbConnection,
    text: &str,
    limit: i64,
    recent: i64,
) -> QueryResult<Vec<(PlayerRow, i64, Option<NaiveDateTime>)>> {
    let sessions = seatings::table.filter(seatings::player_id.eq(players::id.nullable())).count().single_value();
    let last = seatings::table
        .filter(seatings::player_id.eq(players::id.nullable()))
        .select(diesel::dsl::max(seatings::seated_at))
        .single_value();
    // The order: by each player's latest seating (times are to the second;
    // seatings' ids are in the order they were made).
    let latest = || {
        seatings::table
            .filter(seatings::player_id.eq(players::id.nullable()))
            .select(diesel::dsl::max(seatings::id))
            .single_value()
    };
    let by_latest = || (latest().is_null().asc(), latest().desc(), players::id.desc());
    let mut q = players::table.into_boxed();
    let text = text.trim();
    if text.is_empty() {
        let wanted = usize::try_from(limit).unwrap_or(0);
        let newest: Vec<Option<PlayerId>> = seatings::table
            .filter(seatings::player_id.is_not_null())
            .order(seatings::id.desc())
            .limit(recent)
            .select(seatings::player_id)
            .load(conn)?;
        let mut chosen: Vec<PlayerId> = Vec::new();
        for player in newest.into_iter().flatten() {
            if chosen.len() < wanted && !chosen.contains(&player) {
                chosen.push(player);
            }
        }
        if chosen.len() < wanted {
            // The rest in the same order: by their latest seating, then the
            // records never seated, newest first.
            let others: Vec<PlayerId> = players::table
                .filter(players::id.ne_all(chosen.clone()))
                .order(by_latest())
                .limit(limit - i64::try_from(chosen.len()).unwrap_or(0))
                .select(players::id)
                .load(conn)?;
            chosen.extend(others);
        }
        q = q.filter(players::id.eq_any(chosen));
    } else {
        // LIKE's own characters are taken literally.
        let pattern =
            format!("%{}%", text.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
        q = q.filter(
            diesel::dsl::sql::<diesel::sql_types::Bool>("(lower(players.name) LIKE ")
                .bind::<diesel::sql_types::Text, _>(pattern.clone())
                .sql(" ESCAPE '\\' OR lower(players.member_no) LIKE ")
                .bind::<diesel::sql_types::Text, _>(pattern)
                .sql(" ESCAPE '\\')"),
        );
    }
    let rows: Vec<(PlayerRow, Option<i64>, Option<NaiveDateTime>)> =
        q.select((PlayerRow::as_select(), sessions, last)).order(by_latest()).limit(limit).load(conn)?;
    Ok(rows.into_iter().map(|(p, n, last)| (p, n.unwrap_or(0), last)).collect())
}
