//! The gaming-day close as pages: the list of days (open, counted, closed,
//! with totals and variances), and one day: the count forms per table, the
//! comparison with the ledger, the two sign-off buttons, and the end-of-day
//! report that prints with signature lines.

use actix_session::Session;
use actix_web::{web, HttpRequest, HttpResponse, Responder};
use askama::Template;
use askama_web::WebTemplate;

use super::auth::Identity;
use super::extract::{with_database, with_db};
use super::helpers::{field, flash, form_again, form_problem, form_token, optional, see_other, shown, FormState, Nav};
use super::state::AppState;
use crate::domain::{AppError, Money, Role};
use crate::service::gaming_days::{
    self, CountRequest, DaysView, GamingDayView, Signoff, SignoffRequest, COUNTERS, READERS,
};

#[derive(Template, WebTemplate)]
#[template(path = "gaming_days.html")]
struct DaysPage {
    nav: Nav,
    view: DaysView,
}

impl DaysPage {
    fn sign(&self, m: &Money) -> &'static str {
        sign_class(m)
    }
}

fn sign_class(m: &Money) -> &'static str {
    if m.is_negative() {
        "neg"
    } else if m.is_zero() {
        ""
    } else {
        "pos"
    }
}

/// `GET /gaming-days`: the last 14 gaming days.
pub async fn days_page(
    state: web::Data<AppState>,
    identity: Identity,
    session: Session,
) -> Result<impl Responder, AppError> {
    identity.require(READERS)?;
    let view = with_db(&state, |c| gaming_days::list_days(c, None, None)).await?;
    Ok(DaysPage { nav: Nav::of(&identity).with_notice(&session), view })
}

/// One table's count form as shown: what was typed when refused, else empty.
struct CountForm {
    table_id: i64,
    table: String,
    rake_drop: String,
    jackpot_drop: String,
    note: String,
    problem: String,
    problem_field: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "gaming_day.html")]
struct DayPage {
    tz: chrono_tz::Tz,
    nav: Nav,
    day: GamingDayView,
    counts: Vec<CountForm>,
    can_count: bool,
    can_sign_count: bool,
    can_close: bool,
    /// A refused sign-off, in words.
    signoff_problem: String,
    signoff_note: String,
}

impl DayPage {
    fn when(&self, at: &chrono::NaiveDateTime) -> String {
        shown(at, self.tz)
    }

    fn sign(&self, m: &Option<Money>) -> &'static str {
        m.as_ref().map_or("", sign_class)
    }

    fn total_sign(&self, m: &Money) -> &'static str {
        sign_class(m)
    }

    fn money(&self, m: &Option<Money>) -> String {
        m.map_or_else(|| "—".to_string(), |m| m.to_string())
    }

    fn signed_by(&self, which: &str) -> String {
        self.day
            .signoffs
            .iter()
            .find(|s| s.signoff == which)
            .map(|s| format!("{} ({}), {}", s.display_name, s.username, self.when(&s.at)))
            .unwrap_or_default()
    }
}

async fn day_page_for(
    state: &web::Data<AppState>,
    identity: &Identity,
    session: Option<&Session>,
    date: &str,
    refused_count: Option<(&[(String, String)], &AppError)>,
    refused_signoff: Option<(&[(String, String)], &AppError)>,
) -> Result<DayPage, AppError> {
    identity.require(READERS)?;
    let day = gaming_days::parse_day(date)?;
    let (view, tables) =
        with_db(state, move |c| Ok((gaming_days::get_day(c, day)?, crate::db::gaming_days::tables(c)?))).await?;
    let refused = refused_count.map(|(form, e)| (FormState::refused(form, e), field(form, "table_id").to_string()));
    let counts = tables
        .iter()
        .map(|t| {
            let mine = refused.as_ref().filter(|(_, id)| *id == t.id.to_string()).map(|(f, _)| f);
            CountForm {
                table_id: t.id.get(),
                table: t.name.clone(),
                rake_drop: mine.map(|f| f.value("rake_drop").to_string()).unwrap_or_default(),
                jackpot_drop: mine.map(|f| f.value("jackpot_drop").to_string()).unwrap_or_default(),
                note: mine.map(|f| f.value("note").to_string()).unwrap_or_default(),
                problem: mine.map(|f| f.problem.clone()).unwrap_or_default(),
                problem_field: mine.map(|f| f.problem_field.clone()).unwrap_or_default(),
            }
        })
        .collect();
    let signed = |w: &str| view.signoffs.iter().any(|s| s.signoff == w);
    let open = !view.closed;
    let user = &identity.user;
    let nav = match session {
        Some(s) => Nav::of(identity).with_notice(s),
        None => Nav::of(identity),
    };
    Ok(DayPage {
        tz: state.time_zone,
        nav,
        can_count: open && !signed("count") && user.has_any(COUNTERS),
        can_sign_count: open && !signed("count") && user.has(Role::Count),
        can_close: open && signed("count") && user.has(Role::Accountant),
        counts,
        signoff_problem: refused_signoff.map(|(_, e)| e.message.clone()).unwrap_or_default(),
        signoff_note: refused_signoff.map(|(f, _)| field(f, "note").to_string()).unwrap_or_default(),
        day: view,
    })
}

/// `GET /gaming-days/{date}`.
pub async fn day_page(
    state: web::Data<AppState>,
    path: web::Path<String>,
    identity: Identity,
    session: Session,
) -> Result<impl Responder, AppError> {
    day_page_for(&state, &identity, Some(&session), &path.into_inner(), None, None).await
}

/// `POST /gaming-days/{date}/count` (a form; the count team).
pub async fn count_post(
    state: web::Data<AppState>,
    path: web::Path<String>,
    identity: Identity,
    session: Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    identity.require(COUNTERS)?;
    let date = path.into_inner();
    let table_id: i64 = field(&form, "table_id").trim().parse().unwrap_or(0);
    let req = CountRequest {
        table_id,
        rake_drop: field(&form, "rake_drop").to_string(),
        jackpot_drop: optional(&form, "jackpot_drop"),
        note: optional(&form, "note"),
    };
    let actor = identity.actor.clone();
    let outcome = match gaming_days::parse_day(&date) {
        Ok(day) => with_database(&state, move |db| gaming_days::count(db, &actor, day, req)).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(view) => {
            let t = view.tables.iter().find(|t| t.table_id == table_id);
            flash(
                &session,
                match t {
                    Some(t) => format!(
                        "Count of {} saved: rake drop {}{}.",
                        t.table,
                        t.rake_drop.unwrap_or_default(),
                        t.jackpot_drop.map(|j| format!(", jackpot drop {j}")).unwrap_or_default()
                    ),
                    None => "Count saved.".to_string(),
                },
            );
            Ok(see_other(&format!("/gaming-days/{}", view.gaming_day)))
        }
        Err(e) => {
            let problem = form_problem(e)?;
            let page = day_page_for(&state, &identity, None, &date, Some((&form, &problem)), None).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}

/// `POST /gaming-days/{date}/close` (a form): `signoff` = `count` or `accountant`.
pub async fn close_post(
    state: web::Data<AppState>,
    path: web::Path<String>,
    identity: Identity,
    session: Session,
    form: web::Form<Vec<(String, String)>>,
    request: HttpRequest,
) -> Result<HttpResponse, AppError> {
    identity.check_csrf(form_token(&form))?;
    gaming_days::needs_person(&identity.actor)?;
    identity.require(&[Role::Count, Role::Accountant])?;
    let date = path.into_inner();
    let signoff = Signoff::parse(field(&form, "signoff"))
        .ok_or_else(|| AppError::invalid("bad_body", "signoff: count or accountant").at_field("signoff"))?;
    let req = SignoffRequest { signoff, note: optional(&form, "note") };
    let (user, actor) = (identity.user.clone(), identity.actor.clone());
    let outcome = match gaming_days::parse_day(&date) {
        Ok(day) => with_database(&state, move |db| gaming_days::sign_off(db, &user, &actor, day, req)).await,
        Err(e) => Err(e),
    };
    match outcome {
        Ok(view) => {
            flash(
                &session,
                match signoff {
                    Signoff::Count => format!("The count of gaming day {} is signed off.", view.gaming_day),
                    Signoff::Accountant => format!("Gaming day {} is closed.", view.gaming_day),
                },
            );
            Ok(see_other(&format!("/gaming-days/{}", view.gaming_day)))
        }
        Err(e) => {
            let problem = form_problem(e)?;
            let page = day_page_for(&state, &identity, None, &date, None, Some((&form, &problem))).await?;
            Ok(form_again(page, &request, &problem))
        }
    }
}
