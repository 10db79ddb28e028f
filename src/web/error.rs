//! The one place errors become HTTP answers: the status from the error's
//! kind, and a JSON body `{"error": <message>, "code": <stable code>,
//! "seat"?, "row"?, "field"?}`. Internal errors are logged and not shown. A
//! browser asking for a page gets the same status and words as a page.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

use crate::domain::{AppError, Kind};

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// The message, in words.
    pub error: String,
    /// Stable snake_case code (docs/api.md lists them).
    pub code: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// The status of each kind of error.
pub fn status_of(kind: Kind) -> StatusCode {
    match kind {
        Kind::Invalid => StatusCode::UNPROCESSABLE_ENTITY,
        Kind::BadRequest => StatusCode::BAD_REQUEST,
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::Unauthorized => StatusCode::UNAUTHORIZED,
        Kind::Forbidden => StatusCode::FORBIDDEN,
        Kind::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
        Kind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Kind::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        Kind::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        Kind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        status_of(self.kind)
    }

    fn error_response(&self) -> HttpResponse {
        let body = match self.kind {
            Kind::Internal => {
                log::error!("{}", self.message);
                ErrorBody {
                    error: "internal error; the details are in the service log".to_string(),
                    code: self.code,
                    seat: None,
                    row: None,
                    field: None,
                }
            }
            _ => ErrorBody {
                error: self.message.clone(),
                code: self.code,
                seat: self.place.seat,
                row: self.place.row.clone(),
                field: self.place.field.clone(),
            },
        };
        let mut answer = HttpResponse::build(self.status_code());
        if self.kind == Kind::Unavailable {
            // Nothing was done; the same request may pass in a moment.
            answer.insert_header((actix_web::http::header::RETRY_AFTER, "1"));
        }
        answer.json(body)
    }
}
