//! The service's error: what went wrong (a kind that decides the HTTP
//! status, in `web::error` only), a stable snake_case `code`, a message in
//! words, and where it belongs (a seat, a row, a field). The structure is
//! kept from where the error is made to the edge: nothing parses the text.
//!
//! The policy for turning the engine's and the database's errors into these
//! is here too (`From` impls at the end).

use crate::engine::ShowdownError;

/// What kind of failure, in the terms of the one deciding the status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Bad input: names the field, seat or card (422).
    Invalid,
    /// A malformed request (400).
    BadRequest,
    NotFound,
    /// The request conflicts with the state (a second commit, an add-on
    /// during a hand, a change the books refuse) (409).
    Conflict,
    /// Nobody is signed in, or the credentials are wrong (401).
    Unauthorized,
    /// Signed in, but not allowed (403).
    Forbidden,
    /// Too many failed sign-ins (429).
    TooManyRequests,
    TooLarge,
    MethodNotAllowed,
    UnsupportedMediaType,
    /// The database cannot be reached (503).
    Unavailable,
    /// A bug: logged, not shown (500).
    Internal,
}

/// Where an error belongs: the seat, the row of cards, the request field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub seat: Option<u32>,
    /// `front`, `middle`, `back`, `cards` or `discards`.
    pub row: Option<String>,
    /// The request or form field (`buy_in`, `pair_units[0] unit`, `seats[1].claim`).
    pub field: Option<String>,
}

/// A request field in words, for messages people read (the field's own
/// name stays in `place.field` for programs): `buy_in` → "the buy-in",
/// `pair_units[1] unit` → "the unit of pair 2".
pub fn field_words(field: &str) -> String {
    if let Some(rest) = field.strip_prefix("pair_units[") {
        if let Some((index, tail)) = rest.split_once(']') {
            if let Ok(i) = index.parse::<usize>() {
                let what = if tail.trim().is_empty() { "pair" } else { tail.trim() };
                return format!("the {what} of pair {}", i + 1);
            }
        }
    }
    match field {
        "buy_in" => "the buy-in".to_string(),
        "rake_per_seat" => "the rake per seat".to_string(),
        "jackpot_part" => "the jackpot part".to_string(),
        "seat_count" => "the number of seats".to_string(),
        "gaming_day_cutoff" => "the gaming day's start".to_string(),
        "pool_id" => "the pool".to_string(),
        "rake_drop" => "the rake drop".to_string(),
        "jackpot_drop" => "the jackpot drop".to_string(),
        other => format!("the {}", other.replace('_', " ")),
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct AppError {
    pub kind: Kind,
    /// Stable across releases: clients and pages decide by it, never by the
    /// message. The codes are listed in docs/api.md.
    pub code: &'static str,
    pub message: String,
    pub place: Place,
}

impl AppError {
    pub fn new(kind: Kind, code: &'static str, message: impl Into<String>) -> AppError {
        AppError { kind, code, message: message.into(), place: Place::default() }
    }

    pub fn invalid(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::new(Kind::Invalid, code, message)
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::new(Kind::BadRequest, code, message)
    }

    pub fn not_found(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::new(Kind::NotFound, code, message)
    }

    pub fn conflict(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::new(Kind::Conflict, code, message)
    }

    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::new(Kind::Unauthorized, code, message)
    }

    pub fn forbidden(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::new(Kind::Forbidden, code, message)
    }

    pub fn too_many_requests(code: &'static str, message: impl Into<String>) -> AppError {
        AppError::new(Kind::TooManyRequests, code, message)
    }

    pub fn unavailable(message: impl Into<String>) -> AppError {
        AppError::new(Kind::Unavailable, "database_unavailable", message)
    }

    /// A write waited for its turn (on PostgreSQL, its table's row lock, or
    /// the lock of changes to no one table) and the database gave up on the
    /// wait (a `lock_timeout` or `statement_timeout` the operator set, or
    /// the statement cancelled): nothing was written; sent again, it waits
    /// again.
    pub fn turn_not_taken(table: Option<crate::domain::TableId>, said: &str) -> AppError {
        let whose = match table {
            Some(t) => format!("table {t}'s turn"),
            None => "the turn of changes to no one table (users, sign-ins, pools, new tables)".to_string(),
        };
        AppError::new(
            Kind::Unavailable,
            "table_busy",
            format!(
                "another change held {whose} longer than the database would wait ({said}); nothing was written: \
                 send it again"
            ),
        )
    }

    /// The service is draining before it stops (SIGTERM): a new request is
    /// refused; another server, or this one after its restart, takes it.
    pub fn shutting_down() -> AppError {
        AppError::new(
            Kind::Unavailable,
            "shutting_down",
            "the service is shutting down; send the request again in a moment",
        )
    }

    /// A bug or a broken invariant: the detail goes to the log only.
    pub fn internal(detail: impl std::fmt::Display) -> AppError {
        AppError::new(Kind::Internal, "internal", format!("internal error: {detail}"))
    }

    pub fn too_large(limit: usize) -> AppError {
        AppError::new(Kind::TooLarge, "body_too_large", format!("the request body is larger than {limit} bytes"))
    }

    pub fn method_not_allowed(method: &str) -> AppError {
        AppError::new(Kind::MethodNotAllowed, "method_not_allowed", format!("method {method} is not allowed here"))
    }

    pub fn json_required() -> AppError {
        AppError::new(
            Kind::UnsupportedMediaType,
            "json_required",
            "send the request body as JSON, with the header Content-Type: application/json",
        )
    }

    pub fn at_seat(mut self, seat: u32) -> AppError {
        self.place.seat = Some(seat);
        self
    }

    pub fn at_row(mut self, row: &str) -> AppError {
        self.place.row = Some(row.to_string());
        self
    }

    pub fn at_field(mut self, field: impl Into<String>) -> AppError {
        self.place.field = Some(field.into());
        self
    }

    /// The same error with its message led by `prefix` (`seat 2 front: …`).
    pub fn prefixed(mut self, prefix: &str) -> AppError {
        self.message = format!("{prefix}{}", self.message);
        self
    }

    pub fn is(&self, kind: Kind) -> bool {
        self.kind == kind
    }
}

/// The engine's refusal of a showdown: its stable code, and the seat and row
/// it names (kept from the engine's own fields).
impl From<ShowdownError> for AppError {
    fn from(e: ShowdownError) -> AppError {
        use ShowdownError as E;
        let message = e.to_string();
        let (code, seat, row): (&'static str, Option<u32>, Option<&str>) = match &e {
            E::Json(_) => ("showdown_json", None, None),
            E::Hand(_) => ("hand_cards", None, None),
            E::UnknownPreset(_) => ("unknown_preset", None, None),
            E::SeatCount(_) => ("seat_count", None, None),
            E::RepeatedSeat(s) => ("repeated_seat", Some(*s), None),
            E::DealerNotSeated(_) => ("dealer_not_seated", None, None),
            E::Money(_) => ("bad_money", None, None),
            E::MissingStack(s) => ("missing_stack", Some(*s), None),
            E::StackBelowRake { seat, .. } => ("stack_below_rake", Some(*seat), None),
            E::JackpotAboveRake { .. } => ("jackpot_above_rake", None, None),
            E::PairUnits(_) => ("bad_pair_units", None, None),
            E::Card { seat, row, .. } => ("bad_card", Some(*seat), Some(*row)),
            E::CardCount { seat, row, .. } => ("card_count", Some(*seat), Some(*row)),
            E::DuplicateCard { .. } => ("duplicate_card", None, None),
            E::RowsAndCards(s) => ("rows_and_cards", Some(*s), None),
            E::NoCards(s) => ("no_cards", Some(*s), None),
            E::MissingRow { seat, missing, .. } => ("missing_row", Some(*seat), Some(*missing)),
            E::LooseCards(s) => ("loose_cards", Some(*s), Some("cards")),
            E::UnknownSpecial { seat, .. } => ("unknown_special", Some(*seat), None),
            E::ClaimNotMade { seat, .. } => ("claim_not_made", Some(*seat), None),
            E::ClaimAndSurrender(s) => ("claim_and_surrender", Some(*s), None),
            E::SurrenderNotAllowed { seat, .. } => ("surrender_not_allowed", Some(*seat), None),
            E::DiscardsNotAllowed { seat, .. } => ("discards_not_allowed", Some(*seat), Some("discards")),
            E::AcesBetNotAllowed { seat, .. } => ("aces_bet_not_allowed", Some(*seat), None),
            E::FantasylandNotAllowed { seat, .. } => ("fantasyland_not_allowed", Some(*seat), None),
            E::TooManyCopies { .. } => ("too_many_copies", None, None),
            E::Options(_) => ("bad_options", None, None),
            E::PlayerCount { .. } => ("player_count", None, None),
            E::TablePlay { seat, .. } => ("table_play", Some(*seat), None),
            #[allow(unreachable_patterns)]
            _ => ("invalid_showdown", None, None),
        };
        let field = match &e {
            E::UnknownSpecial { .. } | E::ClaimNotMade { .. } => Some("claim"),
            E::SurrenderNotAllowed { .. } | E::ClaimAndSurrender(_) => Some("surrender"),
            E::AcesBetNotAllowed { .. } => Some("aces_bet"),
            E::PairUnits(_) => Some("pair_units"),
            E::Options(_) => Some("options"),
            _ => None,
        };
        let mut error = AppError::invalid(code, message);
        error.place = Place { seat, row: row.map(str::to_string), field: field.map(str::to_string) };
        error
    }
}

/// The database's errors, by policy: a connection gone is 503 (try again);
/// a duplicate is 409; the database's own guards on the books (CHECK
/// constraints and the `books:` triggers) are 409, logged, nothing written;
/// anything else is a bug (500, logged).
impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error};
        match e {
            Error::NotFound => AppError::not_found("not_found", "not found"),
            Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
                AppError::conflict("already_exists", format!("already exists: {}", info.message()))
            }
            Error::DatabaseError(DatabaseErrorKind::CheckViolation, info) => {
                log::error!("the database refused a change to the books: {}", info.message());
                AppError::conflict(
                    "books_refused",
                    format!(
                        "the books refused this change ({}); nothing was written",
                        info.constraint_name().unwrap_or("a check on the books")
                    ),
                )
            }
            Error::DatabaseError(_, info) if info.message().contains("books: gaming day closed") => AppError::conflict(
                "day_closed",
                "this gaming day is closed: its figures are signed off and stay as they are (a correction goes \
                     into the open day); nothing was written",
            ),
            Error::DatabaseError(_, info) if info.message().contains("books: ") => {
                let message = info.message();
                let what = &message[message.find("books: ").unwrap_or(0) + 7..];
                log::error!("the database refused a change to the books: {what}");
                AppError::conflict(
                    "books_refused",
                    format!("the books refused this change: {what}; nothing was written"),
                )
            }
            Error::DatabaseError(DatabaseErrorKind::ClosedConnection, info) => {
                AppError::unavailable(format!("the database connection closed: {}", info.message()))
            }
            Error::DatabaseError(_, info) if info.message().contains("database is locked") => {
                AppError::unavailable("the database is busy; try again")
            }
            Error::DatabaseError(_, info) if is_connection_lost(info.message()) => {
                AppError::unavailable(format!("the database is unavailable: {}", info.message()))
            }
            other => AppError::internal(other),
        }
    }
}

/// libpq's words for a connection that is gone (the server stopped or restarted).
fn is_connection_lost(message: &str) -> bool {
    [
        "no connection to the server",
        "server closed the connection",
        "terminating connection",
        "connection refused",
        "could not connect",
        "could not receive data",
        "could not send data",
        "SSL SYSCALL error",
    ]
    .iter()
    .any(|m| message.contains(m))
}

impl From<diesel::r2d2::PoolError> for AppError {
    fn from(e: diesel::r2d2::PoolError) -> Self {
        AppError::unavailable(format!("the database is unavailable: {e}"))
    }
}
