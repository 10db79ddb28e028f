//! The use cases: one function per thing a person or a device does (seat a
//! player, start a hand, commit a showdown, void, sign off a hit, cash out,
//! make a user…). Each takes typed input (parsed at the edge), decides the
//! policy, and writes its changes and their audit row in one transaction
//! through `db`. Answers are view structs the web layer serialises as they
//! are.

pub mod audit;
pub mod board;
pub mod hands;
pub mod jackpots;
pub mod players;
pub mod rollups;
mod showdown_z;
pub mod tables;
pub mod users;

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
