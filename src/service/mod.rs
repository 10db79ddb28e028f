//! The use cases: one function per thing a person or a device does (seat a
//! player, start a hand, commit a showdown, void, sign off a hit, cash out,
//! make a user…). Each takes typed input (parsed at the edge), decides the
//! policy, and writes its changes and their audit row in one transaction
//! through `db`. Answers are view structs the web layer serialises as they
//! are.

pub mod audit;
pub mod board;
pub mod gaming_days;
pub mod hands;
pub mod jackpots;
pub mod players;
pub mod rollups;
mod showdown_z;
pub mod tables;
pub mod users;

/// Text a person typed that is kept or looked for (a note, a reason, a
/// label, a search): no control character but line breaks and tabs, or
/// `bad_text` at `field`. (PostgreSQL refuses a NUL in text outright, as a
/// database error; SQLite would keep it.)
pub(crate) fn check_text(text: &str, field: &str) -> Result<(), crate::domain::AppError> {
    match text.chars().find(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) {
        None => Ok(()),
        Some(c) => Err(crate::domain::AppError::invalid(
            "bad_text",
            format!("{field}: the character {c:?} cannot be kept; use printable text, line breaks and tabs"),
        )
        .at_field(field)),
    }
}

/// A name typed by a person (a pool, a table, a player): trimmed, 1 to 80
/// printable characters, or `bad_name` at `field` (`what` names it in words).
pub(crate) fn check_name(name: &str, what: &str, field: &str) -> Result<String, crate::domain::AppError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 80 || name.chars().any(char::is_control) {
        return Err(crate::domain::AppError::invalid(
            "bad_name",
            format!("{what} must be 1 to 80 printable characters"),
        )
        .at_field(field));
    }
    Ok(name.to_string())
}
