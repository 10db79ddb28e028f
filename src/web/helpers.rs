//! The one home of what handlers and pages share: the navigation bar, form
//! fields and tokens, redirects, a form shown again with its problem, times
//! in the casino's zone, and CSV downloads.

use actix_web::http::{header, StatusCode};
use actix_web::HttpResponse;

use super::auth::Identity;
use crate::domain::{AppError, Kind, Role};

/// The signed-in user's bar on every page: who, their links, the sign-out
/// form (with the session's form token).
pub struct Nav {
    pub username: String,
    pub display_name: String,
    pub floor: bool,
    pub accountant: bool,
    pub admin: bool,
    /// The count team (the gaming days' counts and sign-offs).
    pub count: bool,
    pub csrf: String,
    /// What the last form did, said once on the next page ("Table 3 saved").
    pub notice: String,
}

impl Nav {
    pub fn of(identity: &Identity) -> Nav {
        let user = &identity.user;
        Nav {
            username: user.username.clone(),
            display_name: user.display_name.clone(),
            floor: user.has(Role::Floor),
            accountant: user.has(Role::Accountant),
            admin: user.has(Role::Admin),
            count: user.has(Role::Count),
            csrf: identity.csrf_token(),
            notice: String::new(),
        }
    }

    /// The bar with the notice a form left for this page (`flash`), if any.
    pub fn with_notice(mut self, session: &actix_session::Session) -> Nav {
        self.notice = take_flash(session);
        self
    }

    /// Nobody signed in (the sign-in and first-admin pages).
    pub fn anonymous(csrf: String) -> Nav {
        Nav {
            username: String::new(),
            display_name: String::new(),
            floor: false,
            accountant: false,
            admin: false,
            count: false,
            csrf,
            notice: String::new(),
        }
    }
}

const FLASH: &str = "flash";

/// Leaves a notice for the next page this session shows (a form that
/// worked says so there, after its redirect).
pub fn flash(session: &actix_session::Session, notice: impl Into<String>) {
    let _ = session.insert(FLASH, notice.into());
}

/// The notice a form left, once.
pub fn take_flash(session: &actix_session::Session) -> String {
    session.remove_as::<String>(FLASH).and_then(Result::ok).unwrap_or_default()
}

/// A form as it was sent, to show it again when it was refused: every
/// field as typed, and which field the problem names (its input is marked
/// and the problem shown beside it). A new form has no values: each input
/// shows its current value (`value_or`).
#[derive(Clone, Debug, Default)]
pub struct FormState {
    values: Vec<(String, String)>,
    sent: bool,
    /// The problem in words (empty when none).
    pub problem: String,
    /// The form field the problem names (empty when none, or the whole form).
    pub problem_field: String,
}

impl FormState {
    /// A form not sent yet.
    pub fn new() -> FormState {
        FormState::default()
    }

    /// A form sent and refused for `problem`.
    pub fn refused(form: &FormFields, problem: &AppError) -> FormState {
        FormState {
            values: form.iter().filter(|(k, _)| k != "csrf_token").cloned().collect(),
            sent: true,
            problem: problem.message.clone(),
            problem_field: problem.place.field.clone().unwrap_or_default(),
        }
    }

    /// What was typed into `name` (empty for a new form).
    pub fn value(&self, name: &str) -> &str {
        self.values.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("")
    }

    /// What was typed into `name` when the form came back, else `current`.
    pub fn value_or<'a>(&'a self, name: &str, current: &'a str) -> &'a str {
        if self.sent {
            self.value(name)
        } else {
            current
        }
    }

    /// A checkbox or option: as sent when the form came back, else `current`.
    pub fn checked(&self, name: &str, value: &str, current: bool) -> bool {
        if self.sent {
            self.values.iter().any(|(k, v)| k == name && v == value)
        } else {
            current
        }
    }

    /// The problem belongs to this field (its input gets `aria-invalid`).
    pub fn is_at(&self, field: &str) -> bool {
        !self.problem_field.is_empty() && self.problem_field == field
    }

    /// The problem belongs to none of `fields` (its fields' names, separated
    /// by spaces) that show it beside themselves: it is shown above the form.
    pub fn is_general(&self, fields: &str) -> bool {
        !self.problem.is_empty() && !fields.split_whitespace().any(|f| self.is_at(f))
    }
}

/// `303 See Other` to `location`.
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther().insert_header((header::LOCATION, location.to_string())).finish()
}

/// A page answered with `status` (a form shown again with its problem).
pub fn page_with_status(
    page: impl actix_web::Responder,
    request: &actix_web::HttpRequest,
    status: StatusCode,
) -> HttpResponse {
    let mut response = page.respond_to(request).map_into_boxed_body();
    *response.status_mut() = status;
    response
}

/// A form shown again with its problem, under the problem's own status
/// (decided in `web::error`, as for every error).
pub fn form_again(
    page: impl actix_web::Responder,
    request: &actix_web::HttpRequest,
    problem: &AppError,
) -> HttpResponse {
    page_with_status(page, request, super::error::status_of(problem.kind))
}

/// An error a form shows above (or beside) itself: bad input, a conflict,
/// something missing, a refusal. Any other error passes on.
pub fn form_problem(error: AppError) -> Result<AppError, AppError> {
    match error.kind {
        Kind::Invalid | Kind::Conflict | Kind::NotFound | Kind::Forbidden => Ok(error),
        _ => Err(error),
    }
}

/// A form's fields, as posted.
pub type FormFields = [(String, String)];

/// The form token a form post carries.
pub fn form_token(fields: &FormFields) -> Option<&str> {
    fields.iter().find(|(k, _)| k == "csrf_token").map(|(_, v)| v.as_str())
}

/// A form field's value (empty when absent).
pub fn field<'a>(form: &'a FormFields, name: &str) -> &'a str {
    form.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or("")
}

/// A request's query string as its pairs, in order (a report's or a
/// page's parameters); one that cannot be read is a 422 `bad_query`.
pub fn query_pairs(req: &actix_web::HttpRequest) -> Result<Vec<(String, String)>, AppError> {
    actix_web::web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map(actix_web::web::Query::into_inner)
        .map_err(|e| AppError::invalid("bad_query", format!("the query string is not valid: {e}")))
}

/// A form field's trimmed value, `None` when absent or empty.
pub fn optional(form: &FormFields, name: &str) -> Option<String> {
    Some(field(form, name).trim().to_string()).filter(|v| !v.is_empty())
}

/// A stored (UTC) time as shown on a page: in the casino's time zone.
pub fn shown(at: &chrono::NaiveDateTime, tz: chrono_tz::Tz) -> String {
    at.and_utc().with_timezone(&tz).format("%Y-%m-%d %H:%M:%S %Z").to_string()
}

/// A span of time for people: `45 s`, `12 min`, `2 h 05 min`.
pub fn elapsed(seconds: i64) -> String {
    let s = seconds.max(0);
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s / 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

/// A stored time in CSV: UTC, `YYYY-MM-DD HH:MM:SS`.
pub fn utc(at: &chrono::NaiveDateTime) -> String {
    at.format("%Y-%m-%d %H:%M:%S").to_string()
}

/// Text typed by people (names, notes) as a CSV field: one a spreadsheet would
/// read as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'`,
/// so it shows as text. Not for numbers.
pub fn csv_text(name: &str) -> String {
    match name.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{name}"),
        _ => name.to_string(),
    }
}

/// The UTF-8 byte order mark a report's CSV file begins with.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A CSV download being written (RFC 4180, the `csv` crate).
pub struct CsvFile(csv::Writer<Vec<u8>>);

impl CsvFile {
    pub fn new() -> CsvFile {
        CsvFile(csv::WriterBuilder::new().flexible(true).from_writer(Vec::new()))
    }

    /// A report's file: one table, starting with the UTF-8 byte order mark
    /// (EF BB BF) so spreadsheets read names in any script right.
    pub fn report() -> CsvFile {
        CsvFile(csv::WriterBuilder::new().from_writer(BOM.to_vec()))
    }

    pub fn row<I, T>(&mut self, fields: I) -> Result<(), AppError>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<str>,
    {
        for field in fields {
            self.0.write_field(field.as_ref()).map_err(AppError::internal)?;
        }
        // No more fields: the record ends.
        self.0.write_record(None::<&[u8]>).map_err(AppError::internal)
    }

    /// The bytes written so far (a part of a file sent in parts).
    pub fn bytes(self) -> Result<Vec<u8>, AppError> {
        self.0.into_inner().map_err(AppError::internal)
    }

    /// The download: `text/csv; charset=utf-8`, saved as `filename`.
    pub fn finish(self, filename: &str) -> Result<HttpResponse, AppError> {
        let bytes = self.0.into_inner().map_err(AppError::internal)?;
        Ok(HttpResponse::Ok()
            .content_type("text/csv; charset=utf-8")
            .insert_header(("Content-Disposition", format!("attachment; filename=\"{filename}\"")))
            .body(bytes))
    }
}

impl Default for CsvFile {
    fn default() -> Self {
        CsvFile::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_look_like_formulas_stay_text() {
        assert_eq!(csv_text("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(csv_text("-5"), "'-5");
        assert_eq!(csv_text("Ann"), "Ann");
    }

    #[test]
    fn spans_of_time_read_as_people_say_them() {
        assert_eq!(elapsed(-3), "0 s");
        assert_eq!(elapsed(45), "45 s");
        assert_eq!(elapsed(12 * 60 + 5), "12 min");
        assert_eq!(elapsed(2 * 3600 + 5 * 60 + 9), "2 h 05 min");
    }
}
