//! Every error the service returns is JSON, `{"error": "<message>"}`, with
//! the status that fits. Internal errors are logged and not shown.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

use crate::error::AppError;

#[derive(Debug, Serialize)]
pub struct ErrorBody {
    pub error: String,
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            AppError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let error = match self {
            AppError::Internal(detail) => {
                log::error!("internal error: {detail}");
                "internal error; the details are in the service log".to_string()
            }
            other => other.to_string(),
        };
        HttpResponse::build(self.status_code()).json(ErrorBody { error })
    }
}

/// An error as a page, for a browser.
#[derive(askama::Template)]
#[template(path = "error.html")]
struct ErrorPage {
    nav: super::pages::Nav,
    status: u16,
    title: &'static str,
    message: String,
}

/// A browser that asks for a page (not `/api/…`, `Accept: text/html`) and
/// gets an error sees it as a page in the site's layout, with the same
/// status and words; everything else keeps the JSON error.
pub async fn html_errors(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<
    actix_web::dev::ServiceResponse<actix_web::body::EitherBody<impl actix_web::body::MessageBody>>,
    actix_web::Error,
> {
    use actix_web::http::header;
    let wants_html = !req.path().starts_with("/api/")
        && req.headers().get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|a| a.contains("text/html"));
    if !wants_html {
        return next.call(req).await.map(|res| res.map_into_left_body());
    }
    // (A middleware's own `Err` passes on as it is; holding a clone of the
    // request to answer it would stop inner middleware from changing it.)
    let (request, status, body) = match next.call(req).await? {
        res if res.status().is_client_error() || res.status().is_server_error() => {
            let json = res
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("application/json"));
            if !json {
                return Ok(res.map_into_left_body());
            }
            let (request, response) = res.into_parts();
            let status = response.status();
            let bytes = actix_web::body::to_bytes(response.into_body()).await.unwrap_or_default();
            (request, status, bytes.to_vec())
        }
        res => return Ok(res.map_into_left_body()),
    };
    let message = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| String::from_utf8_lossy(&body).to_string());
    let page = ErrorPage {
        nav: super::pages::Nav::anonymous(String::new()),
        status: status.as_u16(),
        title: status.canonical_reason().unwrap_or("Error"),
        message,
    };
    let html = askama::Template::render(&page).unwrap_or_else(|_| "error".to_string());
    let response = HttpResponse::build(status).content_type("text/html; charset=utf-8").body(html);
    Ok(actix_web::dev::ServiceResponse::new(request, response).map_into_right_body())
}
