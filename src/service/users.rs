//! Use cases of people: users and their roles and tables, API tokens,
//! signing in and out, one's own password, the first admin.
//!
//! Passwords are stored as argon2id PHC strings; API tokens as their SHA-256
//! (a token is shown once, when it is made). A user's `session_epoch` rises
//! when their password, roles or status change, which ends their sessions.

use chrono::{NaiveDateTime, SubsecRound};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::audit;
use crate::db::users::{self as q, UserRow};
use crate::db::{now, Database, DbConnection};
use crate::domain::{Actor, AppError, Role, TableId, TokenId, User, UserId};

/// A session lasts at most this long after sign-in (the web layer ends it
/// then; the pit board counts a dealer signed in for as long).
pub const SESSION_HOURS: i64 = 12;

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct UserView {
    pub id: UserId,
    pub username: String,
    pub display_name: String,
    pub roles: Vec<Role>,
    pub active: bool,
    pub tables: Vec<TableId>,
    pub created_at: NaiveDateTime,
    /// Locked out of signing in by failed attempts until then (UTC); an
    /// admin can unlock (`POST /api/v1/users/{id}/unlock`).
    pub locked_out_until: Option<chrono::DateTime<chrono::Utc>>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewUserRequest {
    pub username: String,
    #[serde(default)]
    pub display_name: Option<String>,
    pub roles: Vec<String>,
    pub password: String,
    #[serde(default)]
    pub tables: Vec<TableId>,
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateUserRequest {
    pub display_name: Option<String>,
    pub roles: Option<Vec<String>>,
    pub active: Option<bool>,
    pub password: Option<String>,
    pub tables: Option<Vec<TableId>>,
}

/// Shortest and longest password accepted.
pub const PASSWORD_LENGTH: (usize, usize) = (10, 256);

pub fn validate_password(password: &str) -> Result<(), AppError> {
    let n = password.chars().count();
    if n < PASSWORD_LENGTH.0 || n > PASSWORD_LENGTH.1 {
        return Err(AppError::invalid(
            "bad_password",
            format!("the password must be {} to {} characters long (it has {n})", PASSWORD_LENGTH.0, PASSWORD_LENGTH.1),
        )
        .at_field("password"));
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
        return Err(AppError::invalid(
            "bad_username",
            format!("the username {name:?} cannot be used: use 1 to 64 letters, digits, '.', '_' or '-'"),
        )
        .at_field("username"));
    }
    Ok(name)
}

fn display_name_of(display: Option<&str>, username: &str) -> Result<String, AppError> {
    let display = display.map(str::trim).filter(|d| !d.is_empty()).unwrap_or(username);
    if display.chars().count() > 100 || display.chars().any(char::is_control) {
        return Err(AppError::invalid(
            "bad_display_name",
            "the display name is at most 100 characters, without control characters",
        )
        .at_field("display_name"));
    }
    Ok(display.to_string())
}

pub fn parse_roles(names: &[String]) -> Result<Vec<Role>, AppError> {
    let mut roles = Vec::new();
    for name in names {
        let role = Role::parse(name.trim()).ok_or_else(|| {
            AppError::invalid(
                "bad_role",
                format!(
                    "{name:?} is not a role ({})",
                    Role::ALL.iter().map(|r| r.name()).collect::<Vec<_>>().join(", ")
                ),
            )
            .at_field("roles")
        })?;
        if !roles.contains(&role) {
            roles.push(role);
        }
    }
    if roles.is_empty() {
        return Err(AppError::invalid("bad_role", "a user needs at least one role").at_field("roles"));
    }
    roles.sort();
    Ok(roles)
}

fn roles_text(roles: &[Role]) -> String {
    roles.iter().map(|r| r.name()).collect::<Vec<_>>().join(",")
}

fn roles_of(text: &str) -> Vec<Role> {
    text.split(',').filter_map(|r| Role::parse(r.trim())).collect()
}

/// An argon2id hash (PHC string) with a fresh random salt.
pub fn hash_password(password: &str) -> Result<String, AppError> {
    use argon2::password_hash::PasswordHasher;
    argon2::Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| AppError::internal(format!("password hashing failed: {e}")))
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

fn user_of(row: UserRow, tables: Vec<TableId>) -> User {
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

fn view_of(conn: &mut DbConnection, row: UserRow, locks: &Lockouts) -> Result<UserView, AppError> {
    let created_at = row.created_at;
    let tables = q::tables_of(conn, row.id)?;
    let u = user_of(row, tables);
    let locked_out_until = locks.until(&u.username).map(|t| t.and_utc());
    Ok(UserView {
        id: u.id,
        username: u.username,
        display_name: u.display_name,
        roles: u.roles,
        active: u.active,
        tables: u.tables,
        created_at,
        locked_out_until,
    })
}

/// Who is locked out of signing in now, and until when: a username with
/// `SIGN_IN_LIMITS.0` attempts in the last `SIGN_IN_WINDOW_MINUTES` after
/// its last success or unlock. (The limit per client address is not a
/// user's lockout: it passes with its window.)
struct Lockouts(std::collections::HashMap<String, NaiveDateTime>);

impl Lockouts {
    fn read(conn: &mut DbConnection) -> Result<Lockouts, AppError> {
        let window = chrono::Duration::minutes(SIGN_IN_WINDOW_MINUTES);
        let at = now();
        let mut attempts: std::collections::HashMap<String, Vec<NaiveDateTime>> = Default::default();
        for (username, time, what) in crate::db::audit::sign_in_events(conn, at - window)? {
            let list = attempts.entry(username).or_default();
            if what == "login_attempt" {
                list.push(time);
            } else {
                // A success or an unlock restarts the count.
                list.clear();
            }
        }
        let limit = SIGN_IN_LIMITS.0 as usize;
        Ok(Lockouts(
            attempts
                .into_iter()
                .filter(|(_, times)| times.len() >= limit)
                // Locked until the attempt that reached the limit leaves the window.
                .map(|(name, times)| (name, times[times.len() - limit] + window))
                .filter(|(_, until)| *until > at)
                .collect(),
        ))
    }

    fn until(&self, username: &str) -> Option<NaiveDateTime> {
        self.0.get(username).copied()
    }
}

/// An active user by id, with their dealer tables (every signed-in request asks).
pub fn active_user(conn: &mut DbConnection, id: UserId) -> Result<Option<User>, AppError> {
    Ok(q::active_user(conn, id)?.map(|(row, tables)| user_of(row, tables)))
}

/// The user a sign-in names, with their password hash.
pub fn login_candidate(conn: &mut DbConnection, username: &str) -> Result<Option<(User, String)>, AppError> {
    let Some((row, hash)) = q::by_username(conn, username)? else {
        return Ok(None);
    };
    let tables = q::tables_of(conn, row.id)?;
    Ok(Some((user_of(row, tables), hash)))
}

pub fn count_users(conn: &mut DbConnection) -> Result<i64, AppError> {
    Ok(q::count_users(conn)?)
}

pub fn list_users(conn: &mut DbConnection) -> Result<Vec<UserView>, AppError> {
    let locks = Lockouts::read(conn)?;
    q::all_users(conn)?.into_iter().map(|r| view_of(conn, r, &locks)).collect()
}

pub fn get_user(conn: &mut DbConnection, id: UserId) -> Result<UserView, AppError> {
    let row = q::user(conn, id)?.ok_or_else(|| AppError::not_found("no_user", format!("no user {id}")))?;
    let locks = Lockouts::read(conn)?;
    view_of(conn, row, &locks)
}

/// Lets a user locked out by failed sign-ins try again at once (admin): the
/// count of their failures restarts, as after a successful sign-in. The
/// limit per client address is left as it is. Refused (409 `not_locked_out`)
/// when the user is not locked out, so a second admin learns the first was
/// quicker.
pub fn unlock_user(db: &Database, actor: &Actor, id: UserId) -> Result<UserView, AppError> {
    let actor = actor.clone();
    db.write(None, move |conn| {
        let user = get_user(conn, id)?;
        let Some(until) = user.locked_out_until else {
            return Err(AppError::conflict(
                "not_locked_out",
                format!("{} is not locked out of signing in", user.display_name),
            ));
        };
        crate::db::audit::insert_unlock(conn, &user.username, actor.user_id)?;
        let detail = serde_json::json!({ "locked_out_until": until });
        audit::record(conn, &actor, "user_unlock", &format!("user {}", user.username), detail)?;
        get_user(conn, id)
    })
}

fn set_tables(conn: &mut DbConnection, user: UserId, tables: &[TableId]) -> Result<(), AppError> {
    if let Some(t) = q::missing_tables(conn, tables)?.first() {
        return Err(AppError::invalid("bad_table", format!("there is no table {t}")).at_field("tables"));
    }
    let mut tables = tables.to_vec();
    tables.sort_unstable();
    tables.dedup();
    Ok(q::set_tables(conn, user, &tables)?)
}

/// Creates a user. With `first_admin`, only while there is no user at all
/// (the first start of a new installation). Whoever makes a user sets their
/// first password (`password_set_by`).
pub fn create_user(db: &Database, actor: &Actor, req: NewUserRequest, first_admin: bool) -> Result<UserView, AppError> {
    let username = normalize_username(&req.username)?;
    let display_name = display_name_of(req.display_name.as_deref(), &username)?;
    let roles = parse_roles(&req.roles)?;
    validate_password(&req.password)?;
    if first_admin && !roles.contains(&Role::Admin) {
        return Err(AppError::invalid("first_user_admin", "the first user must be an admin").at_field("roles"));
    }
    // Slow on purpose; done before the write transaction.
    let hash = hash_password(&req.password)?;
    let tables = req.tables;
    let actor = actor.clone();
    let id = db.write(None, move |conn| {
        if first_admin && q::count_users(conn)? > 0 {
            return Err(AppError::conflict("first_admin_exists", "the first admin already exists; sign in instead"));
        }
        if q::username_taken(conn, &username)? {
            return Err(
                AppError::conflict("username_taken", format!("username {username} is taken")).at_field("username")
            );
        }
        let roles_text = roles_text(&roles);
        let id = q::insert_user(
            conn,
            &q::NewUser {
                username: &username,
                display_name: &display_name,
                roles: &roles_text,
                password_hash: &hash,
                password_set_by: actor.user_id,
            },
        )?;
        set_tables(conn, id, &tables)?;
        let detail = serde_json::json!({
            "username": username, "display_name": display_name, "roles": roles_text, "tables": tables,
        });
        audit::record(conn, &actor, "user_create", &format!("user {username}"), detail)?;
        Ok(id)
    })?;
    get_user(&mut *db.conn()?, id)
}

/// Changes a user; a new password, other roles or deactivation end the
/// user's sessions (deactivation also revokes their tokens for good).
/// Refuses to leave the service without an active admin.
pub fn update_user(db: &Database, actor: &Actor, id: UserId, req: UpdateUserRequest) -> Result<UserView, AppError> {
    let roles = req.roles.as_deref().map(parse_roles).transpose()?;
    if let Some(p) = &req.password {
        validate_password(p)?;
    }
    let hash = req.password.as_deref().map(hash_password).transpose()?;
    let (display, active, tables) = (req.display_name, req.active, req.tables);
    let actor = actor.clone();
    db.write(None, move |conn| {
        let current = get_user(conn, id)?;
        let display_name = match &display {
            Some(d) => display_name_of(Some(d), &current.username)?,
            None => current.display_name.clone(),
        };
        let new_roles = roles.clone().unwrap_or_else(|| current.roles.clone());
        let new_active = active.unwrap_or(current.active);
        let ends_sessions = new_roles != current.roles || new_active != current.active;
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
        q::update_user(conn, id, &display_name, &roles_text(&new_roles), new_active, ends_sessions)?;
        if let Some(hash) = &hash {
            q::set_password(conn, id, hash, actor.user_id)?;
            changed.insert("password".into(), "changed".into());
        }
        if !new_active && current.active {
            // A deactivated user's tokens end for good (reactivation does not revive them).
            changed.insert("tokens_revoked".into(), q::revoke_tokens_of(conn, id)?.into());
        }
        if let Some(tables) = &tables {
            if *tables != current.tables {
                changed.insert("tables".into(), serde_json::json!(tables));
            }
            set_tables(conn, id, tables)?;
        }
        let admins = q::active_roles(conn)?.iter().filter(|r| roles_of(r).contains(&Role::Admin)).count();
        if admins == 0 {
            return Err(AppError::conflict("last_admin", "this would leave no active admin; make another admin first"));
        }
        audit::record(conn, &actor, "user_update", &format!("user {}", current.username), changed.into())?;
        get_user(conn, id)
    })
}

// ---- API tokens ----

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTokenRequest {
    pub label: String,
    /// The roles the token acts with: some of its user's (a dealer's or
    /// floor user's token may be a `scanner` only). Default: all of them.
    #[serde(default)]
    pub roles: Option<Vec<String>>,
    /// The tables it acts at: some of its user's dealer tables (any table
    /// for a floor user). Default: the user's.
    #[serde(default)]
    pub tables: Option<Vec<TableId>>,
    /// When it stops working: `YYYY-MM-DD` (midnight UTC) or an RFC 3339
    /// time. Default: never (revoke it).
    #[serde(default)]
    pub expires_at: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct TokenView {
    pub id: TokenId,
    pub user_id: UserId,
    pub label: String,
    pub roles: Vec<Role>,
    pub tables: Vec<TableId>,
    pub expires_at: Option<NaiveDateTime>,
    /// Shown once, when the token is made; only its hash is stored.
    pub token: String,
}

fn token_hash(token: &str) -> String {
    format!("{:x}", Sha256::digest(token.as_bytes()))
}

/// A token's expiry: a date (midnight UTC) or an RFC 3339 time, in the future.
fn parse_expiry(text: &str) -> Result<NaiveDateTime, AppError> {
    let text = text.trim();
    let refuse = |why: String| AppError::invalid("bad_expiry", why).at_field("expires_at");
    let at = match crate::domain::clock::parse_date(text) {
        Some(day) => day.and_time(chrono::NaiveTime::MIN),
        // Times are kept to the second: a token ends at the start of the
        // second it was given, never later.
        None => chrono::DateTime::parse_from_rfc3339(text)
            .map(|t| t.naive_utc().trunc_subsecs(0))
            .map_err(|_| refuse(format!("expires_at {text:?}: give a date YYYY-MM-DD or an RFC 3339 time")))?,
    };
    // (An RFC 3339 time may name another year in UTC than it says.)
    let years = crate::domain::clock::YEARS;
    if !years.contains(&chrono::Datelike::year(&at)) {
        return Err(refuse(format!(
            "expires_at {text:?} is {at} UTC, not in the years {} to {}",
            years.start(),
            years.end()
        )));
    }
    if at <= now() {
        return Err(refuse(format!("expires_at {text:?} is not in the future")));
    }
    Ok(at)
}

fn ids_text(ids: &[TableId]) -> String {
    ids.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(",")
}

fn ids_of(text: &str) -> Vec<TableId> {
    text.split(',').filter_map(|t| t.trim().parse().ok()).map(TableId).collect()
}

/// Makes an API token for a user (a scanner, a shoe, a script): some of its
/// user's roles at some of their tables, perhaps until a time.
pub fn create_token(
    db: &Database,
    actor: &Actor,
    user_id: UserId,
    req: NewTokenRequest,
) -> Result<TokenView, AppError> {
    let label = req.label.trim().to_string();
    super::check_text(&label, "label")?;
    if label.is_empty() || label.chars().count() > 100 {
        return Err(AppError::invalid("bad_label", "label: name the token (1 to 100 characters)").at_field("label"));
    }
    let wanted_roles = req.roles.as_deref().map(parse_roles).transpose()?;
    let wanted_tables = req.tables;
    let expires_at = req.expires_at.as_deref().map(parse_expiry).transpose()?;
    let token = format!("pb_{}", random_hex(32));
    let hash = token_hash(&token);
    let actor = actor.clone();
    let (id, label, roles, tables) = db.write(None, move |conn| {
        let user = get_user(conn, user_id)?;
        if !user.active {
            return Err(AppError::conflict(
                "user_inactive",
                format!("user {} is inactive; reactivate them before making a token", user.username),
            ));
        }
        // A token can do no more than its user: some of their roles (a
        // scanner is less than a dealer), at some of their tables.
        let roles = wanted_roles.unwrap_or_else(|| user.roles.clone());
        let dealer_or_floor = user.roles.contains(&Role::Dealer) || user.roles.contains(&Role::Floor);
        for role in &roles {
            let scanner_of_theirs = *role == Role::Scanner && dealer_or_floor;
            if !(user.roles.contains(role) || scanner_of_theirs) {
                return Err(AppError::invalid(
                    "token_beyond_user",
                    format!("roles: {} does not have the role {role}, so a token of theirs cannot", user.username),
                )
                .at_field("roles"));
            }
        }
        let tables = match wanted_tables {
            None => user.tables.clone(),
            Some(tables) => {
                if let Some(t) = q::missing_tables(conn, &tables)?.first() {
                    return Err(AppError::invalid("bad_table", format!("there is no table {t}")).at_field("tables"));
                }
                if !user.roles.contains(&Role::Floor) {
                    if let Some(t) = tables.iter().find(|t| !user.tables.contains(t)) {
                        return Err(AppError::invalid(
                            "token_beyond_user",
                            format!(
                                "tables: {} is not assigned to table {t}, so a token of theirs cannot be",
                                user.username
                            ),
                        )
                        .at_field("tables"));
                    }
                }
                let mut tables = tables;
                tables.sort_unstable();
                tables.dedup();
                tables
            }
        };
        let (roles_text, tables_text) = (roles_text(&roles), ids_text(&tables));
        let id = q::insert_token(
            conn,
            &q::NewToken {
                user: user_id,
                hash: &hash,
                label: &label,
                roles: &roles_text,
                tables: &tables_text,
                expires_at,
            },
        )?;
        audit::record(
            conn,
            &actor,
            "token_create",
            &format!("user {}", user.username),
            serde_json::json!({
                "token_id": id, "label": label, "roles": roles_text, "tables": tables, "expires_at": expires_at,
            }),
        )?;
        Ok((id, label, roles, tables))
    })?;
    Ok(TokenView { id, user_id, label, roles, tables, expires_at, token })
}

/// Revokes an API token.
pub fn revoke_token(db: &Database, actor: &Actor, token: TokenId) -> Result<(), AppError> {
    let actor = actor.clone();
    db.write(None, move |conn| {
        if !q::revoke_token(conn, token)? {
            return Err(AppError::not_found("no_token", format!("no active token {token}")));
        }
        audit::record(conn, &actor, "token_revoke", &format!("token {token}"), serde_json::json!({}))
    })
}

/// The active user an API token belongs to, as the token may act: only the
/// token's roles and tables, and the token's id. An expired or revoked
/// token, or one of an inactive user, is no one.
pub fn user_for_token(conn: &mut DbConnection, token: &str) -> Result<Option<(User, TokenId)>, AppError> {
    let Some((row, tables, (token_id, roles, token_tables))) = q::token_user(conn, &token_hash(token))? else {
        return Ok(None);
    };
    let mut user = user_of(row, tables);
    if let Some(roles) = roles {
        let floor = user.has(Role::Floor);
        let dealer = user.has(Role::Dealer);
        let granted: Vec<Role> = roles_of(&roles)
            .into_iter()
            .filter(|r| user.roles.contains(r) || (*r == Role::Scanner && (floor || dealer)))
            .collect();
        user.roles = granted;
        if let Some(token_tables) = token_tables {
            let token_tables = ids_of(&token_tables);
            // A dealer's token never reaches past their current tables.
            user.tables = if floor {
                token_tables
            } else {
                token_tables.into_iter().filter(|t| user.tables.contains(t)).collect()
            };
        }
    }
    Ok(Some((user, token_id)))
}

// ---- signing in and out, one's own password ----

/// Failed sign-ins allowed per user, and per client address, in
/// `SIGN_IN_WINDOW_MINUTES`; after that, sign-in is refused until the window
/// has passed, even with the right password.
pub const SIGN_IN_LIMITS: (i64, i64) = (5, 20);
pub const SIGN_IN_WINDOW_MINUTES: i64 = 15;

/// Checks a username and password. Every outcome is in the audit trail
/// (`login`, `login_failed`); the answer does not say whether the user exists.
pub fn sign_in(db: &Database, username: &str, password: &str, ip: &str) -> Result<User, AppError> {
    let wrong = || AppError::unauthorized("wrong_credentials", "wrong username or password");
    // A name that is no username is still counted and recorded as sent, but
    // for control characters (PostgreSQL keeps no NUL in text).
    let name = normalize_username(username)
        .unwrap_or_else(|_| username.trim().chars().filter(|c| !c.is_control()).take(64).collect());
    let since = now() - chrono::Duration::minutes(SIGN_IN_WINDOW_MINUTES);
    // Count and record the attempt in one serialised write before the slow
    // password check, so guesses sent in parallel cannot outrun the limit.
    let (attempt_actor, attempt_name) = (Actor::anonymous(&name, ip), name.clone());
    db.write(None, move |conn| {
        let (by_user, by_ip) = audit::unsuccessful_sign_ins(conn, &attempt_name, &attempt_actor.ip, since)?;
        if by_user >= SIGN_IN_LIMITS.0 || by_ip >= SIGN_IN_LIMITS.1 {
            return Err(AppError::too_many_requests(
                "too_many_sign_ins",
                format!(
                    "too many failed sign-ins; wait {SIGN_IN_WINDOW_MINUTES} minutes and try again, or ask an admin"
                ),
            ));
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
            q::end_sessions(conn, id)?;
        }
        audit::record(conn, &actor, "logout", &format!("user {}", actor.username), serde_json::json!({}))
    })
}

/// Changes one's own password, given the current one: the new one is then
/// theirs alone (`password_set_by` is themselves) and every session of
/// theirs ends.
pub fn change_own_password(db: &Database, actor: &Actor, current: &str, new: &str) -> Result<(), AppError> {
    let user_id =
        actor.user_id.ok_or_else(|| AppError::unauthorized("not_signed_in", "sign in to change your password"))?;
    validate_password(new).map_err(|e| e.at_field("new_password"))?;
    if current == new {
        return Err(AppError::invalid("same_password", "the new password must differ from the current one")
            .at_field("new_password"));
    }
    let stored = q::password_hash(&mut *db.conn()?, user_id)?.unwrap_or_default();
    if current.len() > 1024 || !verify_password(&stored, current) {
        return Err(
            AppError::invalid("wrong_password", "this is not your current password").at_field("current_password")
        );
    }
    let hash = hash_password(new)?;
    let actor = actor.clone();
    db.write(None, move |conn| {
        q::set_password(conn, user_id, &hash, Some(user_id))?;
        audit::record(conn, &actor, "password_change", &format!("user {}", actor.username), serde_json::json!({}))
    })
}

// ---- secrets shared by every app server ----

/// The key that signs and encrypts session cookies: made once, kept in the
/// database, so every app server on one database shares it.
pub fn session_key(db: &Database) -> Result<Vec<u8>, AppError> {
    const NAME: &str = "session_key";
    let stored = match q::secret(&mut *db.conn()?, NAME)? {
        Some(value) => value,
        None => {
            let made = db.write(None, move |conn| {
                if let Some(value) = q::secret(conn, NAME)? {
                    return Ok(value);
                }
                let value = random_hex(64);
                q::insert_secret(conn, NAME, &value)?;
                Ok(value)
            });
            match made {
                Ok(value) => value,
                // Another app server made it at the same moment: use theirs.
                Err(_) => q::secret(&mut *db.conn()?, NAME)?
                    .ok_or_else(|| AppError::internal("the session key could not be stored"))?,
            }
        }
    };
    let bytes: Vec<u8> =
        (0..stored.len() / 2).filter_map(|i| u8::from_str_radix(stored.get(2 * i..2 * i + 2)?, 16).ok()).collect();
    if bytes.len() < 64 {
        return Err(AppError::internal("the stored session key is shorter than 64 bytes"));
    }
    Ok(bytes)
}

/// The one-time token that opens `/setup` while there is no user: made on
/// the first start, printed in the service's log, kept in the database (so
/// every app server knows it). `None` once a user exists.
pub fn setup_token(db: &Database) -> Result<Option<String>, AppError> {
    const NAME: &str = "setup_token";
    db.write(None, move |conn| {
        if q::count_users(conn)? > 0 {
            return Ok(None);
        }
        if let Some(token) = q::secret(conn, NAME)? {
            return Ok(Some(token));
        }
        let token = random_hex(16);
        q::insert_secret(conn, NAME, &token)?;
        Ok(Some(token))
    })
}
