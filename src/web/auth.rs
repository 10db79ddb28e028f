//! Who is asking. People sign in with a password and get a session cookie
//! (signed and encrypted by actix-session, HttpOnly, SameSite=Strict,
//! Secure unless the service listens on loopback only). Devices and scripts
//! send an API token (`Authorization: Bearer pb_…`). Roles are checked by
//! every handler through [`Identity`].
//!
//! Cross-site request forgery: every form carries the session's random
//! token (`csrf_token`, the synchronizer-token pattern), compared in constant
//! time; form posts must also come from this service's own pages (Origin).
//! JSON API calls need `Content-Type: application/json`, which another site
//! cannot send without a CORS preflight this service never grants. A token
//! in a header is never sent by a browser on its own, so it needs neither.

use actix_session::{Session, SessionExt};
use actix_web::dev::Payload;
use actix_web::{http::header, web, FromRequest, HttpRequest, HttpResponse};
use futures_util::future::LocalBoxFuture;
use subtle::ConstantTimeEq;

use super::extract::with_db;
use super::state::AppState;
use crate::domain::{Actor, AppError, Role, TableId, User};
use crate::service::users;

const UID: &str = "uid";
const EPOCH: &str = "epoch";
const SIGNED_IN_AT: &str = "signed_in_at";
const CSRF: &str = "csrf";

/// The signed-in user of a request.
#[derive(Clone, Debug)]
pub struct Identity {
    pub user: User,
    pub actor: Actor,
    /// The session's form token; `None` for API-token requests.
    pub csrf: Option<String>,
}

impl Identity {
    pub fn require(&self, roles: &[Role]) -> Result<(), AppError> {
        self.user.require(roles)
    }

    pub fn require_table(&self, table: TableId) -> Result<(), AppError> {
        self.user.require_table(table)
    }

    pub fn require_scan(&self, table: TableId) -> Result<(), AppError> {
        self.user.require_scan(table)
    }

    /// A form posted in a session must carry the session's token.
    pub fn check_csrf(&self, sent: Option<&str>) -> Result<(), AppError> {
        match &self.csrf {
            None => Ok(()),
            Some(token) => check_token(token, sent),
        }
    }

    /// The form token for pages (empty for API-token requests).
    pub fn csrf_token(&self) -> String {
        self.csrf.clone().unwrap_or_default()
    }
}

fn check_token(expected: &str, sent: Option<&str>) -> Result<(), AppError> {
    let sent = sent.unwrap_or("");
    if !expected.is_empty() && bool::from(expected.as_bytes().ct_eq(sent.as_bytes())) {
        Ok(())
    } else {
        Err(AppError::forbidden(
            "csrf_token",
            "the form's security token is missing or out of date; reload the page and send it again",
        ))
    }
}

/// The request comes from the server itself: a loopback peer, not passed on
/// by a proxy (no forwarding headers).
pub fn is_local(req: &HttpRequest) -> bool {
    let forwarded = ["forwarded", "x-forwarded-for", "x-real-ip"].iter().any(|h| req.headers().contains_key(*h));
    !forwarded && req.peer_addr().is_some_and(|a| a.ip().is_loopback())
}

fn now_secs() -> i64 {
    chrono::Utc::now().timestamp()
}

/// The session's form token, made when first needed (also before sign-in,
/// for the sign-in form itself).
pub fn session_csrf(session: &Session) -> String {
    if let Ok(Some(token)) = session.get::<String>(CSRF) {
        return token;
    }
    let token = users::random_hex(32);
    let _ = session.insert(CSRF, &token);
    token
}

/// Checks a pre-sign-in form (sign-in, first admin) against the session's token.
pub fn check_session_csrf(session: &Session, sent: Option<&str>) -> Result<(), AppError> {
    let expected = session.get::<String>(CSRF).ok().flatten().unwrap_or_default();
    check_token(&expected, sent)
}

/// Starts a fresh session for `user` (a new cookie and a new form token,
/// so nothing from before sign-in carries over).
pub fn start_session(session: &Session, user: &User) -> Result<(), AppError> {
    session.renew();
    session.clear();
    let fail = |e: actix_session::SessionInsertError| AppError::internal(format!("session: {e}"));
    session.insert(UID, user.id.get()).map_err(fail)?;
    session.insert(EPOCH, user.session_epoch).map_err(fail)?;
    session.insert(SIGNED_IN_AT, now_secs()).map_err(fail)?;
    session.insert(CSRF, users::random_hex(32)).map_err(fail)?;
    Ok(())
}

pub fn end_session(session: &Session) {
    session.purge();
}

/// The signed-in user, from an API token or the session; `None` when there
/// is none (or it has ended).
async fn resolve(req: &HttpRequest) -> Result<Option<Identity>, AppError> {
    let state = req.app_data::<web::Data<AppState>>().cloned().ok_or_else(|| AppError::internal("no app state"))?;
    let ip = super::observe::client_ip(req);
    let bearer = req.headers().get(header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("").trim().to_string());
    if let Some(value) = bearer {
        let token = value.strip_prefix("Bearer ").map(str::trim).unwrap_or("").to_string();
        if token.is_empty() || token.len() > 200 {
            return Err(AppError::unauthorized(
                "bad_authorization",
                "the Authorization header must be `Bearer <token>`",
            ));
        }
        let user = with_db(&state, move |c| users::user_for_token(c, &token)).await?;
        return match user {
            Some((user, token_id)) => {
                let actor = Actor::of(&user, ip, Some(token_id));
                Ok(Some(Identity { user, actor, csrf: None }))
            }
            None => Err(AppError::unauthorized(
                "bad_token",
                "this API token is not valid (unknown, revoked, expired, or its user is inactive)",
            )),
        };
    }
    let session = req.get_session();
    let (Ok(Some(uid)), Ok(Some(epoch)), Ok(Some(at)), Ok(Some(csrf))) = (
        session.get::<i64>(UID),
        session.get::<i32>(EPOCH),
        session.get::<i64>(SIGNED_IN_AT),
        session.get::<String>(CSRF),
    ) else {
        return Ok(None);
    };
    if now_secs() - at > users::SESSION_HOURS * 3600 {
        end_session(&session);
        return Ok(None);
    }
    let user = with_db(&state, move |c| users::active_user(c, crate::domain::UserId(uid))).await?;
    match user {
        Some(user) if user.session_epoch == epoch => {
            let actor = Actor::of(&user, ip, None);
            Ok(Some(Identity { user, actor, csrf: Some(csrf) }))
        }
        _ => {
            end_session(&session);
            Ok(None)
        }
    }
}

impl FromRequest for Identity {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    /// API paths answer 401 JSON; pages send the browser to the sign-in page.
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            match resolve(&req).await {
                Ok(Some(identity)) => {
                    super::observe::note_request(&req, &identity.user.username);
                    Ok(identity)
                }
                Ok(None) if !req.path().starts_with("/api/") => Err(to_sign_in(&req)),
                Ok(None) => Err(AppError::unauthorized(
                    "not_signed_in",
                    "sign in first: send `Authorization: Bearer <API token>` or a session cookie",
                )
                .into()),
                Err(e) => Err(e.into()),
            }
        })
    }
}

/// A redirect to the sign-in page that comes back to this page.
fn to_sign_in(req: &HttpRequest) -> actix_web::Error {
    let back = if req.method() == actix_web::http::Method::GET {
        req.uri().path_and_query().map(|p| p.as_str().to_string()).unwrap_or_else(|| "/".to_string())
    } else {
        "/".to_string()
    };
    let location = format!("/login?next={}", encode_component(&back));
    let response = HttpResponse::SeeOther().insert_header((header::LOCATION, location)).finish();
    actix_web::error::InternalError::from_response("sign in first", response).into()
}

/// Percent-encodes a query value.
pub fn encode_component(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Where to go after sign-in: only a path on this service (never `//host`
/// or `https://…`, which would send the user elsewhere).
pub fn safe_next(next: Option<&str>) -> String {
    match next {
        // Visible ASCII only: browsers drop tabs and newlines from a URL, so
        // `/\t/evil.example` would become `//evil.example`.
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && n.len() < 500
                && n.bytes().all(|b| b.is_ascii_graphic() && b != b'\\') =>
        {
            n.to_string()
        }
        _ => "/".to_string(),
    }
}
