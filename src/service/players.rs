//! Players' records: a name and, where the room keeps them, a member or ID
//! number. A record is chosen or made when a player is seated (by its id, by
//! its member number as a scanner or the dealer types it, or a new one from a
//! name); its sessions and their results are found across tables and days.
//! A seating keeps the name it was made with, which is what its sheets show.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::{audit, check_name};
use crate::db::players as q;
use crate::db::reports::{self, SessionRow, SessionTotals};
use crate::db::{Database, DbConnection};
use crate::domain::{Actor, AppError, PlayerId};

/// Who sits down: a record chosen by its id or member number, or a new one.
#[derive(Clone, Debug, Default)]
pub struct PlayerChoice {
    /// A record chosen from the list.
    pub id: Option<PlayerId>,
    /// The name typed (a new record's name; checked against a chosen one).
    pub name: Option<String>,
    /// A member or ID number typed or scanned: chooses its record, or is the
    /// new record's number.
    pub member_no: Option<String>,
}

/// A choice checked for its form (names, lengths), before any query.
#[derive(Clone, Debug)]
pub struct CheckedChoice {
    id: Option<PlayerId>,
    name: Option<String>,
    member_no: Option<String>,
}

fn check_member_no(text: &str) -> Result<Option<String>, AppError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if text.chars().count() > 40 || text.chars().any(char::is_control) {
        return Err(AppError::invalid("bad_member_no", "the member or ID number must be 1 to 40 printable characters")
            .at_field("member_no"));
    }
    Ok(Some(text.to_string()))
}

impl PlayerChoice {
    pub fn checked(self) -> Result<CheckedChoice, AppError> {
        let name = match self.name.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(n) => Some(check_name(n, "the player's name", "player")?),
        };
        let member_no = self.member_no.as_deref().map(check_member_no).transpose()?.flatten();
        // A member number alone may find its record: `choose_or_make` decides.
        if self.id.is_none() && name.is_none() && member_no.is_none() {
            return Err(
                AppError::invalid("player_required", "choose a player or type a new player's name").at_field("player")
            );
        }
        Ok(CheckedChoice { id: self.id, name, member_no })
    }
}

/// The record a seating hangs on.
#[derive(Clone, Debug)]
pub struct Chosen {
    pub id: PlayerId,
    pub name: String,
    pub member_no: Option<String>,
    /// Made now (a new player).
    pub made: bool,
}

fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// Finds the chosen record or makes a new one, inside the seating's
/// transaction (whose audit row names the record and whether it is new). A name or member number typed beside a chosen
/// record must be that record's (`player_mismatch`): a dealer who picked the
/// wrong line is told, not silently believed.
pub fn choose_or_make(conn: &mut DbConnection, actor: &Actor, choice: CheckedChoice) -> Result<Chosen, AppError> {
    let found = match (choice.id, &choice.member_no) {
        (Some(id), _) => Some(q::by_id(conn, id)?.ok_or_else(|| {
            AppError::invalid("bad_player", format!("there is no player {id}")).at_field("player_id")
        })?),
        (None, Some(member_no)) => q::by_member_no(conn, member_no)?,
        (None, None) => None,
    };
    if let Some(record) = found {
        if let Some(name) = choice.name.as_deref().filter(|n| !same_name(n, &record.name)) {
            return Err(AppError::invalid(
                "player_mismatch",
                format!(
                    "{} is {}, not {name}: choose the right player or clear the name",
                    describe(&record),
                    record.name
                ),
            )
            .at_field("player"));
        }
        if let Some(m) = choice.member_no.as_deref().filter(|m| record.member_no.as_deref() != Some(*m)) {
            return Err(AppError::invalid(
                "player_mismatch",
                format!("{} does not have the member or ID number {m}", record.name),
            )
            .at_field("member_no"));
        }
        return Ok(Chosen { id: record.id, name: record.name, member_no: record.member_no, made: false });
    }
    let Some(name) = choice.name else {
        return Err(AppError::invalid(
            "player_required",
            "no player has this member or ID number yet: type the new player's name",
        )
        .at_field("player"));
    };
    // The seating's own audit row says the record is new (`new_player`).
    let id = q::insert(conn, &name, choice.member_no.as_deref(), actor.user_id)?;
    Ok(Chosen { id, name, member_no: choice.member_no, made: true })
}

fn describe(p: &q::PlayerRow) -> String {
    match &p.member_no {
        Some(m) => format!("member {m}"),
        None => format!("player {}", p.id),
    }
}

/// A player's record.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct PlayerView {
    #[schema(value_type = i64)]
    pub id: PlayerId,
    pub name: String,
    pub member_no: Option<String>,
    pub created_at: DateTime<Utc>,
    /// Seatings of this record.
    pub sessions: i64,
    pub last_seated_at: Option<DateTime<Utc>>,
}

impl PlayerView {
    fn of(p: q::PlayerRow, sessions: i64, last: Option<chrono::NaiveDateTime>) -> PlayerView {
        PlayerView {
            id: p.id,
            name: p.name,
            member_no: p.member_no,
            created_at: p.created_at.and_utc(),
            sessions,
            last_seated_at: last.map(|t| t.and_utc()),
        }
    }
}

/// At most this many players are listed at once.
pub const LIST_LIMIT: i64 = 200;

/// Players whose name or member number contains `text` (all when empty), the
/// most recently seated first; at most `limit` (capped at [`LIST_LIMIT`]).
pub fn list_players(conn: &mut DbConnection, text: &str, limit: i64) -> Result<Vec<PlayerView>, AppError> {
    if text.chars().count() > 80 {
        return Err(AppError::invalid("bad_query", "search for at most 80 characters").at_field("q"));
    }
    super::check_text(text, "q")?;
    Ok(q::search(conn, text, limit.clamp(1, LIST_LIMIT))?
        .into_iter()
        .map(|(p, sessions, last)| PlayerView::of(p, sessions, last))
        .collect())
}

/// A player with their sessions (the latest 500, oldest first) and totals.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerDetail {
    pub id: PlayerId,
    pub name: String,
    pub member_no: Option<String>,
    pub created_at: DateTime<Utc>,
    pub sessions: Vec<SessionRow>,
    pub totals: SessionTotals,
}

pub fn get_player(conn: &mut DbConnection, id: PlayerId) -> Result<PlayerDetail, AppError> {
    let p = q::by_id(conn, id)?.ok_or_else(|| AppError::not_found("no_player", format!("no player {id}")))?;
    let (sessions, totals) = reports::player_sessions(conn, id)?;
    Ok(PlayerDetail {
        id: p.id,
        name: p.name,
        member_no: p.member_no,
        created_at: p.created_at.and_utc(),
        sessions,
        totals,
    })
}

/// Makes a player's record ahead of seating (a new member at the desk).
pub fn create_player(
    db: &Database,
    actor: &Actor,
    name: &str,
    member_no: Option<&str>,
) -> Result<PlayerView, AppError> {
    let name = check_name(name, "the player's name", "name")?;
    let member_no = member_no.map(check_member_no).transpose()?.flatten();
    let actor = actor.clone();
    let id = db.write(None, move |conn| {
        if let Some(m) = member_no.as_deref() {
            if let Some(other) = q::by_member_no(conn, m)? {
                return Err(AppError::conflict(
                    "member_no_taken",
                    format!("member or ID number {m} belongs to {}", other.name),
                )
                .at_field("member_no"));
            }
        }
        let id = q::insert(conn, &name, member_no.as_deref(), actor.user_id)?;
        audit::record(
            conn,
            &actor,
            "player_create",
            &format!("player {id}"),
            serde_json::json!({ "name": name, "member_no": member_no }),
        )?;
        Ok(id)
    })?;
    let mut conn = db.conn()?;
    let p = q::by_id(&mut conn, id)?.ok_or_else(|| AppError::internal("the new player is gone"))?;
    Ok(PlayerView::of(p, 0, None))
}
