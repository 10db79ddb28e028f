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

/// Players whose name or member number contains `text` (any case; all when
/// it is empty), the most recently seated first, then the newest records; at
/// most `limit`, each with their count of sessions and last seating.
pub fn search(
    conn: &mut DbConnection,
    text: &str,
    limit: i64,
) -> QueryResult<Vec<(PlayerRow, i64, Option<NaiveDateTime>)>> {
    let sessions = seatings::table.filter(seatings::player_id.eq(players::id.nullable())).count().single_value();
    let last = seatings::table
        .filter(seatings::player_id.eq(players::id.nullable()))
        .select(diesel::dsl::max(seatings::seated_at))
        .single_value();
    let mut q = players::table.into_boxed();
    let text = text.trim();
    if !text.is_empty() {
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
    let rows: Vec<(PlayerRow, Option<i64>, Option<NaiveDateTime>)> = q
        .select((PlayerRow::as_select(), sessions, last))
        .order((last.is_null().asc(), last.desc(), players::id.desc()))
        .limit(limit)
        .load(conn)?;
    Ok(rows.into_iter().map(|(p, n, last)| (p, n.unwrap_or(0), last)).collect())
}
