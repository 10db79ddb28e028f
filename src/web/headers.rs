//! Security headers on every answer. The pages run no inline script or
//! style (scripts are files under `/static/`), so the Content-Security-Policy
//! allows scripts, styles, images and requests from this service only, and
//! no page may be framed. `Strict-Transport-Security` is sent when cookies
//! are `Secure` (the service is reached over HTTPS).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;

/// The policy of every answer.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// A year, the usual value once HTTPS works.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000";

/// What the middleware adds, decided once at start-up.
#[derive(Clone, Copy, Debug)]
pub struct SecurityHeaders {
    /// `Strict-Transport-Security` too (cookies are `Secure`).
    pub hsts: bool,
}

pub async fn security_headers(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let hsts = req.app_data::<web::Data<SecurityHeaders>>().is_some_and(|s| s.hsts);
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    let mut set = |name: HeaderName, value: &'static str| {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    };
    set(header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    // Same-origin: form posts keep their Origin and Referer (the
    // cross-site form check reads them); other sites learn nothing.
    set(header::REFERRER_POLICY, "same-origin");
    set(header::X_FRAME_OPTIONS, "DENY");
    if hsts {
        set(header::STRICT_TRANSPORT_SECURITY, STRICT_TRANSPORT_SECURITY);
    }
    Ok(res)
}
