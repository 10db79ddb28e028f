//! The service's errors, in one place. Handlers turn them into HTTP answers
//! (`web::error`); nothing else decides a status code.

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Bad input: names the field, seat or card (422).
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the state (a second commit, an add-on during a hand) (409).
    #[error("{0}")]
    Conflict(String),
    /// The database cannot be reached (503).
    #[error("{0}")]
    Unavailable(String),
    #[error("internal error: {0}")]
    Internal(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("the request body is larger than {0} bytes")]
    TooLarge(usize),
    #[error("method {0} is not allowed here")]
    MethodNotAllowed(String),
    #[error("send the request body as JSON, with the header Content-Type: application/json")]
    UnsupportedMediaType,
    #[error("{0}")]
    Forbidden(String),
    /// Nobody is signed in, or the credentials are wrong (401).
    #[error("{0}")]
    Unauthorized(String),
    /// Too many failed sign-ins (429).
    #[error("{0}")]
    TooManyRequests(String),
}

impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error};
        match e {
            Error::NotFound => AppError::NotFound("not found".to_string()),
            Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => {
                AppError::Conflict(format!("already exists: {}", info.message()))
            }
            Error::DatabaseError(DatabaseErrorKind::ClosedConnection, info) => {
                AppError::Unavailable(format!("the database connection closed: {}", info.message()))
            }
            Error::DatabaseError(_, info) if info.message().contains("database is locked") => {
                AppError::Unavailable("the database is busy; try again".to_string())
            }
            Error::DatabaseError(_, info) if is_connection_lost(info.message()) => {
                AppError::Unavailable(format!("the database is unavailable: {}", info.message()))
            }
            other => AppError::Internal(other.to_string()),
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
        AppError::Unavailable(format!("the database is unavailable: {e}"))
    }
}
