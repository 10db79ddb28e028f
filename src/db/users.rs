//! Queries on users, their dealer tables, API tokens and the shared secrets.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{api_tokens, app_secrets, casino_tables, dealer_tables, users};
use super::{now, DbConnection};
use crate::domain::{TableId, TokenId, UserId};

/// A user's row, without the password hash.
#[derive(Clone, Debug, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: UserId,
    pub username: String,
    pub display_name: String,
    /// Comma-separated role names.
    pub roles: String,
    pub active: bool,
    pub session_epoch: i32,
    pub created_at: NaiveDateTime,
}

pub fn tables_of(conn: &mut DbConnection, user: UserId) -> QueryResult<Vec<TableId>> {
    dealer_tables::table
        .filter(dealer_tables::user_id.eq(user))
        .order(dealer_tables::table_id.asc())
        .select(dealer_tables::table_id)
        .load(conn)
}

/// An active user with their dealer tables (one query: every signed-in
/// request asks).
pub fn active_user(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<(UserRow, Vec<TableId>)>> {
    let rows: Vec<(UserRow, Option<TableId>)> = users::table
        .left_join(dealer_tables::table.on(dealer_tables::user_id.eq(users::id)))
        .filter(users::id.eq(id))
        .filter(users::active.eq(true))
        .order(dealer_tables::table_id.asc())
        .select((UserRow::as_select(), dealer_tables::table_id.nullable()))
        .load(conn)?;
    Ok(with_tables(rows))
}

fn with_tables(rows: Vec<(UserRow, Option<TableId>)>) -> Option<(UserRow, Vec<TableId>)> {
    let tables: Vec<TableId> = rows.iter().filter_map(|r| r.1).collect();
    Some((rows.into_iter().next()?.0, tables))
}

/// The user a sign-in names, with their password hash.
pub fn by_username(conn: &mut DbConnection, username: &str) -> QueryResult<Option<(UserRow, String)>> {
    users::table
        .filter(users::username.eq(username))
        .select((UserRow::as_select(), users::password_hash))
        .first(conn)
        .optional()
}

pub fn user(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<UserRow>> {
    users::table.find(id).select(UserRow::as_select()).first(conn).optional()
}

pub fn password_hash(conn: &mut DbConnection, id: UserId) -> QueryResult<Option<String>> {
    users::table.find(id).select(users::password_hash).first(conn).optional()
}

pub fn count_users(conn: &mut DbConnection) -> QueryResult<i64> {
    users::table.count().get_result(conn)
}

pub fn username_taken(conn: &mut DbConnection, username: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(users::table.filter(users::username.eq(username)))).get_result(conn)
}

pub fn all_users(conn: &mut DbConnection) -> QueryResult<Vec<UserRow>> {
    users::table.order(users::username.asc()).select(UserRow::as_select()).load(conn)
}

/// The role text of every active user.
pub fn active_roles(conn: &mut DbConnection) -> QueryResult<Vec<String>> {
    users::table.filter(users::active.eq(true)).select(users::roles).load(conn)
}

pub struct NewUser<'a> {
    pub username: &'a str,
    pub display_name: &'a str,
    pub roles: &'a str,
    pub password_hash: &'a str,
    pub password_set_by: Option<UserId>,
}

pub fn insert_user(conn: &mut DbConnection, u: &NewUser) -> QueryResult<UserId> {
    diesel::insert_into(users::table)
        .values((
            users::username.eq(u.username),
            users::display_name.eq(u.display_name),
            users::roles.eq(u.roles),
            users::password_hash.eq(u.password_hash),
            users::active.eq(true),
            users::session_epoch.eq(0),
            users::created_at.eq(now()),
            users::password_set_by.eq(u.password_set_by),
        ))
        .returning(users::id)
        .get_result(conn)
}

/// Changes a user's name, roles and status; `end_sessions` moves their
/// session epoch on (every session of theirs ends).
pub fn update_user(
    conn: &mut DbConnection,
    id: UserId,
    display_name: &str,
    roles: &str,
    active: bool,
    end_sessions: bool,
) -> QueryResult<()> {
    diesel::update(users::table.find(id))
        .set((
            users::display_name.eq(display_name),
            users::roles.eq(roles),
            users::active.eq(active),
            users::session_epoch.eq(users::session_epoch + if end_sessions { 1 } else { 0 }),
        ))
        .execute(conn)
        .map(|_| ())
}

/// A new password (and who set it); every session of the user ends.
pub fn set_password(conn: &mut DbConnection, id: UserId, hash: &str, set_by: Option<UserId>) -> QueryResult<()> {
    diesel::update(users::table.find(id))
        .set((
            users::password_hash.eq(hash),
            users::password_set_by.eq(set_by),
            users::session_epoch.eq(users::session_epoch + 1),
        ))
        .execute(conn)
        .map(|_| ())
}

pub fn end_sessions(conn: &mut DbConnection, id: UserId) -> QueryResult<()> {
    diesel::update(users::table.find(id))
        .set(users::session_epoch.eq(users::session_epoch + 1))
        .execute(conn)
        .map(|_| ())
}

/// Who set each of these users' current password (`None`: the command line).
pub fn password_setters(conn: &mut DbConnection, ids: &[UserId]) -> QueryResult<Vec<(UserId, Option<UserId>)>> {
    users::table.filter(users::id.eq_any(ids)).select((users::id, users::password_set_by)).load(conn)
}

pub fn missing_tables(conn: &mut DbConnection, tables: &[TableId]) -> QueryResult<Vec<TableId>> {
    let found: Vec<TableId> =
        casino_tables::table.filter(casino_tables::id.eq_any(tables)).select(casino_tables::id).load(conn)?;
    Ok(tables.iter().copied().filter(|t| !found.contains(t)).collect())
}

pub fn set_tables(conn: &mut DbConnection, user: UserId, tables: &[TableId]) -> QueryResult<()> {
    diesel::delete(dealer_tables::table.filter(dealer_tables::user_id.eq(user))).execute(conn)?;
    for &t in tables {
        diesel::insert_into(dealer_tables::table)
            .values((dealer_tables::user_id.eq(user), dealer_tables::table_id.eq(t)))
            .execute(conn)?;
    }
    Ok(())
}

// ---- API tokens ----

pub struct NewToken<'a> {
    pub user: UserId,
    pub hash: &'a str,
    pub label: &'a str,
    pub roles: &'a str,
    pub tables: &'a str,
    pub expires_at: Option<NaiveDateTime>,
}

pub fn insert_token(conn: &mut DbConnection, t: &NewToken) -> QueryResult<TokenId> {
    diesel::insert_into(api_tokens::table)
        .values((
            api_tokens::user_id.eq(t.user),
            api_tokens::token_hash.eq(t.hash),
            api_tokens::label.eq(t.label),
            api_tokens::created_at.eq(now()),
            api_tokens::roles.eq(t.roles),
            api_tokens::tables.eq(t.tables),
            api_tokens::expires_at.eq(t.expires_at),
        ))
        .returning(api_tokens::id)
        .get_result(conn)
}

/// Revokes one token; false when there was no active token by that id.
pub fn revoke_token(conn: &mut DbConnection, id: TokenId) -> QueryResult<bool> {
    let updated = diesel::update(api_tokens::table.find(id).filter(api_tokens::revoked_at.is_null()))
        .set(api_tokens::revoked_at.eq(now()))
        .execute(conn)?;
    Ok(updated > 0)
}

/// Revokes every token of a user; how many.
pub fn revoke_tokens_of(conn: &mut DbConnection, user: UserId) -> QueryResult<usize> {
    diesel::update(api_tokens::table.filter(api_tokens::user_id.eq(user)).filter(api_tokens::revoked_at.is_null()))
        .set(api_tokens::revoked_at.eq(now()))
        .execute(conn)
}

/// What a live token grants: (token id, its roles, its tables), both
/// comma-separated, `None` for all of its user's.
pub type TokenGrant = (TokenId, Option<String>, Option<String>);

/// The active user of a live token (not revoked, not expired), with their
/// dealer tables and what the token grants (one query).
pub fn token_user(
    conn: &mut DbConnection,
    token_hash: &str,
) -> QueryResult<Option<(UserRow, Vec<TableId>, TokenGrant)>> {
    let rows: Vec<(UserRow, Option<TableId>, TokenGrant)> = api_tokens::table
        .inner_join(users::table.on(users::id.eq(api_tokens::user_id)))
        .left_join(dealer_tables::table.on(dealer_tables::user_id.eq(users::id)))
        .filter(api_tokens::token_hash.eq(token_hash))
        .filter(api_tokens::revoked_at.is_null())
        .filter(api_tokens::expires_at.is_null().or(api_tokens::expires_at.gt(now())))
        .filter(users::active.eq(true))
        .order(dealer_tables::table_id.asc())
        .select((
            UserRow::as_select(),
            dealer_tables::table_id.nullable(),
            (api_tokens::id, api_tokens::roles, api_tokens::tables),
        ))
        .load(conn)?;
    let Some(grant) = rows.first().map(|r| r.2.clone()) else {
        return Ok(None);
    };
    Ok(with_tables(rows.into_iter().map(|r| (r.0, r.1)).collect()).map(|(u, t)| (u, t, grant)))
}

// ---- secrets shared by every app server ----

pub fn secret(conn: &mut DbConnection, name: &str) -> QueryResult<Option<String>> {
    app_secrets::table.find(name).select(app_secrets::value).first(conn).optional()
}

pub fn insert_secret(conn: &mut DbConnection, name: &str, value: &str) -> QueryResult<()> {
    diesel::insert_into(app_secrets::table)
        .values((app_secrets::name.eq(name), app_secrets::value.eq(value)))
        .execute(conn)
        .map(|_| ())
}
