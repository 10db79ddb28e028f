//! The OpenAPI 3.1 document of the JSON API (utoipa), generated from the
//! handlers' `#[utoipa::path]` and the body types' `ToSchema`, served at
//! `GET /api/openapi.json`, with Swagger UI at `/api/docs/` (its files are
//! built into the binary: nothing is fetched at build or run time).
//!
//! Roles are the scopes of each operation's security requirement (OpenAPI
//! 3.1 lets an HTTP scheme list role names there); every error is the one
//! JSON shape `ErrorBody`, its codes listed per status. The answers every
//! route can give (not signed in, a bad body, the database down, draining)
//! are added here, once, by `CommonErrors`.

use actix_web::{http::header, HttpResponse};
use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use super::routes::{gaming_days, hands, health, jackpots, metrics, players, score, tables, users};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "pitboss",
        description = "Table bookkeeping and settlement for Chinese poker. Every error is \
            `{\"error\", \"code\", \"seat\"?, \"row\"?, \"field\"?}`; decide by `code` (docs/api.md lists them all). \
            Sign in with an API token (`Authorization: Bearer pb_…`) or a session cookie; an operation's \
            security scopes are the roles that may call it (none: any signed-in user). A request that changes \
            something must be sent as `Content-Type: application/json`."
    ),
    paths(
        score::score_showdown,
        score::analyse,
        score::list_presets,
        users::me,
        users::change_password,
        users::list_users,
        users::create_user,
        users::get_user,
        users::update_user,
        users::create_token,
        users::revoke_token,
        users::unlock_user,
        jackpots::list_hits,
        jackpots::get_hit,
        jackpots::approve,
        jackpots::verify,
        jackpots::reject,
        jackpots::audit_trail,
        jackpots::exceptions,
        tables::create_pool,
        tables::get_pool,
        tables::list_pools,
        tables::edit_pool,
        tables::seed_pool,
        tables::edit_table,
        tables::create_table,
        tables::list_tables,
        tables::get_table,
        tables::change_ruleset,
        tables::seat_player,
        tables::add_on,
        tables::cash_out,
        tables::table_ledger,
        tables::board,
        tables::board_events,
        tables::close_table,
        tables::open_table,
        players::list_players,
        players::get_player,
        players::create_player,
        hands::start_hand,
        hands::get_hand,
        hands::preview,
        hands::commit,
        hands::void,
        hands::rescore,
        hands::scans,
        hands::add_scan,
        gaming_days::list_days,
        gaming_days::get_day,
        gaming_days::count,
        gaming_days::close,
        health::healthz,
        health::readyz,
        metrics::metrics,
    ),
    modifiers(&SecuritySchemes, &CommonErrors),
    tags(
        (name = "scoring", description = "The engine over HTTP; public, writes nothing"),
        (name = "tables", description = "Pools, tables, rulesets, seats and the ledger"),
        (name = "hands", description = "The hand lifecycle: start, preview, commit, void, rescore, scans"),
        (name = "jackpots", description = "Jackpot hits and their two sign-offs"),
        (name = "players", description = "Players' records, their sessions and results"),
        (name = "users", description = "Users and API tokens"),
        (name = "gaming days", description = "Drop counts, variances and the gaming-day close"),
        (name = "audit", description = "The audit trail and the exception report"),
        (name = "operations", description = "Liveness, readiness and metrics"),
    )
)]
pub struct ApiDoc;

/// The document, as served.
pub fn document() -> Document {
    ApiDoc::openapi()
}

struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut Document) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let bearer = |about: &str| {
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some(about)).build())
        };
        components.add_security_scheme(
            "token",
            bearer("An API token, `Authorization: Bearer pb_…` (an admin makes one per device)"),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "pitboss_session",
                "The session cookie of a person signed in at /login",
            ))),
        );
        components.add_security_scheme(
            "metrics_token",
            bearer("`METRICS_TOKEN`; without it /metrics answers the service's own machine only"),
        );
    }
}

/// The answers every route can give, added to each operation: the
/// database down and draining (503), a bug (500); for a signed-in route
/// the missing or bad credentials (401); for a route with a body the body's
/// own problems (400, 413, 415, 422); for a route with ids in its path, one
/// that is not a number (404).
struct CommonErrors;

fn codes(list: &[&str]) -> String {
    let quoted: Vec<String> = list.iter().map(|c| format!("`{c}`")).collect();
    quoted.join(", ")
}

fn add_codes(operation: &mut Operation, status: u16, list: &[&str]) {
    let key = status.to_string();
    let responses = &mut operation.responses.responses;
    match responses.get_mut(&key) {
        Some(RefOr::T(response)) => {
            let known = response.description.clone();
            let missing: Vec<&str> = list.iter().copied().filter(|c| !known.contains(&format!("`{c}`"))).collect();
            if !missing.is_empty() {
                response.description = format!("{known}, {}", codes(&missing));
            }
        }
        Some(RefOr::Ref(_)) => {}
        None => {
            let response: Response = ResponseBuilder::new()
                .description(format!("Codes: {}", codes(list)))
                .content(
                    "application/json",
                    utoipa::openapi::ContentBuilder::new()
                        .schema(Some(utoipa::openapi::Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build();
            responses.insert(key, RefOr::T(response));
        }
    }
}

impl Modify for CommonErrors {
    fn modify(&self, openapi: &mut Document) {
        for (path, item) in openapi.paths.paths.iter_mut() {
            let api = path.starts_with("/api/");
            let has_ids = path.contains('{');
            // (Whether the method may change something: only a change waits
            // for its table's turn.)
            let operations = [
                (&mut item.get, false),
                (&mut item.put, true),
                (&mut item.post, true),
                (&mut item.delete, true),
                (&mut item.patch, true),
            ];
            for (operation, changes) in operations.into_iter().filter_map(|(o, c)| o.as_mut().map(|o| (o, c))) {
                let signed_in = operation.security.as_ref().is_some_and(|s| !s.is_empty());
                let body = operation.request_body.is_some();
                let pure = path == "/api/v1/score" || path == "/api/v1/analyse";
                if signed_in && api {
                    add_codes(operation, 401, &["not_signed_in", "bad_token", "bad_authorization"]);
                }
                if body {
                    add_codes(operation, 400, &["unreadable_body"]);
                    add_codes(operation, 413, &["body_too_large"]);
                    if !pure {
                        add_codes(operation, 415, &["json_required"]);
                        add_codes(operation, 422, &["bad_json", "bad_body"]);
                    } else {
                        add_codes(operation, 422, &["not_utf8"]);
                    }
                }
                if has_ids {
                    add_codes(operation, 404, &["no_route"]);
                }
                add_codes(operation, 500, &["internal"]);
                add_codes(operation, 503, &["database_unavailable", "shutting_down"]);
                if changes {
                    add_codes(operation, 503, &["table_busy"]);
                }
            }
        }
    }
}

/// Swagger UI at `/api/docs/`, reading the document at `/api/openapi.json`
/// (also served here). Its files are in the binary; it asks nobody else
/// (no validator badge).
pub fn swagger_ui() -> utoipa_swagger_ui::SwaggerUi {
    let config = utoipa_swagger_ui::Config::from("/api/openapi.json").validator_url("none");
    utoipa_swagger_ui::SwaggerUi::new("/api/docs/{_:.*}").url("/api/openapi.json", document()).config(config)
}

/// `GET /api/docs`: on to `/api/docs/`.
pub async fn to_docs() -> HttpResponse {
    HttpResponse::MovedPermanently().insert_header((header::LOCATION, "/api/docs/")).finish()
}
