//! The back office's forms for what the API can change after set-up: a
//! table's settings (admin), its stakes, rake and options as a new ruleset
//! version (floor), a pool's name, re-seed amount and shares (admin) and
//! the house seeding it now (floor, admin). Each form keeps what was typed
//! when it is refused, names the problem in words beside its field, and says
//! so on the next page when it worked.

use actix_session::Session;
use actix_web::{web, HttpRequest, HttpResponse, Responder};
use askama::Template;
use askama_web::WebTemplate;

use super::auth::Identity;
use super::bodies::{PairUnitBody, RulesetBody};
use super::extract::{with_database, with_db};
use super::helpers::{field, flash, form_again, form_problem, form_token, optional, see_other, shown, FormState, Nav};
use super::routes::tables::POOL_SEEDERS;
use super::state::AppState;
use crate::domain::{AppError, Money, PoolId, Role, TableId};
use crate::engine::ruleset::{OptionInput, OptionKind};
use crate::service::tables::{
    self, PoolChangeView, PoolEdit, PoolView, RulesetVersionView, SharesView, TableEdit, TableView,
};

// ---- a table's settings (admin) ----

#[derive(Template, WebTemplate)]
#[template(path = "admin_table.html")]
struct TablePage {
    tz: chrono_tz::Tz,
    nav: Nav,
    table: TableView,
    pools: Vec<PoolView>,
    /// Its clock and pool are fixed once it has played a hand.
    has_hands: bool,
    /// Its clock is fixed once anyone has sat at it.
    has_sessions: bool,
    /// The signed-in user may change the stakes, rake and options (floor).
    can_change_rules: bool,
    form: FormState,
}

impl TablePage {
    fn when(&self, at: &chrono::DateTime<chrono::Utc>) -> String {
        shown(&at.naive_utc(), self.tz)
    }

    fn pool_chosen(&self, pool: &PoolId) -> bool {
        let current = self.table.pool.as_ref().map(|p| p.id.to_string()).unwrap_or_default();
        self.form.value_or("pool_id", &current) == pool.to_string()
    }
}

async fn table_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    id: TableId,
    form: FormState,
) -> Result<TablePage, AppError> {
    identity.require(&[Role::Admin])?;
    let (table, pools, has_hands, has_sessions) = with_db(state, move |c| {
        Ok((tables::get_table(c, id)?, tables::list_pools(c)?, tables::has_hands(c, id)?, tables::has_seatings(c, id)?))
    })
    .await?;
    Ok(TablePage {
        tz: state.time_zone,
        nav: Nav::of(identity),
        table,
        pools,
        has_hands,
        has_sessions,
        can_change_rules: identity.user.has(Role::Floor),
        form,
    })
}

/// `GET /admin/tables/{id}`: a table's settings (admin).
pub async fn table_page(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    session: Session,
) -> Result<impl Responder, AppError> {
    let mut page = table_page_for(&state, &identity, path.into_inner(), FormState::new()).await?;
    page.nav = page.nav.with_notice(&session);
    Ok(page)
}

/// A whole number typed into a form field, or the field named in words.
fn whole_number(form: &[(String, String)], name: &str, words: &str) -> Result<Option<i32>, AppError> {
    optional(form, name)
        .map(|s| s.parse::<i32>())
        .transpose()
        .map_err(|_| AppError::invalid("bad_number", format!("{words} must be a whole number")).at_field(name))
}

/// `POST /admin/tables/{id}` (a form): the table's settings.
pub async fn table_post(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    session: Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let parsed = (|| {
        let pool = match optional(&form, "pool_id") {
            None => None,
            Some(p) => Some(
                p.parse::<i64>()
                    .map(PoolId)
                    .map_err(|_| AppError::invalid("bad_pool", "choose a pool from the list").at_field("pool_id"))?,
            ),
        };
        Ok::<_, AppError>(TableEdit {
            name: Some(field(&form, "name").to_string()),
            seat_count: whole_number(&form, "seat_count", "The number of seats")?,
            // Sent only while they can change (the inputs are disabled after the first hand).
            time_zone: optional(&form, "time_zone"),
            gaming_day_cutoff: optional(&form, "gaming_day_cutoff"),
            pool: form.iter().any(|(k, _)| k == "pool_id").then_some(pool),
        })
    })();
    let actor = identity.actor.clone();
    let outcome = match parsed {
        Ok(edit) => with_database(&state, move |db| tables::edit_table(db, &actor, id, edit)).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(table) => {
            flash(&session, format!("{} saved.", table.name));
            Ok(see_other(&format!("/admin/tables/{id}")))
        }
        Err(e) => {
            let problem = form_problem(e)?;
            let page = table_page_for(&state, &identity, id, FormState::refused(&form, &problem)).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

// ---- a pool (admin: settings; floor and admin: seeding) ----

#[derive(Template, WebTemplate)]
#[template(path = "admin_pool.html")]
struct PoolPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    pool: PoolView,
    tables: Vec<String>,
    history: Vec<PoolChangeView>,
    can_edit: bool,
    can_seed: bool,
    /// The settings form.
    form: FormState,
    /// The seed form.
    seed: FormState,
}

impl PoolPage {
    fn when(&self, at: &chrono::DateTime<chrono::Utc>) -> String {
        shown(&at.naive_utc(), self.tz)
    }
}

async fn pool_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    id: PoolId,
    form: FormState,
    seed: FormState,
) -> Result<PoolPage, AppError> {
    identity.require(&[Role::Admin, Role::Floor])?;
    let (pool, tables, history) = with_db(state, move |c| {
        Ok((tables::get_pool(c, id)?, crate::db::tables::tables_feeding(c, id)?, tables::pool_history(c, id)?))
    })
    .await?;
    Ok(PoolPage {
        tz: state.time_zone,
        nav: Nav::of(identity),
        pool,
        tables,
        history,
        can_edit: identity.user.has(Role::Admin),
        can_seed: identity.user.has_any(POOL_SEEDERS),
        form,
        seed,
    })
}

/// `GET /admin/pools/{id}`: a pool, its history, its forms.
pub async fn pool_page(
    state: web::Data<AppState>,
    path: web::Path<PoolId>,
    identity: Identity,
    session: Session,
) -> Result<impl Responder, AppError> {
    let mut page = pool_page_for(&state, &identity, path.into_inner(), FormState::new(), FormState::new()).await?;
    page.nav = page.nav.with_notice(&session);
    Ok(page)
}

fn percent(form: &[(String, String)], name: &str, words: &str) -> Result<u32, AppError> {
    field(form, name).trim().parse::<u32>().map_err(|_| {
        AppError::invalid("bad_shares", format!("{words} must be a whole percentage from 0 to 100")).at_field("shares")
    })
}

/// `POST /admin/pools/{id}` (a form, admin): name, re-seed amount, shares.
pub async fn pool_post(
    state: web::Data<AppState>,
    path: web::Path<PoolId>,
    identity: Identity,
    session: Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Admin])?;
    let id = path.into_inner();
    let parsed = (|| {
        Ok::<_, AppError>(PoolEdit {
            name: Some(field(&form, "name").to_string()),
            seed: Some(Money::parse(field(&form, "seed"), "seed")?),
            shares: Some(SharesView {
                loser: percent(&form, "loser", "The loser's share")?,
                winner: percent(&form, "winner", "The winner's share")?,
                others: percent(&form, "others", "The other seats' share")?,
            }),
        })
    })();
    let actor = identity.actor.clone();
    let outcome = match parsed {
        Ok(edit) => with_database(&state, move |db| tables::edit_pool(db, &actor, id, edit)).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(pool) => {
            flash(&session, format!("{} saved.", pool.name));
            Ok(see_other(&format!("/admin/pools/{id}")))
        }
        Err(e) => {
            let problem = form_problem(e)?;
            let page =
                pool_page_for(&state, &identity, id, FormState::refused(&form, &problem), FormState::new()).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

/// `POST /admin/pools/{id}/seed` (a form, floor or admin): the house adds money now.
pub async fn pool_seed_post(
    state: web::Data<AppState>,
    path: web::Path<PoolId>,
    identity: Identity,
    session: Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(POOL_SEEDERS)?;
    let id = path.into_inner();
    let actor = identity.actor.clone();
    let note = field(&form, "note").to_string();
    let outcome = match Money::parse(field(&form, "amount"), "amount") {
        Ok(amount) => with_database(&state, move |db| tables::seed_pool(db, &actor, id, amount, note)).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(pool) => {
            flash(&session, format!("{} seeded: its balance is now {}.", pool.name, pool.balance));
            Ok(see_other(&format!("/admin/pools/{id}")))
        }
        Err(e) => {
            let problem = form_problem(e)?;
            let page =
                pool_page_for(&state, &identity, id, FormState::new(), FormState::refused(&form, &problem)).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

// ---- a table's stakes, rake and options: a new ruleset version (floor) ----

/// One option of the preset on the form.
struct OptionField {
    name: &'static str,
    label: &'static str,
    flag: bool,
    units: bool,
    /// The names to choose from (empty: not a choice).
    choices: Vec<&'static str>,
    /// The value shown: typed, or the table's current one.
    value: String,
    checked: bool,
}

/// A pair of seats playing for its own unit, on the form.
struct PairRow {
    a: String,
    b: String,
    unit: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "ruleset.html")]
struct RulesetPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    table: TableView,
    /// The preset the form is for (the table's, or the one chosen).
    preset: &'static str,
    summary: &'static str,
    presets: Vec<&'static str>,
    options: Vec<OptionField>,
    pairs: Vec<PairRow>,
    history: Vec<RulesetVersionView>,
    form: FormState,
}

impl RulesetPage {
    fn when(&self, at: &chrono::DateTime<chrono::Utc>) -> String {
        shown(&at.naive_utc(), self.tz)
    }

    fn options_text(&self, v: &RulesetVersionView) -> String {
        let set: Vec<String> = v
            .ruleset
            .options
            .as_object()
            .map(|o| {
                o.iter()
                    .filter(|(_, v)| !matches!(v, serde_json::Value::Null | serde_json::Value::Bool(false)))
                    .map(|(k, v)| match v {
                        serde_json::Value::Bool(true) => k.replace('_', " "),
                        other => format!(
                            "{} {}",
                            k.replace('_', " "),
                            other.as_str().map_or(other.to_string(), str::to_string)
                        ),
                    })
                    .collect()
            })
            .unwrap_or_default();
        if set.is_empty() {
            "none".to_string()
        } else {
            set.join(", ")
        }
    }

    fn pairs_text(&self, v: &RulesetVersionView) -> String {
        v.ruleset
            .pair_units
            .iter()
            .map(|p| format!("seats {} & {}: {}", p.seats[0], p.seats[1], p.unit))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// How many empty pair rows the form offers beyond the table's own.
const SPARE_PAIR_ROWS: usize = 2;

async fn ruleset_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    id: TableId,
    chosen: Option<String>,
    form: FormState,
) -> Result<RulesetPage, AppError> {
    identity.require(&[Role::Floor])?;
    let (table, history) =
        with_db(state, move |c| Ok((tables::get_table(c, id)?, tables::ruleset_history(c, id)?))).await?;
    let current = &table.ruleset;
    let preset = chosen
        .as_deref()
        .and_then(crate::engine::preset)
        .or_else(|| crate::engine::preset(&current.preset))
        .ok_or_else(|| AppError::internal(format!("unknown preset {}", current.preset)))?;
    let same_preset = preset.name == current.preset;
    let options = preset
        .options
        .iter()
        .map(|kind: &OptionKind| {
            let name = kind.name();
            let stored = if same_preset { current.options.get(name).cloned() } else { None };
            let text = match &stored {
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(serde_json::Value::Number(n)) => n.to_string(),
                _ => String::new(),
            };
            let on = matches!(stored, Some(serde_json::Value::Bool(true)));
            let input = kind.input(preset);
            let form_name = format!("option_{name}");
            OptionField {
                name,
                label: kind.label(),
                flag: input == OptionInput::Flag,
                units: input == OptionInput::Units,
                choices: match input {
                    OptionInput::Choice(c) => c.to_vec(),
                    _ => Vec::new(),
                },
                value: form.value_or(&form_name, &text).to_string(),
                checked: form.checked(&form_name, "on", on),
            }
        })
        .collect();
    let mut pairs: Vec<PairRow> = current
        .pair_units
        .iter()
        .map(|p| PairRow { a: p.seats[0].to_string(), b: p.seats[1].to_string(), unit: p.unit.to_string() })
        .collect();
    pairs.extend((0..SPARE_PAIR_ROWS).map(|_| PairRow { a: String::new(), b: String::new(), unit: String::new() }));
    for (i, p) in pairs.iter_mut().enumerate() {
        p.a = form.value_or(&format!("pair_{i}_a"), &p.a).to_string();
        p.b = form.value_or(&format!("pair_{i}_b"), &p.b).to_string();
        p.unit = form.value_or(&format!("pair_{i}_unit"), &p.unit).to_string();
    }
    Ok(RulesetPage {
        tz: state.time_zone,
        nav: Nav::of(identity),
        preset: preset.name,
        summary: preset.summary,
        presets: crate::engine::PRESETS.iter().map(|p| p.name).collect(),
        options,
        pairs,
        history,
        table,
        form,
    })
}

#[derive(serde::Deserialize)]
pub struct PresetQuery {
    preset: Option<String>,
}

/// `GET /tables/{id}/ruleset[?preset=…]`: the table's stakes, rake and
/// options, its versions, and the form for a new version (floor).
pub async fn ruleset_page(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    query: web::Query<PresetQuery>,
    identity: Identity,
    session: Session,
) -> Result<impl Responder, AppError> {
    let chosen = query.into_inner().preset;
    let mut page = ruleset_page_for(&state, &identity, path.into_inner(), chosen, FormState::new()).await?;
    page.nav = page.nav.with_notice(&session);
    Ok(page)
}

/// The ruleset a form asks for: its options from the preset's own fields,
/// its per-pair stakes from the filled rows.
fn ruleset_from(form: &[(String, String)]) -> Result<RulesetBody, AppError> {
    let preset_name = field(form, "preset");
    let preset = crate::engine::preset(preset_name).ok_or_else(|| {
        AppError::invalid("unknown_preset", format!("{preset_name:?} is not a preset")).at_field("preset")
    })?;
    let mut options = serde_json::Map::new();
    for kind in preset.options {
        let name = format!("option_{}", kind.name());
        let value = match kind.input(preset) {
            OptionInput::Flag => serde_json::Value::Bool(field(form, &name) == "on"),
            OptionInput::Choice(_) => match optional(form, &name) {
                None => serde_json::Value::Null,
                Some(v) => v.parse::<i64>().map_or(serde_json::Value::String(v), |n| n.into()),
            },
            OptionInput::Units => match optional(form, &name) {
                None => serde_json::Value::Null,
                Some(v) => v.parse::<i64>().map(Into::into).map_err(|_| {
                    AppError::invalid("bad_options", format!("{}: give a whole number of units", kind.label()))
                        .at_field(name.clone())
                })?,
            },
        };
        options.insert(kind.name().to_string(), value);
    }
    let mut pair_units = Vec::new();
    for i in 0.. {
        let (a, b, unit) = (format!("pair_{i}_a"), format!("pair_{i}_b"), format!("pair_{i}_unit"));
        if !form.iter().any(|(k, _)| *k == a) {
            break;
        }
        let (sa, sb, su) = (optional(form, &a), optional(form, &b), optional(form, &unit));
        if sa.is_none() && sb.is_none() && su.is_none() {
            continue;
        }
        let seat = |text: Option<String>, name: &str| {
            text.and_then(|t| t.parse::<i32>().ok()).ok_or_else(|| {
                AppError::invalid("bad_pair_units", format!("pair {}: give both seats as numbers", i + 1))
                    .at_field(name.to_string())
            })
        };
        pair_units.push(PairUnitBody { seats: [seat(sa, &a)?, seat(sb, &b)?], unit: su.unwrap_or_default() });
    }
    Ok(RulesetBody {
        preset: preset_name.to_string(),
        unit: field(form, "unit").to_string(),
        rake_per_seat: optional(form, "rake_per_seat"),
        jackpot_part: optional(form, "jackpot_part"),
        options: Some(options.into()),
        pair_units: Some(pair_units),
    })
}

/// `POST /tables/{id}/ruleset` (a form, floor): a new ruleset version.
pub async fn ruleset_post(
    state: web::Data<AppState>,
    path: web::Path<TableId>,
    identity: Identity,
    session: Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(&[Role::Floor])?;
    let id = path.into_inner();
    let actor = identity.actor.clone();
    let outcome = match ruleset_from(&form).and_then(RulesetBody::parse) {
        Ok(req) => with_database(&state, move |db| tables::change_ruleset(db, &actor, id, req)).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(table) => {
            flash(
                &session,
                format!(
                    "{} now plays version {}: {}, unit {}, rake {} a seat.",
                    table.name,
                    table.ruleset.version,
                    table.ruleset.preset,
                    table.ruleset.unit,
                    table.ruleset.rake_per_seat
                ),
            );
            Ok(see_other(&format!("/tables/{id}/ruleset")))
        }
        Err(e) => {
            let problem = form_problem(e)?;
            let chosen = Some(field(&form, "preset").to_string());
            let page = ruleset_page_for(&state, &identity, id, chosen, FormState::refused(&form, &problem)).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}
