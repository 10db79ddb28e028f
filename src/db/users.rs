//! Users, their roles, the tables a dealer is assigned to, and API tokens.
//!
//! Passwords are stored as argon2id PHC strings; API tokens as their SHA-256
//! (a token is shown once, when it is made). A user's `session_epoch` rises
//! when their password, roles or status change, which ends their sessions.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::audit::{self, Actor};
use super::schema::{api_tokens, app_secrets, casino_tables, dealer_tables, users};
use super::{now, Database, DbConnection};
use crate::error::AppError;

/// What a user may do. A user holds one or more roles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Starts hands, enters and commits showdowns, seats players, at the
    /// tables assigned to them.
    Dealer,
    /// Everything a dealer does at every table; voids hands, changes
    /// rulesets, approves, verifies and rejects jackpot hits.
    Floor,
    /// Reads reports (read-only).
    Accountant,
    /// Users, tables and pools; may verify jackpot hits.
    Admin,
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Dealer, Role::Floor, Role::Accountant, Role::Admin];

    pub fn name(self) -> &'static str {
        match self {
            Role::Dealer => "dealer",
            Role::Floor => "floor",
            Role::Accountant => "accountant",
            Role::Admin => "admin",
        }
    }

    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name.trim())
    }
}

/// A signed-in user, as every request sees them.
#[derive(Clone, Debug, Serialize)]
pub struct User {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub roles: Vec<Role>,
    pub active: bool,
    #[serde(skip)]
    pub session_epoch: i32,
    /// Tables a dealer is assigned to.
    pub tables: Vec<i64>,
}

impl User {
    pub fn has(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    pub fn has_any(&self, roles: &[Role]) -> bool {
        roles.iter().any(|r| self.has(*r))
    }

    /// May enter and commit hands at `table_id`: floor anywhere, a dealer
    /// at their assigned tables.
    pub fn deals_at(&self, table_id: i64) -> bool {
        self.has(Role::Floor) || (self.has(Role::Dealer) && self.tables.contains(&table_id))
    }

    /// Requires one of `roles`, naming them in the refusal.
    pub fn require(&self, roles: &[Role]) -> Result<(), AppError> {
        if self.has_any(roles) {
            return Ok(());
        }
        let names: Vec<&str> = roles.iter().map(|r| r.name()).collect();
        Err(AppError::Forbidden(format!(
            "this needs the role {}; {} does not have it",
            names.join(" or "),
            self.username
        )))
    }

    /// Requires the right to deal at `table_id`.
    pub fn require_table(&self, table_id: i64) -> Result<(), AppError> {
        if self.deals_at(table_id) {
            return Ok(());
        }
        Err(AppError::Forbidden(format!(
            "{} is not assigned to table {table_id}: a dealer works at their assigned tables, a floor supervisor at any",
            self.username
        )))
    }
}

#[derive(Debug, Serialize)]
pub struct UserView {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub roles: Vec<Role>,
    pub active: bool,
    pub tables: Vec<i64>,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewUserRequest {
    pub username: String,
    #[serde(default)]
    pub display_name: Option<String>,
    pub roles: Vec<String>,
    pub password: String,
    #[serde(default)]
    pub tables: Vec<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateUserRequest {
    pub display_name: Option<String>,
    pub roles: Option<Vec<String>>,
    pub active: Option<bool>,
    pub password: Option<String>,
    pub tables: Option<Vec<i64>>,
}

/// Shortest and longest password accepted.
pub const PASSWORD_LENGTH: (usize, usize) = (10, 256);

pub fn validate_password(password: &str) -> Result<(), AppError> {
    let n = password.chars().count();
    if n < PASSWORD_LENGTH.0 || n > PASSWORD_LENGTH.1 {
        return Err(AppError::Invalid(format!(
            "password: it must be {} to {} characters long (it has {n})",
            PASSWORD_LENGTH.0, PASSWORD_LENGTH.1
        )));
    }
    Ok(())
}

/// A username: 1 to 64 of `a-z 0-9 . _ -`, stored lower-case.
pub fn normalize_username(name: &str) -> Result<String, AppError> {
    let name = name.trim().to_lowercase();
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-'));
    if !ok {
        return Err(AppError::Invalid(format!("username {name:?}: use 1 to 64 letters, digits, '.', '_' or '-'")));
    }
    Ok(name)
}

fn display_name_of(display: Option<&str>, username: &str) -> Result<String, AppError> {
    let display = display.map(str::trim).filter(|d| !d.is_empty()).unwrap_or(username);
    if display.chars().count() > 100 || display.chars().any(char::is_control) {
        return Err(AppError::Invalid("display_name: at most 100 characters, no control characters".to_string()));
    }
    Ok(display.to_string())
}

pub fn parse_roles(names: &[String]) -> Result<Vec<Role>, AppError> {
    let mut roles = Vec::new();
    for name in names {
        let role = Role::parse(name).ok_or_else(|| {
            AppError::Invalid(format!("roles: {name:?} is not a role (dealer, floor, accountant, admin)"))
        })?;
        if !roles.contains(&role) {
            roles.push(role);
        }
    }
    if roles.is_empty() {
        return Err(AppError::Invalid("roles: a user needs at least one role".to_string()));
    }
    roles.sort();
    Ok(roles)
}

fn roles_text(roles: &[Role]) -> String {
    roles.iter().map(|r| r.name()).collect::<Vec<_>>().join(",")
}

fn roles_of(text: &str) -> Vec<Role> {
    text.split(',').filter_map(Role::parse).collect()
}

/// An argon2id hash (PHC string) with a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, AppError> {
    use argon2::password_hash::PasswordHasher;
    argon2::Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| AppError::Internal(format!("password hashing failed: {e}")))
}

pub fn verify_password(hash: &str, password: &str) -> bool {
    use argon2::password_hash::{phc::PasswordHash, PasswordVerifier};
    PasswordHash::new(hash).is_ok_and(|h| argon2::Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash that no password matches, so an unknown username costs as much
/// time as a known one (no user enumeration by timing).
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password(&random_hex(16)).unwrap_or_default())
}

/// `n` random bytes as hex, from the operating system's generator.
pub fn random_hex(n: usize) -> String {
    use rand::RngCore;
    let mut bytes = vec![0u8; n];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A user's row, without the password hash.
#[derive(Queryable, Selectable)]
#[diesel(table_name = users)]
struct UserRow {
    id: i64,
    username: String,
    display_name: String,
    roles: String,
    active: bool,
    session_epoch: i32,
    created_at: NaiveDateTime,
}

fn tables_of(conn: &mut DbConnection, user_id: i64) -> Result<Vec<i64>, AppError> {
    Ok(dealer_tables::table
        .filter(dealer_tables::user_id.eq(user_id))
        .order(dealer_tables::table_id.asc())
        .select(dealer_tables::table_id)
        .load(conn)?)
}

fn user_from(conn: &mut DbConnection, row: UserRow) -> Result<User, AppError> {
    let tables = tables_of(conn, row.id)?;
    Ok(user_of(row, tables))
}

fn user_of(row: UserRow, tables: Vec<i64>) -> User {
    User {
        id: row.id,
        username: row.username,
        display_name: row.display_name,
        roles: roles_of(&row.roles),
        active: row.active,
        session_epoch: row.session_epoch,
        tables,
    }
}

fn view_of(conn: &mut DbConnection, row: UserRow) -> Result<UserView, AppError> {
    let created_at = row.created_at;
    let u = user_from(conn, row)?;
    Ok(UserView {
        id: u.id,
        username: u.username,
        display_name: u.display_name,
        roles: u.roles,
        active: u.active,
        tables: u.tables,
        created_at,
    })
}

/// An active user by id.
/// An active user by id, with their dealer tables, in one query (every
/// request signed in asks).
pub fn active_user(conn: &mut DbConnection, id: i64) -> Result<Option<User>, AppError> {
    let rows: Vec<(UserRow, Option<i64>)> = users::table
        .left_join(dealer_tables::table.on(dealer_tables::user_id.eq(users::id)))
        .filter(users::id.eq(id))
        .filter(users::active.eq(true))
        .order(dealer_tables::table_id.asc())
        .select((UserRow::as_select(), dealer_tables::table_id.nullable()))
        .load(conn)?;
    Ok(user_with_tables(rows))
}

fn user_with_tables(rows: Vec<(UserRow, Option<i64>)>) -> Option<User> {
    let tables: Vec<i64> = rows.iter().filter_map(|r| r.1).collect();
    Some(user_of(rows.into_iter().next()?.0, tables))
}

/// The user a login names, with their password hash.
pub fn login_candidate(conn: &mut DbConnection, username: &str) -> Result<Option<(User, String)>, AppError> {
    let row: Option<(UserRow, String)> = users::table
        .filter(users::username.eq(username))
        .select((UserRow::as_select(), users::password_hash))
        .first(conn)
        .optional()?;
    row.map(|(r, hash)| Ok((user_from(conn, r)?, hash))).transpose()
}

pub fn count_users(conn: &mut DbConnection) -> Result<i64, AppError> {
    Ok(users::table.count().get_result(conn)?)
}

pub fn list_users(conn: &mut DbConnection) -> Result<Vec<UserView>, AppError> {
    let rows: Vec<UserRow> = users::table.order(users::username.asc()).select(UserRow::as_select()).load(conn)?;
    rows.into_iter().map(|r| view_of(conn, r)).collect()
}

pub fn get_user(conn: &mut DbConnection, id: i64) -> Result<UserView, AppError> {
    let row: UserRow = users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::NotFound(format!("no user {id}")))?;
    view_of(conn, row)
}

fn check_tables(conn: &mut DbConnection, tables: &[i64]) -> Result<(), AppError> {
    for &t in tables {
        let found: i64 = casino_tables::table.filter(casino_tables::id.eq(t)).count().get_result(conn)?;
        if found == 0 {
            return Err(AppError::Invalid(format!("tables: there is no table {t}")));
        }
    }
    Ok(())
}

fn set_tables(conn: &mut DbConnection, user_id: i64, tables: &[i64]) -> Result<(), AppError> {
    check_tables(conn, tables)?;
    diesel::delete(dealer_tables::table.filter(dealer_tables::user_id.eq(user_id))).execute(conn)?;
    let mut tables = tables.to_vec();
    tables.sort_unstable();
    tables.dedup();
    for t in tables {
        diesel::insert_into(dealer_tables::table)
            .values((dealer_tables::user_id.eq(user_id), dealer_tables::table_id.eq(t)))
            .execute(conn)?;
    }
    Ok(())
}

/// Creates a user. With `first_admin`, only while there is no user at all
/// (the first start of a new installation).
pub fn create_user(
    db: &Database,
    actor: &Actor,
    req: &NewUserRequest,
    first_admin: bool,
) -> Result<UserView, AppError> {
    let username = normalize_username(&req.username)?;
    let display_name = display_name_of(req.display_name.as_deref(), &username)?;
    let roles = parse_roles(&req.roles)?;
    validate_password(&req.password)?;
    if first_admin && !roles.contains(&Role::Admin) {
        return Err(AppError::Invalid("roles: the first user must be an admin".to_string()));
    }
    // Slow on purpose; done before the write transaction.
    let hash = hash_password(&req.password)?;
    let tables = req.tables.clone();
    let actor = actor.clone();
    let id = db.write(None, move |conn| {
        if first_admin && count_users(conn)? > 0 {
            return Err(AppError::Conflict("the first admin already exists; sign in instead".to_string()));
        }
        let taken: i64 = users::table.filter(users::username.eq(&username)).count().get_result(conn)?;
        if taken > 0 {
            return Err(AppError::Conflict(format!("username {username} is taken")));
        }
        let id: i64 = diesel::insert_into(users::table)
            .values((
                users::username.eq(&username),
                users::display_name.eq(&display_name),
                users::roles.eq(roles_text(&roles)),
                users::password_hash.eq(&hash),
                users::active.eq(true),
                users::session_epoch.eq(0),
                users::created_at.eq(now()),
            ))
            .returning(users::id)
            .get_result(conn)?;
        set_tables(conn, id, &tables)?;
        let detail = serde_json::json!({
            "username": username, "display_name": display_name,
            "roles": roles_text(&roles), "tables": tables,
        });
        audit::record(conn, &actor, "user_create", &format!("user {username}"), detail)?;
        Ok(id)
    })?;
    get_user(&mut *db.conn()?, id)
}

/// Changes a user; a new password, other roles or deactivation end the
/// user's sessions. Refuses to leave the service without an active admin.
pub fn update_user(db: &Database, actor: &Actor, id: i64, req: &UpdateUserRequest) -> Result<UserView, AppError> {
    let roles = req.roles.as_deref().map(parse_roles).transpose()?;
    if let Some(p) = &req.password {
        validate_password(p)?;
    }
    let hash = req.password.as_deref().map(hash_password).transpose()?;
    let display = req.display_name.clone();
    let active = req.active;
    let tables = req.tables.clone();
    let actor = actor.clone();
    db.write(None, move |conn| {
        let current = get_user(conn, id)?;
        let display_name = match &display {
            Some(d) => display_name_of(Some(d), &current.username)?,
            None => current.display_name.clone(),
        };
        let new_roles = roles.clone().unwrap_or_else(|| current.roles.clone());
        let new_active = active.unwrap_or(current.active);
        let ends_sessions = hash.is_some() || new_roles != current.roles || new_active != current.active;
        let mut changed = serde_json::Map::new();
        if display_name != current.display_name {
            changed.insert("display_name".into(), display_name.clone().into());
        }
        if new_roles != current.roles {
            changed.insert("roles".into(), roles_text(&new_roles).into());
        }
        if new_active != current.active {
            changed.insert("active".into(), new_active.into());
        }
        if hash.is_some() {
            changed.insert("password".into(), "changed".into());
        }
        diesel::update(users::table.find(id))
            .set((
                users::display_name.eq(&display_name),
                users::roles.eq(roles_text(&new_roles)),
                users::active.eq(new_active),
                users::session_epoch.eq(users::session_epoch + if ends_sessions { 1 } else { 0 }),
            ))
            .execute(conn)?;
        if let Some(hash) = &hash {
            diesel::update(users::table.find(id)).set(users::password_hash.eq(hash)).execute(conn)?;
        }
        if !new_active && current.active {
            // A deactivated user's tokens end for good (reactivation does not revive them).
            let revoked = diesel::update(
                api_tokens::table.filter(api_tokens::user_id.eq(id)).filter(api_tokens::revoked_at.is_null()),
            )
            .set(api_tokens::revoked_at.eq(now()))
            .execute(conn)?;
            changed.insert("tokens_revoked".into(), revoked.into());
        }
        if let Some(tables) = &tables {
            if *tables != current.tables {
                changed.insert("tables".into(), serde_json::json!(tables));
            }
            set_tables(conn, id, tables)?;
        }
        let admins: i64 = users::table
            .filter(users::active.eq(true))
            .select(users::roles)
            .load::<String>(conn)?
            .iter()
            .filter(|r| roles_of(r).contains(&Role::Admin))
            .count() as i64;
        if admins == 0 {
            return Err(AppError::Conflict("this would leave no active admin; make another admin first".to_string()));
        }
        audit::record(conn, &actor, "user_update", &format!("user {}", current.username), changed.into())?;
        get_user(conn, id)
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTokenRequest {
    pub label: String,
}

#[derive(Debug, Serialize)]
pub struct TokenView {
    pub id: i64,
    pub user_id: i64,
    pub label: String,
    /// Shown once, when the token is made; only its hash is stored.
    pub token: String,
}

fn token_hash(token: &str) -> String {
    format!("{:x}", Sha256::digest(token.as_bytes()))
}

/// Makes an API token for a user (a scanner, a shoe, a script).
pub fn create_token(db: &Database, actor: &Actor, user_id: i64, req: &NewTokenRequest) -> Result<TokenView, AppError> {
    let label = req.label.trim().to_string();
    if label.is_empty() || label.chars().count() > 100 {
        return Err(AppError::Invalid("label: name the token (1 to 100 characters)".to_string()));
    }
    let token = format!("pb_{}", random_hex(32));
    let hash = token_hash(&token);
    let actor = actor.clone();
    let (id, label) = db.write(None, move |conn| {
        let user = get_user(conn, user_id)?;
        let id: i64 = diesel::insert_into(api_tokens::table)
            .values((
                api_tokens::user_id.eq(user_id),
                api_tokens::token_hash.eq(&hash),
                api_tokens::label.eq(&label),
                api_tokens::created_at.eq(now()),
            ))
            .returning(api_tokens::id)
            .get_result(conn)?;
        audit::record(
            conn,
            &actor,
            "token_create",
            &format!("user {}", user.username),
            serde_json::json!({ "token_id": id, "label": label }),
        )?;
        Ok((id, label))
    })?;
    Ok(TokenView { id, user_id, label, token })
}

/// Revokes an API token.
pub fn revoke_token(db: &Database, actor: &Actor, token_id: i64) -> Result<(), AppError> {
    let actor = actor.clone();
    db.write(None, move |conn| {
        let updated = diesel::update(api_tokens::table.find(token_id).filter(api_tokens::revoked_at.is_null()))
            .set(api_tokens::revoked_at.eq(now()))
            .execute(conn)?;
        if updated == 0 {
            return Err(AppError::NotFound(format!("no active token {token_id}")));
        }
        audit::record(conn, &actor, "token_revoke", &format!("token {token_id}"), serde_json::json!({}))
    })
}

/// The active user an API token belongs to.
/// The active user an API token belongs to (one query).
pub fn user_for_token(conn: &mut DbConnection, token: &str) -> Result<Option<User>, AppError> {
    let rows: Vec<(UserRow, Option<i64>)> = api_tokens::table
        .inner_join(users::table.on(users::id.eq(api_tokens::user_id)))
        .left_join(dealer_tables::table.on(dealer_tables::user_id.eq(users::id)))
        .filter(api_tokens::token_hash.eq(token_hash(token)))
        .filter(api_tokens::revoked_at.is_null())
        .filter(users::active.eq(true))
        .order(dealer_tables::table_id.asc())
        .select((UserRow::as_select(), dealer_tables::table_id.nullable()))
        .load(conn)?;
    Ok(user_with_tables(rows))
}

/// The key that signs and encrypts session cookies: made once, kept in the
/// database, so every app server on one database shares it.
pub fn session_key(db: &Database) -> Result<Vec<u8>, AppError> {
    const NAME: &str = "session_key";
    let read = |conn: &mut DbConnection| -> Result<Option<String>, AppError> {
        Ok(app_secrets::table.find(NAME).select(app_secrets::value).first(conn).optional()?)
    };
    let stored = match read(&mut *db.conn()?)? {
        Some(value) => value,
        None => {
            let made = db.write(None, move |conn| {
                if let Some(value) = read(conn)? {
                    return Ok(value);
                }
                let value = random_hex(64);
                diesel::insert_into(app_secrets::table)
                    .values((app_secrets::name.eq(NAME), app_secrets::value.eq(&value)))
                    .execute(conn)?;
                Ok(value)
            });
            match made {
                Ok(value) => value,
                // Another app server made it at the same moment: use theirs.
                Err(_) => read(&mut *db.conn()?)?
                    .ok_or_else(|| AppError::Internal("the session key could not be stored".to_string()))?,
            }
        }
    };
    let bytes: Vec<u8> =
        (0..stored.len() / 2).filter_map(|i| u8::from_str_radix(stored.get(2 * i..2 * i + 2)?, 16).ok()).collect();
    if bytes.len() < 64 {
        return Err(AppError::Internal("the stored session key is shorter than 64 bytes".to_string()));
    }
    Ok(bytes)
}

/// Failed sign-ins allowed per user, and per client address, in
/// `SIGN_IN_WINDOW_MINUTES`; after that, sign-in is refused until the window
/// has passed, even with the right password.
pub const SIGN_IN_LIMITS: (i64, i64) = (5, 20);
pub const SIGN_IN_WINDOW_MINUTES: i64 = 15;

/// Checks a username and password. Every outcome is in the audit trail
/// (`login`, `login_failed`); the answer does not say whether the user exists.
pub fn sign_in(db: &Database, username: &str, password: &str, ip: &str) -> Result<User, AppError> {
    let wrong = || AppError::Unauthorized("wrong username or password".to_string());
    let name = normalize_username(username).unwrap_or_else(|_| username.trim().chars().take(64).collect());
    let since = now() - chrono::Duration::minutes(SIGN_IN_WINDOW_MINUTES);
    // Count and record the attempt in one serialised write before the slow
    // password check, so guesses sent in parallel cannot outrun the limit.
    let (attempt_actor, attempt_name) = (Actor::anonymous(&name, ip), name.clone());
    db.write(None, move |conn| {
        let (by_user, by_ip) = audit::unsuccessful_sign_ins(conn, &attempt_name, &attempt_actor.ip, since)?;
        if by_user >= SIGN_IN_LIMITS.0 || by_ip >= SIGN_IN_LIMITS.1 {
            return Err(AppError::TooManyRequests(format!(
                "too many failed sign-ins; wait {SIGN_IN_WINDOW_MINUTES} minutes and try again, or ask an admin"
            )));
        }
        audit::record(conn, &attempt_actor, "login_attempt", &format!("user {attempt_name}"), serde_json::json!({}))
    })?;
    let candidate = login_candidate(&mut *db.conn()?, &name)?;
    let (user, hash) = match candidate {
        Some((user, hash)) => (Some(user), hash),
        None => (None, dummy_hash().to_string()),
    };
    let password_ok = password.len() <= 1024 && verify_password(&hash, password);
    let actor = Actor::anonymous(&name, ip);
    match user {
        Some(user) if password_ok && user.active => {
            let actor = Actor { user_id: Some(user.id), ..actor };
            db.write(None, move |conn| {
                audit::record(conn, &actor, "login", &format!("user {name}"), serde_json::json!({}))
            })?;
            Ok(user)
        }
        known => {
            let detail = serde_json::json!({ "known_user": known.is_some() });
            db.write(None, move |conn| audit::record(conn, &actor, "login_failed", &format!("user {name}"), detail))?;
            Err(wrong())
        }
    }
}

/// Records a sign-out and ends every session of the user (the session
/// cookie itself cannot be recalled: a copy of it stops working because the
/// user's session epoch moves on).
pub fn sign_out(db: &Database, actor: &Actor) -> Result<(), AppError> {
    let actor = actor.clone();
    db.write(None, move |conn| {
        if let Some(id) = actor.user_id {
            diesel::update(users::table.find(id))
                .set(users::session_epoch.eq(users::session_epoch + 1))
                .execute(conn)?;
        }
        audit::record(conn, &actor, "logout", &format!("user {}", actor.username), serde_json::json!({}))
    })
}

/// The one-time token that opens `/setup` while there is no user: made on
/// the first start, printed in the service's log, kept in the database (so
/// every app server knows it). `None` once a user exists.
pub fn setup_token(db: &Database) -> Result<Option<String>, AppError> {
    const NAME: &str = "setup_token";
    db.write(None, move |conn| {
        if count_users(conn)? > 0 {
            return Ok(None);
        }
        let stored: Option<String> = app_secrets::table.find(NAME).select(app_secrets::value).first(conn).optional()?;
        if let Some(token) = stored {
            return Ok(Some(token));
        }
        let token = random_hex(16);
        diesel::insert_into(app_secrets::table)
            .values((app_secrets::name.eq(NAME), app_secrets::value.eq(&token)))
            .execute(conn)?;
        Ok(Some(token))
    })
}
