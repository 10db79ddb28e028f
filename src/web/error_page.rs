//! An error as a page, for a browser: the same status and words as the
//! JSON error (`web::error`), in the site's layout.

use actix_web::HttpResponse;

/// An error as a page, for a browser.
#[derive(askama::Template)]
#[template(path = "error.html")]
struct ErrorPage {
    nav: super::helpers::Nav,
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
    // Our own JSON error body, read back as the struct it was written from.
    #[derive(serde::Deserialize)]
    struct Written {
        error: String,
    }
    let message = serde_json::from_slice::<Written>(&body)
        .map(|w| w.error)
        .unwrap_or_else(|_| String::from_utf8_lossy(&body).to_string());
    let page = ErrorPage {
        nav: super::helpers::Nav::anonymous(String::new()),
        status: status.as_u16(),
        title: status.canonical_reason().unwrap_or("Error"),
        message,
    };
    let html = askama::Template::render(&page).unwrap_or_else(|_| "error".to_string());
    let response = HttpResponse::build(status).content_type("text/html; charset=utf-8").body(html);
    Ok(actix_web::dev::ServiceResponse::new(request, response).map_into_right_body())
}
