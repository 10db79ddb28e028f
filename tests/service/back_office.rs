//! Logins, roles, CSRF, jackpot sign-offs, voids and the audit trail,
//! through HTTP on a real database (SQLite, and PostgreSQL when configured).

use crate::support::{backends, expect, raw, request, spawn_app, spawn_empty_app, Browser, TestApp, PASSWORD};
use rust_decimal::Decimal;
use serde_json::{json, Value};

fn dec(v: &Value) -> Decimal {
    v.as_str().unwrap_or_else(|| panic!("not a money string: {v}")).parse().unwrap()
}

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

/// Another client of the same app, signed in by API token as `username`.
fn as_user(app: &TestApp, username: &str, roles: &[&str], tables: &[i64]) -> TestApp {
    TestApp::at(&app.base).with_token(&app.user(username, roles, tables))
}

/// The bad beat: seat 1 (straight flush, trips, pair) loses all three rows to seat 2.
const BAD_BEAT: &str = r#"{"seats":[
 {"seat":1,"front":"3c 3d 4c","middle":"2h 2d 2c 4h 5d","back":"5s 6s 7s 8s 9s"},
 {"seat":2,"front":"As Ad 8c","middle":"Ks Kd Kc 6h 7h","back":"Th Jh Qh Kh Ah"},
 {"seat":3,"front":"Qs Qd 2s","middle":"Ts Td Tc 3s 4s","back":"4d 6d 7d 8d 9d"},
 {"seat":4,"front":"8h 9h Qc","middle":"Js Jd Jc 3h 5h","back":"5c 6c 7c 9c Ac"}]}"#;

/// Pool 1 (seed 500) and table 1 (hawaiian-gardens, unit 1, rake 0.50 of
/// which 0.10 to the jackpot), four players with 100 each.
fn table_with_pool(app: &TestApp) {
    expect(app, "POST", "/api/v1/pools", &json!({"name": "Bad beat", "seed": "500"}), 201);
    let table = json!({"name": "T1", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                       "jackpot_part": "0.10", "pool_id": 1});
    expect(app, "POST", "/api/v1/tables", &table, 201);
    for (seat, player) in [(1, "Ann"), (2, "Ben"), (3, "Cat"), (4, "Dan")] {
        expect(app, "POST", "/api/v1/tables/1/seats", &json!({"seat": seat, "player": player, "buy_in": "100"}), 201);
    }
}

/// Plays hand `n` at table 1 with `showdown`; answers the commit.
fn play(app: &TestApp, n: i64, showdown: &str) -> Value {
    expect(app, "POST", "/api/v1/tables/1/hands", &json!({}), 201);
    let (status, answer) = request(app, "POST", &format!("/api/v1/tables/1/hands/{n}/commit"), showdown);
    assert_eq!(status, 201, "{answer}");
    answer
}

fn stacks(app: &TestApp) -> Vec<Decimal> {
    let table = expect(app, "GET", "/api/v1/tables/1", &Value::Null, 200);
    table["seats"].as_array().unwrap().iter().map(|s| dec(&s["stack"])).collect()
}

fn audit_actions(app: &TestApp) -> Vec<(String, String, String)> {
    let events = expect(app, "GET", "/api/v1/audit?limit=1000", &Value::Null, 200);
    events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap().to_string(),
                e["username"].as_str().unwrap().to_string(),
                e["target"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------
// No default credentials
// ---------------------------------------------------------------------------

#[test]
fn a_new_installation_has_no_user_and_makes_its_first_admin_once() {
    let app = spawn_empty_app("sqlite");
    // Nothing is open: the API and the pages want a user.
    assert_eq!(request(&app, "GET", "/api/v1/tables", "").0, 401);
    let mut b = Browser::new(&app);
    let answer = b.get("/");
    assert_eq!((answer.status, answer.location()), (303, "/login?next=/"));
    // The sign-in page sends a new installation to the first-admin page.
    assert_eq!(b.get("/login").location(), "/setup");
    // Only with the one-time token the service printed in its log.
    let token = pitboss::service::users::setup_token(app.db.as_ref().unwrap()).unwrap().expect("a setup token");
    for path in ["/setup".to_string(), "/setup?token=guess".to_string(), format!("/setup?token={}", &token[1..])] {
        let refused = b.get(&path);
        assert_eq!(refused.status, 403, "{path}");
        assert!(refused.body.contains("printed in the service's log"), "{}", refused.body);
    }
    let setup = format!("/setup?token={token}");
    // Passed on by a proxy (from anywhere): not local, refused even with the token.
    let proxied = raw(&app, "GET", &setup, &[("X-Forwarded-For".to_string(), "203.0.113.9".to_string())], "");
    assert_eq!(proxied.status, 403);
    assert!(proxied.body.contains("pitboss admin create"));
    let page = b.get(&setup);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("no default password"));
    // Two different passwords, a short one: refused, nobody made.
    let mismatch = b.post(
        "/setup",
        &[
            ("setup_token", &token),
            ("username", "root"),
            ("password", "long enough pass"),
            ("password_again", "long enough pasS"),
        ],
    );
    assert_eq!(mismatch.status, 422);
    assert!(mismatch.body.contains("the two passwords differ"));
    let short = b.post(
        "/setup",
        &[("setup_token", &token), ("username", "root"), ("password", "short"), ("password_again", "short")],
    );
    assert_eq!(short.status, 422);
    assert!(short.body.contains("at least 10") || short.body.contains("10 to 256"), "{}", short.body);
    // Without the page's token: refused.
    let forged = b.post(
        "/setup",
        &[
            ("setup_token", &token),
            ("username", "root"),
            ("password", PASSWORD),
            ("password_again", PASSWORD),
            ("csrf_token", "nope"),
        ],
    );
    assert_eq!(forged.status, 403);
    let no_token = b.post("/setup", &[("username", "root"), ("password", PASSWORD), ("password_again", PASSWORD)]);
    assert_eq!(no_token.status, 403);
    assert_eq!(b.get("/login").location(), "/setup", "still no user");
    // The first admin, signed in at once.
    let made = b.post(
        "/setup",
        &[
            ("setup_token", &token),
            ("username", "Root"),
            ("display_name", "Floor Boss"),
            ("password", PASSWORD),
            ("password_again", PASSWORD),
        ],
    );
    assert_eq!((made.status, made.location()), (303, "/admin/users"));
    let users = b.get("/admin/users");
    assert_eq!(users.status, 200);
    assert!(users.body.contains("Floor Boss") && users.body.contains("root"));
    // The admin sets the room up from the pages: a pool, a table, a dealer.
    let bad = b.post("/admin/pools", &[("name", "Bad beat"), ("seed", "500"), ("time_zone", "Mars/Olympus")]);
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains(r#"id="p-tz-problem""#) && bad.body.contains("Mars/Olympus"), "{}", bad.body);
    let pool = [("name", "Bad beat"), ("seed", "500"), ("time_zone", "America/Los_Angeles"), ("gaming_day_cutoff", "")];
    assert_eq!(b.post("/admin/pools", &pool).location(), "/admin/tables");
    let page = b.get("/admin/pools/1");
    assert!(page.body.contains("America/Los_Angeles, from 06:00"), "the pool's clock: {}", page.body);
    let bad = b.post("/admin/tables", &[("name", "T1"), ("preset", "typical"), ("unit", "five")]);
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains("unit"), "the problem is named: {}", bad.body);
    let table = [
        ("name", "T1"),
        ("preset", "typical"),
        ("unit", "5"),
        ("rake_per_seat", "0.50"),
        ("jackpot_part", "0.10"),
        ("pool_id", "1"),
        ("time_zone", "America/Los_Angeles"),
    ];
    assert_eq!(b.post("/admin/tables", &table).location(), "/admin/tables");
    let made =
        b.post("/admin/users", &[("username", "dee"), ("password", PASSWORD), ("role", "dealer"), ("table", "1")]);
    assert_eq!(made.location(), "/admin/users");
    let mut dee = Browser::signed_in(&app, "dee");
    let page = dee.get("/tables/1");
    assert!(page.body.contains("T1") && page.body.contains("Bad beat") && page.body.contains("500.00"));
    assert_eq!(dee.get("/admin/tables").status, 403, "a dealer is not an admin");
    // Once there is a user, the page is gone.
    let mut other = Browser::new(&app);
    assert_eq!(other.get("/setup").location(), "/login");
    let again = other.post("/setup", &[("username", "eve"), ("password", PASSWORD), ("password_again", PASSWORD)]);
    assert_eq!(again.location(), "/login");
    let mut eve = Browser::new(&app);
    eve.get("/login");
    assert_eq!(eve.post("/login", &[("username", "eve"), ("password", PASSWORD)]).status, 401, "eve was not made");
}

// ---------------------------------------------------------------------------
// Sessions, passwords, rate limiting
// ---------------------------------------------------------------------------

#[test]
fn sign_in_renews_the_session_with_safe_cookies_and_sign_out_ends_it() {
    let app = spawn_app("sqlite");
    app.user("dee", &["dealer"], &[]);
    let mut b = Browser::new(&app);
    let page = b.get("/login?next=/tables/1");
    assert_eq!(page.status, 200);
    let before = b.cookie.clone();
    assert!(before.starts_with("pitboss_session="), "a session cookie carries the sign-in form's token");
    let wrong = b.post("/login", &[("username", "dee"), ("password", "not the password"), ("next", "/tables/1")]);
    assert_eq!(wrong.status, 401);
    assert!(wrong.body.contains("wrong username or password"));
    let unknown = b.post("/login", &[("username", "nobody"), ("password", PASSWORD)]);
    assert_eq!(unknown.status, 401);
    assert!(unknown.body.contains("wrong username or password"), "the same words: no user enumeration");
    // Only this site's own paths are followed after sign-in.
    let ok = b.post("/login", &[("username", "DEE"), ("password", PASSWORD), ("next", "//evil.example/x")]);
    assert_eq!((ok.status, ok.location()), (303, "/"));
    let cookie = ok.header("set-cookie").expect("a new session cookie");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Strict"), "{cookie}");
    assert!(!cookie.contains("Secure"), "loopback: no TLS, so no Secure flag (SECURE_COOKIES decides otherwise)");
    assert_ne!(b.cookie, before, "the session is renewed at sign-in");
    let home = b.get("/");
    assert_eq!(home.status, 200);
    assert!(home.body.contains("Sign out") && home.body.contains("dee"));
    // The cookie from before sign-in does not sign anyone in.
    let stale = raw(&app, "GET", "/", &[("Cookie".to_string(), before)], "");
    assert_eq!(stale.status, 303);
    // A session cookie works for the JSON API too.
    let me = raw(&app, "GET", "/api/v1/me", &[("Cookie".to_string(), b.cookie.clone())], "");
    assert_eq!(me.status, 200, "{}", me.body);
    assert!(me.body.contains("\"username\":\"dee\""));
    // Sign out: the old cookie, replayed, no longer works.
    let signed_in = b.cookie.clone();
    assert_eq!(b.post("/logout", &[]).location(), "/login");
    let replay = raw(&app, "GET", "/api/v1/me", &[("Cookie".to_string(), signed_in)], "");
    assert_eq!(replay.status, 401);
    let actions: Vec<String> =
        audit_actions(&app).into_iter().filter(|a| a.1 == "dee" || a.1 == "nobody").map(|a| a.0).collect();
    assert_eq!(
        actions,
        ["logout", "login", "login_attempt", "login_failed", "login_attempt", "login_failed", "login_attempt"],
        "newest first; every attempt is recorded before its password is checked"
    );
}

#[test]
fn wrong_passwords_are_rate_limited() {
    let app = spawn_app("sqlite");
    app.user("dee", &["dealer"], &[]);
    app.user("flo", &["floor"], &[]);
    let mut b = Browser::new(&app);
    b.get("/login");
    for _ in 0..5 {
        assert_eq!(b.post("/login", &[("username", "dee"), ("password", "guess guess guess")]).status, 401);
    }
    // Even the right password is refused now, for a while.
    let locked = b.post("/login", &[("username", "dee"), ("password", PASSWORD)]);
    assert_eq!(locked.status, 429);
    assert!(locked.body.contains("too many failed sign-ins"));
    // Another user from the same address is not locked out.
    assert_eq!(b.post("/login", &[("username", "flo"), ("password", PASSWORD)]).status, 303);
    // The API tokens of the locked user still work (a locked sign-in is not a ban).
    let failures = audit_actions(&app).iter().filter(|a| a.0 == "login_failed" && a.1 == "dee").count();
    assert_eq!(failures, 5, "the refused attempt is not counted again");
    // Failures right after a success count, also within the success's own
    // second (times are kept to the second; the order is the rows').
    app.user("kim", &["dealer"], &[]);
    let mut k = Browser::new(&app);
    k.get("/login");
    assert_eq!(k.post("/login", &[("username", "kim"), ("password", PASSWORD)]).status, 303);
    let mut k = Browser::new(&app);
    k.get("/login");
    for _ in 0..5 {
        assert_eq!(k.post("/login", &[("username", "kim"), ("password", "guess guess guess")]).status, 401);
    }
    assert_eq!(k.post("/login", &[("username", "kim"), ("password", PASSWORD)]).status, 429);
}

#[test]
fn changing_a_users_password_or_roles_ends_their_sessions() {
    let app = spawn_app("sqlite");
    app.user("dee", &["dealer"], &[]);
    let mut b = Browser::signed_in(&app, "dee");
    let users = expect(&app, "GET", "/api/v1/users", &Value::Null, 200);
    let id = users.as_array().unwrap().iter().find(|u| u["username"] == "dee").unwrap()["id"].as_i64().unwrap();
    expect(&app, "PATCH", &format!("/api/v1/users/{id}"), &json!({"roles": ["dealer", "accountant"]}), 200);
    assert_eq!(b.get("/").status, 303, "signed out by the change");
    let mut b = Browser::signed_in(&app, "dee");
    expect(&app, "PATCH", &format!("/api/v1/users/{id}"), &json!({"active": false}), 200);
    assert_eq!(b.get("/").status, 303);
    b.get("/login");
    assert_eq!(b.post("/login", &[("username", "dee"), ("password", PASSWORD)]).status, 401, "inactive");
    // The last admin cannot be switched off.
    let boss = users.as_array().unwrap().iter().find(|u| u["username"] == "boss").unwrap()["id"].as_i64().unwrap();
    let (status, answer) = request(&app, "PATCH", &format!("/api/v1/users/{boss}"), r#"{"active": false}"#);
    assert_eq!(status, 409, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("no active admin"));
}

// ---------------------------------------------------------------------------
// CSRF
// ---------------------------------------------------------------------------

#[test]
fn every_form_needs_the_sessions_token_and_this_sites_origin() {
    let app = spawn_app("sqlite");
    table_with_pool(&app);
    let mut b = Browser::signed_in(&app, "boss");
    b.get("/tables/1");
    let token = b.csrf.clone();
    assert_eq!(token.len(), 64);
    let forms = [
        "/tables/1/start-hand",
        "/tables/1/hands/1/entry",
        "/tables/1/seats/1/add-on",
        "/tables/1/seats/1/cash-out",
        "/tables/1/hands/1/void",
        "/floor/jackpots/1/approve",
        "/floor/tables/1/close",
        "/floor/tables/1/open",
        "/admin/users",
        "/admin/users/1",
        "/admin/users/1/tokens",
        "/admin/tables",
        "/admin/pools",
        "/admin/tables/1",
        "/admin/pools/1",
        "/admin/pools/1/seed",
        "/admin/users/1/unlock",
        "/tables/1/ruleset",
        "/logout",
    ];
    for path in forms {
        for forged in ["", "0000", &token[..63]] {
            let answer = b.post(path, &[("csrf_token", forged), ("note", "x"), ("reason", "misdeal")]);
            assert_eq!(answer.status, 403, "{path} with token {forged:?}: {}", answer.body);
            assert!(answer.body.contains("security token"), "{path}: {}", answer.body);
        }
        // Another site's page, right token or not: refused by origin.
        let mut headers = vec![
            ("Cookie".to_string(), b.cookie.clone()),
            ("Origin".to_string(), "http://evil.example".to_string()),
            ("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()),
        ];
        let body = format!("csrf_token={token}");
        assert_eq!(raw(&app, "POST", path, &headers, &body).status, 403, "{path} from another origin");
        headers.remove(1);
        assert_eq!(raw(&app, "POST", path, &headers, &body).status, 403, "{path} with no origin at all");
    }
    // Nothing happened: no hand, the same users, still signed in.
    assert_eq!(expect(&app, "GET", "/api/v1/tables/1", &Value::Null, 200)["hand_number"], 0);
    assert_eq!(expect(&app, "GET", "/api/v1/users", &Value::Null, 200).as_array().unwrap().len(), 1);
    // With the token it works.
    let started = b.post("/tables/1/start-hand", &[]);
    assert_eq!((started.status, started.location()), (303, "/tables/1/hands/1/entry"));
    // The sign-in form has a token too (against login CSRF).
    let mut fresh = Browser::new(&app);
    fresh.get("/login");
    let forged = fresh.post("/login", &[("username", "boss"), ("password", PASSWORD), ("csrf_token", "x")]);
    assert_eq!(forged.status, 403);
    // The JSON API refuses a session-authenticated call that is not JSON
    // (what a cross-site form could send).
    let form_to_api = raw(
        &app,
        "POST",
        "/api/v1/tables/1/hands/1/void",
        &[
            ("Cookie".to_string(), b.cookie.clone()),
            ("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()),
        ],
        "reason=misdeal&note=x",
    );
    assert_eq!(form_to_api.status, 415);
}

// ---------------------------------------------------------------------------
// The role matrix
// ---------------------------------------------------------------------------

/// Who may call each route: `*` anyone signed in, `-` anyone at all,
/// otherwise the users (by name) allowed.
const MATRIX: &[(&str, &str, &str, &str)] = &[
    // Public.
    ("GET", "/healthz", "", "-"),
    ("GET", "/readyz", "", "-"),
    ("GET", "/static/pitboss.css", "", "-"),
    ("GET", "/display", "", "-"),
    ("GET", "/login", "", "-"),
    ("GET", "/api/v1/presets", "", "-"),
    ("POST", "/api/v1/score", "{}", "-"),
    ("POST", "/api/v1/analyse", "{}", "-"),
    // Anyone signed in.
    ("GET", "/api/v1/me", "", "*"),
    ("GET", "/api/v1/tables", "", "*"),
    ("GET", "/api/v1/tables/1", "", "*"),
    ("GET", "/api/v1/pools/1", "", "*"),
    ("GET", "/api/v1/tables/1/hands/1", "", "*"),
    ("GET", "/api/v1/tables/1/hands/1/rescore", "", "*"),
    // Live cards of a hand: only for those who deal (or scan) there.
    ("GET", "/api/v1/tables/1/hands/1/scans", "", "dealer1 floor"),
    ("GET", "/", "", "*"),
    ("GET", "/tables/1", "", "*"),
    ("GET", "/tables/1/hands/1/sheet", "", "*"),
    ("GET", "/tables/1/hands/1/sheet.json", "", "*"),
    ("GET", "/tables/1/hands/1/sheet.csv", "", "*"),
    // The table's dealer and the floor.
    ("POST", "/api/v1/tables/1/seats", "{}", "dealer1 floor"),
    ("POST", "/api/v1/tables/1/seats/4/add-on", "{}", "dealer1 floor"),
    ("POST", "/api/v1/tables/1/seats/9/cash-out", "{}", "dealer1 floor"),
    ("POST", "/api/v1/tables/1/hands", "[]", "dealer1 floor"),
    ("POST", "/api/v1/tables/1/hands/1/preview", "[]", "dealer1 floor"),
    ("POST", "/api/v1/tables/1/hands/1/commit", "[]", "dealer1 floor"),
    ("POST", "/api/v1/tables/1/hands/1/scans", "[]", "dealer1 floor"),
    ("GET", "/tables/1/hands/1/entry", "", "dealer1 floor"),
    ("POST", "/tables/1/start-hand", "", "dealer1 floor"),
    ("POST", "/tables/1/hands/1/entry", "action=preview", "dealer1 floor"),
    ("POST", "/tables/1/seats/4/add-on", "amount=x", "dealer1 floor"),
    ("POST", "/tables/1/seats/9/cash-out", "", "dealer1 floor"),
    ("POST", "/tables/1/seats/9/seat", "", "dealer1 floor"),
    ("GET", "/tables/1/cash-outs/99999/slip", "", "dealer1 floor"),
    // The ledger: the table's dealer and the back office.
    ("GET", "/api/v1/tables/1/ledger", "", "dealer1 floor accountant admin"),
    // Floor.
    ("PUT", "/api/v1/tables/1/ruleset", "[]", "floor"),
    ("GET", "/tables/1/ruleset", "", "floor"),
    ("POST", "/tables/1/ruleset", "", "floor"),
    ("POST", "/api/v1/tables/1/hands/99/void", "[]", "floor"),
    ("POST", "/tables/1/hands/99/void", "", "floor"),
    ("POST", "/api/v1/jackpots/99/approve", "{}", "people"),
    ("POST", "/floor/jackpots/99/approve", "", "people"),
    // Floor or admin, signed in in person (`people`: every API token is
    // refused; the roles are checked in `a_hit_needs_two_different_people…`).
    ("POST", "/api/v1/jackpots/99/verify", "{}", "people"),
    ("POST", "/api/v1/jackpots/99/reject", "{}", "people"),
    ("POST", "/floor/jackpots/99/verify", "", "people"),
    ("POST", "/floor/jackpots/99/reject", "", "people"),
    ("GET", "/api/v1/audit", "", "floor admin"),
    ("GET", "/audit", "", "floor admin"),
    // The back office: floor, accountants, admins.
    ("GET", "/api/v1/jackpots", "", "floor accountant admin"),
    ("GET", "/api/v1/jackpots/99", "", "floor accountant admin"),
    ("GET", "/api/v1/exceptions", "", "floor accountant admin"),
    ("GET", "/floor", "", "floor accountant admin"),
    ("GET", "/exceptions", "", "floor accountant admin"),
    ("GET", "/exceptions.csv", "", "floor accountant admin"),
    ("GET", "/reports", "", "floor accountant admin"),
    ("GET", "/reports/rake", "", "floor accountant admin"),
    ("GET", "/reports/rake.csv", "", "floor accountant admin"),
    ("GET", "/reports/rake.json", "", "floor accountant admin"),
    ("GET", "/reports/rake.svg", "", "floor accountant admin"),
    ("GET", "/reports/jackpots", "", "floor accountant admin"),
    ("GET", "/reports/jackpots.csv", "", "floor accountant admin"),
    ("GET", "/reports/jackpot-hits.csv", "", "floor accountant admin"),
    ("GET", "/jackpots/1/slip", "", "floor accountant admin"),
    ("GET", "/reports/jackpots.json", "", "floor accountant admin"),
    ("GET", "/reports/jackpots.svg", "", "floor accountant admin"),
    ("GET", "/reports/sessions", "", "floor accountant admin"),
    ("GET", "/reports/sessions.csv", "", "floor accountant admin"),
    ("GET", "/reports/sessions.json", "", "floor accountant admin"),
    // The pit board: floor, accountants, admins; tables opened and closed by
    // the floor or an admin (table 1 has players and is open: 409 for them).
    ("GET", "/api/v1/board", "", "floor accountant admin"),
    ("GET", "/floor/board", "", "floor accountant admin"),
    ("POST", "/api/v1/tables/1/close", "{}", "floor admin"),
    ("POST", "/api/v1/tables/1/open", "{}", "floor admin"),
    ("POST", "/floor/tables/1/close", "", "floor admin"),
    ("POST", "/floor/tables/1/open", "", "floor admin"),
    // Admin.
    ("POST", "/api/v1/pools", "[]", "admin"),
    ("POST", "/api/v1/tables", "[]", "admin"),
    ("GET", "/api/v1/users", "", "admin"),
    ("POST", "/api/v1/users", "[]", "admin"),
    ("GET", "/api/v1/users/999", "", "admin"),
    ("PATCH", "/api/v1/users/999", "[]", "admin"),
    ("POST", "/api/v1/users/999/tokens", "[]", "admin"),
    ("DELETE", "/api/v1/tokens/999", "", "admin"),
    ("GET", "/admin/users", "", "admin"),
    ("POST", "/admin/users", "", "admin"),
    ("POST", "/admin/users/999", "", "admin"),
    ("POST", "/admin/users/999/tokens", "", "admin"),
    ("GET", "/admin/tables", "", "admin"),
    ("POST", "/admin/tables", "", "admin"),
    ("POST", "/admin/pools", "", "admin"),
    ("PATCH", "/api/v1/tables/1", "[]", "admin"),
    ("PATCH", "/api/v1/pools/1", "[]", "admin"),
    ("POST", "/api/v1/users/999/unlock", "", "admin"),
    ("GET", "/admin/tables/1", "", "admin"),
    ("POST", "/admin/tables/1", "", "admin"),
    ("POST", "/admin/pools/1", "", "admin"),
    ("POST", "/admin/users/999/unlock", "", "admin"),
    // A pool: anyone reads it; the floor and admins seed it.
    ("GET", "/api/v1/pools", "", "*"),
    ("POST", "/api/v1/pools/1/seed", "[]", "floor admin"),
    ("GET", "/admin/pools/1", "", "floor admin"),
    ("POST", "/admin/pools/1/seed", "", "floor admin"),
    // Players: those who seat them and count their money read them; the
    // accountant makes no records.
    ("GET", "/api/v1/players", "", "dealer1 dealer2 floor accountant admin"),
    ("GET", "/api/v1/players/1", "", "dealer1 dealer2 floor accountant admin"),
    ("POST", "/api/v1/players", "[]", "dealer1 dealer2 floor admin"),
    ("GET", "/players", "", "dealer1 dealer2 floor accountant admin"),
    ("GET", "/players/1", "", "dealer1 dealer2 floor accountant admin"),
    ("POST", "/players", "", "dealer1 dealer2 floor admin"),
    // The gaming-day close: the count team counts; the count team and an
    // accountant sign off in person (`people`: every API token is refused;
    // the roles are checked in tests/service/gaming_days.rs).
    ("GET", "/api/v1/gaming-days", "", "count floor accountant admin"),
    ("GET", "/api/v1/gaming-days/2026-01-01", "", "count floor accountant admin"),
    ("POST", "/api/v1/gaming-days/2026-01-01/count", "[]", "count"),
    ("POST", "/api/v1/gaming-days/2026-01-01/close", "{}", "people"),
    ("GET", "/gaming-days", "", "count floor accountant admin"),
    ("GET", "/gaming-days/2026-01-01", "", "count floor accountant admin"),
    ("POST", "/gaming-days/2026-01-01/count", "", "count"),
    ("POST", "/gaming-days/2026-01-01/close", "", "people"),
    // Signing out: anyone signed in.
    ("POST", "/logout", "", "*"),
];

#[test]
fn every_route_checks_its_roles_on_the_server() {
    for backend in backends() {
        role_matrix(backend);
    }
}

fn role_matrix(backend: &str) {
    let app = spawn_app(backend);
    table_with_pool(&app);
    expect(&app, "POST", "/api/v1/tables", &json!({"name": "T2", "preset": "simple", "unit": "1"}), 201);
    play(&app, 1, BAD_BEAT);
    let users: Vec<(&str, String)> = vec![
        ("dealer1", app.user("dealer1", &["dealer"], &[1])),
        ("dealer2", app.user("dealer2", &["dealer"], &[2])),
        ("floor", app.user("floor", &["floor"], &[])),
        ("accountant", app.user("accountant", &["accountant"], &[])),
        ("admin", app.user("admin", &["admin"], &[])),
        ("count", app.user("count", &["count"], &[])),
    ];
    let origin = format!("http://{}", app.base);
    for &(method, path, body, allowed) in MATRIX {
        let page = !path.starts_with("/api/");
        let form = page && method == "POST";
        let send = |token: Option<&str>| {
            let mut headers = vec![(
                "Content-Type".to_string(),
                if form { "application/x-www-form-urlencoded" } else { "application/json" }.to_string(),
            )];
            if let Some(t) = token {
                headers.push(("Authorization".to_string(), format!("Bearer {t}")));
            }
            if form {
                headers.push(("Origin".to_string(), origin.clone()));
            }
            raw(&app, method, path, &headers, body)
        };
        // Nobody signed in.
        let anonymous = send(None);
        if allowed == "-" {
            assert!(!matches!(anonymous.status, 401 | 403), "{method} {path} is public: {}", anonymous.status);
        } else if page && method == "GET" {
            assert_eq!(anonymous.status, 303, "{method} {path} anonymous");
            assert!(anonymous.location().starts_with("/login?next="), "{method} {path}");
        } else {
            assert!(matches!(anonymous.status, 401 | 303), "{method} {path} anonymous: {}", anonymous.status);
        }
        // A bad token is refused outright.
        if allowed != "-" {
            assert_eq!(send(Some("pb_forged")).status, 401, "{method} {path} with a forged token");
        }
        for (name, token) in &users {
            let answer = send(Some(token));
            let may = allowed != "people" && (matches!(allowed, "-" | "*") || allowed.split(' ').any(|a| a == *name));
            if may {
                assert!(
                    !matches!(answer.status, 401 | 403),
                    "{method} {path} as {name} should be allowed, got {}: {}",
                    answer.status,
                    answer.body
                );
            } else {
                assert_eq!(answer.status, 403, "{method} {path} as {name} should be refused: {}", answer.body);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Jackpot sign-offs (RULES §9)
// ---------------------------------------------------------------------------

#[test]
fn a_hit_needs_two_different_people_and_is_paid_by_the_pools_shares() {
    for backend in backends() {
        dual_sign_off(backend);
    }
}

fn dual_sign_off(backend: &str) {
    let app = spawn_app(backend);
    table_with_pool(&app);
    let dealer = as_user(&app, "dee", &["dealer"], &[1]);
    // Sign-offs are people's: signed in with their passwords, not tokens.
    let floor1 = app.person("flo", &["floor"], &[]);
    let floor2 = app.person("fred", &["floor"], &[]);
    let admin = app.person("ada", &["admin"], &[]);
    let accountant = app.person("acc", &["accountant"], &[]);
    let dealer_in_person = app.signed_in("dee");
    let committed = play(&dealer, 1, BAD_BEAT);
    let hit = &committed["hand"]["jackpot_hits"][0];
    assert_eq!(hit["status"], "pending");
    // Seed 500 plus four contributions of 0.10.
    assert_eq!(dec(&hit["amount"]), d("500.40"));
    let id = hit["id"].as_i64().unwrap();
    let path = |what: &str| format!("/api/v1/jackpots/{id}{what}");
    let stacks_before = stacks(&app);
    let pool_before = dec(&expect(&app, "GET", "/api/v1/pools/1", &Value::Null, 200)["balance"]);
    assert_eq!(pool_before, d("500.00"), "the pool restarted from its seed");

    // The plan is shown before anyone signs: loser 50%, winner 25%, the two others 12.5% each.
    let shown = expect(&accountant, "GET", &path(""), &Value::Null, 200);
    let plan: Vec<(i64, String, Decimal)> = shown["payouts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["seat"].as_i64().unwrap(), p["share"].as_str().unwrap().to_string(), dec(&p["amount"])))
        .collect();
    assert_eq!(
        plan,
        [
            (1, "loser".to_string(), d("250.20")),
            (2, "winner".to_string(), d("125.10")),
            (3, "other".to_string(), d("62.55")),
            (4, "other".to_string(), d("62.55"))
        ]
    );

    // Verification before approval; approval by the wrong roles.
    assert_eq!(request(&floor1, "POST", &path("/verify"), "{}").0, 409);
    for who in [&dealer_in_person, &accountant, &admin] {
        assert_eq!(request(who, "POST", &path("/approve"), "{}").0, 403);
    }
    let approved = expect(&floor1, "POST", &path("/approve"), &json!({}), 200);
    assert_eq!(approved["status"], "approved");
    assert_eq!(approved["approved"]["username"], "flo");
    assert_eq!(stacks(&app), stacks_before, "approval alone pays nothing");
    // The approver cannot verify their own approval; nor can a dealer or an accountant.
    let (status, answer) = request(&floor1, "POST", &path("/verify"), "{}");
    assert_eq!(status, 403);
    assert!(answer["error"].as_str().unwrap().contains("second, different person"), "{answer}");
    for who in [&dealer_in_person, &accountant] {
        assert_eq!(request(who, "POST", &path("/verify"), "{}").0, 403);
    }
    assert_eq!(request(&floor1, "POST", &path("/approve"), "{}").0, 409, "approved once");
    let paid = expect(&admin, "POST", &path("/verify"), &json!({}), 200);
    assert_eq!(paid["status"], "paid");
    assert_eq!(paid["verified"]["username"], "ada");
    assert!(paid["approved"]["at"].as_str().unwrap() <= paid["verified"]["at"].as_str().unwrap());

    // Paid as ledger rows to the players; the pool is untouched by the payout.
    let stacks_after = stacks(&app);
    let paid_out: Vec<Decimal> = stacks_after.iter().zip(&stacks_before).map(|(a, b)| a - b).collect();
    assert_eq!(paid_out, [d("250.20"), d("125.10"), d("62.55"), d("62.55")]);
    let ledger = expect(&app, "GET", "/api/v1/tables/1/ledger", &Value::Null, 200);
    let payouts: Vec<&Value> = ledger.as_array().unwrap().iter().filter(|r| r["kind"] == "jackpot_payout").collect();
    assert_eq!(payouts.len(), 4);
    assert!(payouts.iter().all(|r| r["jackpot_hit_id"] == json!(id) && r["seating_id"].is_i64()));
    assert_eq!(payouts.iter().map(|r| dec(&r["amount"])).sum::<Decimal>(), d("500.40"));
    assert_eq!(dec(&expect(&app, "GET", "/api/v1/pools/1", &Value::Null, 200)["balance"]), pool_before);

    // Decided: nothing more can happen to it, and its hand cannot be voided.
    assert_eq!(request(&floor2, "POST", &path("/verify"), "{}").0, 409);
    assert_eq!(request(&floor2, "POST", &path("/reject"), r#"{"reason":"late"}"#).0, 409);
    let (status, answer) =
        request(&app, "POST", "/api/v1/tables/1/hands/1/void", r#"{"reason":"dispute","note":"after payment"}"#);
    assert_eq!(status, 409);
    assert!(answer["error"].as_str().unwrap().contains("signed off"), "{answer}");

    // A second hit: rejected with a reason, back to the pool.
    play(&dealer, 2, BAD_BEAT);
    let hits = expect(&floor2, "GET", "/api/v1/jackpots?status=open", &Value::Null, 200);
    assert_eq!(hits.as_array().unwrap().len(), 1);
    let second = hits[0]["id"].as_i64().unwrap();
    let amount = dec(&hits[0]["amount"]);
    assert_eq!(amount, d("500.40"));
    let pool_before = dec(&expect(&app, "GET", "/api/v1/pools/1", &Value::Null, 200)["balance"]);
    let reject = format!("/api/v1/jackpots/{second}/reject");
    let (status, answer) = request(&floor2, "POST", &reject, r#"{"reason":"  "}"#);
    assert_eq!(status, 422);
    assert!(answer["error"].as_str().unwrap().contains("reason"));
    assert_eq!(request(&accountant, "POST", &reject, r#"{"reason":"no"}"#).0, 403);
    let rejected = expect(&floor2, "POST", &reject, &json!({"reason": "the loser's hand was misread"}), 200);
    assert_eq!(rejected["status"], "rejected");
    assert_eq!(rejected["rejected"]["reason"], "the loser's hand was misread");
    let pool_after = dec(&expect(&app, "GET", "/api/v1/pools/1", &Value::Null, 200)["balance"]);
    assert_eq!(pool_after - pool_before, amount, "a rejected hit returns its amount to the pool");
    assert_eq!(request(&floor1, "POST", &format!("/api/v1/jackpots/{second}/approve"), "{}").0, 409);
    let decided = expect(&accountant, "GET", "/api/v1/jackpots?status=decided", &Value::Null, 200);
    let statuses: Vec<&str> = decided.as_array().unwrap().iter().map(|h| h["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["rejected", "paid"], "newest first");
    assert_eq!(expect(&accountant, "GET", "/api/v1/jackpots?status=open", &Value::Null, 200), json!([]));

    // The sign-offs are in the audit trail, with names; the rejection is in the exception report.
    let trail = audit_actions(&app);
    for (action, user) in [("jackpot_approve", "flo"), ("jackpot_verify", "ada"), ("jackpot_reject", "fred")] {
        assert!(trail.iter().any(|a| a.0 == action && a.1 == user), "{action} by {user} in {trail:?}");
    }
    let exceptions = expect(&accountant, "GET", "/api/v1/exceptions", &Value::Null, 200);
    let rejection = exceptions.as_array().unwrap().iter().find(|e| e["kind"] == "jackpot_rejected").unwrap();
    assert_eq!(rejection["by"], "fred");
    assert_eq!(rejection["reason"], "the loser's hand was misread");
}

#[test]
fn a_pending_hit_goes_back_with_a_void_and_shares_are_configurable() {
    for backend in backends() {
        let app = spawn_app(backend);
        let pool = json!({"name": "Three way", "seed": "100", "shares": {"loser": 60, "winner": 40, "others": 0}});
        let made = expect(&app, "POST", "/api/v1/pools", &pool, 201);
        assert_eq!(made["shares"], json!({"loser": 60, "winner": 40, "others": 0}));
        let (status, answer) = request(
            &app,
            "POST",
            "/api/v1/pools",
            r#"{"name":"bad","seed":"1","shares":{"loser":50,"winner":25,"others":20}}"#,
        );
        assert_eq!(status, 422);
        assert!(answer["error"].as_str().unwrap().contains("95%"), "{answer}");
        let table = json!({"name": "T1", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                           "jackpot_part": "0.10", "pool_id": 1});
        expect(&app, "POST", "/api/v1/tables", &table, 201);
        for seat in 1..=4 {
            expect(&app, "POST", "/api/v1/tables/1/seats", &json!({"seat": seat, "player": "P", "buy_in": "100"}), 201);
        }
        play(&app, 1, BAD_BEAT);
        let hit = expect(&app, "GET", "/api/v1/jackpots/1", &Value::Null, 200);
        let amounts: Vec<Decimal> = hit["payouts"].as_array().unwrap().iter().map(|p| dec(&p["amount"])).collect();
        // 100.40: winner 40% = 40.16, the others nothing, the loser the rest.
        assert_eq!(amounts, [d("60.24"), d("40.16"), d("0.00"), d("0.00")]);
        // A void of the hand while the hit is pending returns the locked amount.
        expect(&app, "POST", "/api/v1/tables/1/hands/1/void", &json!({"reason": "misdeal", "note": "boxed card"}), 200);
        let hit = expect(&app, "GET", "/api/v1/jackpots/1", &Value::Null, 200);
        assert_eq!(hit["status"], "voided");
        assert_eq!(request(&app.signed_in("boss"), "POST", "/api/v1/jackpots/1/approve", "{}").0, 409);
        assert_eq!(dec(&expect(&app, "GET", "/api/v1/pools/1", &Value::Null, 200)["balance"]), d("100.00"));
    }
}

// ---------------------------------------------------------------------------
// Voids, the exception report, the audit trail
// ---------------------------------------------------------------------------

#[test]
fn voids_ruleset_changes_and_rejections_are_in_the_exception_report_with_who_and_when() {
    let app = spawn_app("sqlite");
    table_with_pool(&app);
    let floor = as_user(&app, "flo", &["floor"], &[]);
    let dealer = as_user(&app, "dee", &["dealer"], &[1]);
    play(&dealer, 1, BAD_BEAT);
    // A dealer cannot void; a void needs a known reason code and a note.
    assert_eq!(request(&dealer, "POST", "/api/v1/tables/1/hands/1/void", r#"{"reason":"misdeal","note":"x"}"#).0, 403);
    let (status, answer) = request(&floor, "POST", "/api/v1/tables/1/hands/1/void", r#"{"reason":"oops","note":"x"}"#);
    assert_eq!(status, 422);
    assert!(answer["error"].as_str().unwrap().contains("wrong_cards"), "the codes are listed: {answer}");
    let voided = expect(
        &floor,
        "POST",
        "/api/v1/tables/1/hands/1/void",
        &json!({"reason": "wrong_cards", "note": "seat 3's back was keyed as seat 4's"}),
        200,
    );
    assert_eq!((voided["void_reason"].as_str(), voided["status"].as_str()), (Some("wrong_cards"), Some("voided")));
    expect(&floor, "PUT", "/api/v1/tables/1/ruleset", &json!({"preset": "typical", "unit": "2"}), 200);
    let report = expect(&floor, "GET", "/api/v1/exceptions", &Value::Null, 200);
    // Newest first; times are kept to the second, so two changes made in
    // the same second may come in either order.
    let times: Vec<&str> = report.as_array().unwrap().iter().map(|r| r["at"].as_str().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first: {times:?}");
    let mut rows: Vec<(String, String, String, String)> = report
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap().to_string();
            (s("kind"), s("subject"), s("reason"), s("by"))
        })
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            (
                "ruleset_change".into(),
                "ruleset v2".into(),
                "typical, unit 2.00, rake 0.00, jackpot part 0.00".into(),
                "flo".into()
            ),
            ("void".into(), "hand 1".into(), "wrong_cards".into(), "flo".into()),
        ]
    );
    // As CSV, parsed back.
    let csv_answer =
        raw(&app, "GET", "/exceptions.csv", &[("Authorization".to_string(), format!("Bearer {}", app.token))], "");
    assert_eq!(csv_answer.status, 200);
    assert!(csv_answer.header("content-type").unwrap().starts_with("text/csv"));
    let body = csv_answer.body.strip_prefix('\u{feff}').expect("the BOM first");
    let mut reader = csv::Reader::from_reader(body.as_bytes());
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        ["When (UTC)", "Gaming day", "Kind", "Table", "What", "Reason", "Note", "By"]
    );
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), 2);
    let void = records.iter().find(|r| &r[2] == "void").expect("the void's line");
    assert_eq!(&void[6], "seat 3's back was keyed as seat 4's");
    assert_eq!(&void[7], "flo");
    // A range of gaming days, as the other reports: today's by default
    // (the last 7), none on days long past, one table's or a 422.
    let day = report[0]["gaming_day"].as_str().unwrap().to_string();
    assert!(report.as_array().unwrap().iter().all(|r| r["gaming_day"] == day.as_str() && r["table_id"] == 1));
    assert_eq!(&void[1], day.as_str());
    let same = expect(&floor, "GET", &format!("/api/v1/exceptions?from={day}&to={day}&table=1"), &Value::Null, 200);
    assert_eq!(same.as_array().unwrap().len(), 2);
    let past = expect(&floor, "GET", "/api/v1/exceptions?from=2020-01-01&to=2020-01-07", &Value::Null, 200);
    assert_eq!(past, json!([]));
    let (status, answer) = request(&floor, "GET", "/api/v1/exceptions?table=99", "");
    assert_eq!((status, answer["field"].as_str()), (422, Some("table")), "{answer}");
    let (status, answer) = request(&floor, "GET", "/exceptions.csv?after=3", "");
    assert_eq!((status, answer["field"].as_str()), (422, Some("after")), "{answer}");
    let page = raw(
        &app,
        "GET",
        "/exceptions?from=2020-01-01&to=2020-01-07",
        &[("Authorization".to_string(), format!("Bearer {}", app.token))],
        "",
    );
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Nothing to report on these gaming days") && page.body.contains("value=\"2020-01-01\""));
    let page = raw(
        &app,
        "GET",
        "/exceptions?to=someday",
        &[("Authorization".to_string(), format!("Bearer {}", app.token))],
        "",
    );
    assert_eq!(page.status, 422);
    assert!(page.body.contains("is not a date"), "{}", page.body);
    // The exception report's own page and form again, not the reports'.
    assert!(page.body.contains("<h1>Exception report") && page.body.contains("value=\"someday\""), "{}", page.body);
    assert!(!page.body.contains("/exceptions.csv?"), "no download of a refused range");
}

#[test]
fn the_audit_trail_records_every_change_and_nothing_can_edit_it() {
    for backend in backends() {
        let app = spawn_app(backend);
        table_with_pool(&app);
        let dealer = as_user(&app, "dee", &["dealer"], &[1]);
        play(&dealer, 1, BAD_BEAT);
        expect(&app, "POST", "/api/v1/tables/1/seats/4/add-on", &json!({"amount": "10"}), 200);
        expect(&app.signed_in("boss"), "POST", "/api/v1/jackpots/1/reject", &json!({"reason": "test"}), 200);
        expect(&app, "POST", "/api/v1/tables/1/seats/4/cash-out", &Value::Null, 200);
        let trail = audit_actions(&app);
        let by_api: Vec<(&str, &str, &str)> = trail
            .iter()
            .rev()
            .filter(|e| !e.1.starts_with("command line"))
            .map(|(a, u, t)| (a.as_str(), u.as_str(), t.as_str()))
            .collect();
        assert_eq!(
            by_api,
            [
                ("pool_create", "boss", "pool 1"),
                ("table_create", "boss", "table 1"),
                ("ruleset_change", "boss", "table 1"),
                ("seat_player", "boss", "table 1 seat 1"),
                ("seat_player", "boss", "table 1 seat 2"),
                ("seat_player", "boss", "table 1 seat 3"),
                ("seat_player", "boss", "table 1 seat 4"),
                ("hand_start", "dee", "table 1 hand 1"),
                ("hand_commit", "dee", "table 1 hand 1"),
                ("add_on", "boss", "table 1 seat 4"),
                ("login_attempt", "boss", "user boss"),
                ("login", "boss", "user boss"),
                ("jackpot_reject", "boss", "jackpot hit 1"),
                ("cash_out", "boss", "table 1 seat 4"),
            ]
        );
        // The users and tokens the tests made directly, as `pitboss admin` would.
        let by_hand: Vec<&str> =
            trail.iter().rev().filter(|e| e.1.starts_with("command line")).map(|e| e.0.as_str()).collect();
        assert_eq!(by_hand, ["user_create", "token_create", "user_create", "token_create"]);
        let events = expect(&app, "GET", "/api/v1/audit?action=hand_commit", &Value::Null, 200);
        assert_eq!(events.as_array().unwrap().len(), 1);
        // The showdown itself is the hand's (GET …/hands/1); the event says
        // who committed it, when, and how many jackpot hits it made.
        assert!(events[0]["detail"]["jackpot_hits"].is_u64(), "{}", events[0]);
        // The API has no way to change it.
        for method in ["POST", "PUT", "PATCH", "DELETE"] {
            assert_eq!(request(&app, method, "/api/v1/audit", "{}").0, 405, "{method} /api/v1/audit");
        }
        // Nor has the database.
        use diesel::connection::SimpleConnection;
        use diesel::Connection;
        let mut conn = pitboss::db::DbConnection::establish(&app.database_url).unwrap();
        assert!(conn.batch_execute("UPDATE audit_events SET username = 'x'").is_err());
        assert!(conn.batch_execute("DELETE FROM audit_events").is_err());
        assert_eq!(audit_actions(&app).len(), trail.len());
    }
}

#[test]
fn while_a_hit_waits_stacks_move_only_between_hands_and_its_players_stay() {
    for backend in backends() {
        let app = spawn_app(backend);
        table_with_pool(&app);
        let floor = app.person("flo", &["floor"], &[]);
        let boss = app.signed_in("boss");
        play(&app, 1, BAD_BEAT);
        expect(&floor, "POST", "/api/v1/jackpots/1/approve", &json!({}), 200);
        // A player owed a share cannot cash out before the hit is decided.
        let (status, answer) = request(&app, "POST", "/api/v1/tables/1/seats/3/cash-out", "{}");
        assert_eq!(status, 409);
        assert!(answer["error"].as_str().unwrap().contains("hit 1 owes seat 3 a share"), "{answer}");
        // Play goes on; while hand 2 is open the hit is not paid and hand 1 not voided.
        expect(&app, "POST", "/api/v1/tables/1/hands", &json!({}), 201);
        let (status, answer) = request(&boss, "POST", "/api/v1/jackpots/1/verify", "{}");
        assert_eq!(status, 409);
        assert!(answer["error"].as_str().unwrap().contains("hand 2 is in progress"), "{answer}");
        let (status, answer) =
            request(&app, "POST", "/api/v1/tables/1/hands/1/void", r#"{"reason":"dispute","note":"x"}"#);
        assert_eq!(status, 409);
        assert!(answer["error"].as_str().unwrap().contains("hand 2 is in progress"), "{answer}");
        // Between hands it is paid, and the players may leave.
        expect(&app, "POST", "/api/v1/tables/1/hands/2/void", &json!({"reason": "misdeal", "note": "boxed card"}), 200);
        let before = stacks(&app);
        expect(&boss, "POST", "/api/v1/jackpots/1/verify", &json!({}), 200);
        let after = stacks(&app);
        assert_eq!(after[2] - before[2], d("62.55"));
        expect(&app, "POST", "/api/v1/tables/1/seats/3/cash-out", &Value::Null, 200);
    }
}

/// A table's ledger comes a page at a time: `after` a row's id, at most
/// `limit` rows, oldest first; a full page links the next one, and the
/// pages together are the whole ledger, without another table's rows. Bad
/// page parameters are refused, naming them.
#[test]
fn a_tables_ledger_comes_a_page_at_a_time() {
    for backend in backends() {
        let app = spawn_app(backend);
        table_with_pool(&app);
        // A second table writes rows between table 1's.
        let other = json!({"name": "T2", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                           "jackpot_part": "0.10", "pool_id": 1});
        expect(&app, "POST", "/api/v1/tables", &other, 201);
        expect(&app, "POST", "/api/v1/tables/2/seats", &json!({"seat": 1, "player": "Eve", "buy_in": "50"}), 201);
        play(&app, 1, BAD_BEAT);
        expect(&app, "POST", "/api/v1/tables/2/seats", &json!({"seat": 2, "player": "Fay", "buy_in": "50"}), 201);
        play(&app, 2, BAD_BEAT);
        let auth = [("Authorization".to_string(), format!("Bearer {}", app.token))];
        let whole = raw(&app, "GET", "/api/v1/tables/1/ledger", &auth, "");
        assert_eq!(whole.status, 200, "[{backend}] {}", whole.body);
        assert_eq!(whole.header("link"), None, "[{backend}] one page holds them all");
        let whole: Vec<Value> = serde_json::from_str(&whole.body).unwrap();
        // 4 buy-ins; each hand: 4 results, 4 rakes, the house's and the
        // jackpot's parts of it: at least 20 rows, all of table 1.
        assert!(whole.len() >= 20, "[{backend}] {}", whole.len());
        assert!(whole.iter().all(|r| r["table_id"] == 1), "[{backend}] {whole:?}");
        let ids: Vec<i64> = whole.iter().map(|r| r["id"].as_i64().unwrap()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "[{backend}] oldest first: {ids:?}");
        // Following the links, 7 rows a page.
        let mut paged: Vec<i64> = Vec::new();
        let mut next = Some("/api/v1/tables/1/ledger?limit=7".to_string());
        while let Some(path) = next {
            let page = raw(&app, "GET", &path, &auth, "");
            assert_eq!(page.status, 200, "[{backend}] {path}: {}", page.body);
            let rows: Vec<Value> = serde_json::from_str(&page.body).unwrap();
            assert!(rows.len() <= 7);
            paged.extend(rows.iter().map(|r| r["id"].as_i64().unwrap()));
            next = page.header("link").map(|l| {
                assert!(l.ends_with(">; rel=\"next\""), "[{backend}] {l}");
                // The ledger here is shorter than a page's walk through it:
                // only a full page links on.
                assert_eq!(rows.len(), 7, "[{backend}] only a full page links on");
                l.trim_start_matches('<').split('>').next().unwrap().to_string()
            });
        }
        assert_eq!(paged, ids, "[{backend}] the pages are the ledger");
        // A page looks through a bounded part of the whole ledger: with 5
        // rows of it a page, some pages are short or empty and still link
        // on, and following them still gives every row once.
        let db = app.db.as_ref().unwrap();
        let mut conn = db.conn().unwrap();
        let (mut walked, mut after, mut short_and_linked) = (Vec::new(), None, 0);
        loop {
            let page = pitboss::service::tables::LedgerPage { after, limit: 5, scan: 5 };
            let (rows, next) =
                pitboss::service::tables::table_ledger(&mut conn, pitboss::domain::TableId(1), page).unwrap();
            assert!(rows.len() <= 5);
            if next.is_some() && rows.len() < 5 {
                short_and_linked += 1;
            }
            walked.extend(rows.iter().map(|r| r.id.get()));
            match next {
                Some(n) => after = Some(n),
                None => break,
            }
        }
        assert_eq!(walked, ids, "[{backend}] a walk of short scans is the ledger");
        assert!(short_and_linked > 0, "[{backend}] table 2's rows make some pages short");
        // A table's first page starts at its own first row (Eve's buy-in,
        // after table 1's), not at the start of the ledger.
        let page = pitboss::service::tables::LedgerPage { after: None, limit: 5, scan: 1 };
        let (rows, next) =
            pitboss::service::tables::table_ledger(&mut conn, pitboss::domain::TableId(2), page).unwrap();
        assert_eq!(rows.len(), 1, "[{backend}] {rows:?}");
        assert_eq!((rows[0].kind, rows[0].amount.to_string()), (pitboss::domain::EntryKind::BuyIn, "50.00".into()));
        assert!(rows[0].id.get() > ids[3] && next.is_some(), "[{backend}] {rows:?} {next:?}");
        // A table with no seating yet has no rows and no next page.
        expect(
            &app,
            "POST",
            "/api/v1/tables",
            &json!({"name": "T3", "preset": "hawaiian-gardens", "unit": "1",
                                                        "rake_per_seat": "0.50", "jackpot_part": "0"}),
            201,
        );
        let page = pitboss::service::tables::LedgerPage { after: None, limit: 5, scan: 5 };
        let (rows, next) =
            pitboss::service::tables::table_ledger(&mut conn, pitboss::domain::TableId(3), page).unwrap();
        assert!(rows.is_empty() && next.is_none(), "[{backend}] {rows:?} {next:?}");
        drop(conn);
        // After the third row, two rows.
        let page = expect(&app, "GET", &format!("/api/v1/tables/1/ledger?after={}&limit=2", ids[2]), &Value::Null, 200);
        let got: Vec<i64> = page.as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect();
        assert_eq!(got, ids[3..5], "[{backend}]");
        for (query, field, code) in [
            ("after=-1", "after", "bad_page"),
            ("after=x", "after", "bad_page"),
            ("limit=0", "limit", "bad_page"),
            ("limit=1001", "limit", "bad_page"),
            ("from=2026-11-01", "from", "unknown_parameter"),
        ] {
            let e = expect(&app, "GET", &format!("/api/v1/tables/1/ledger?{query}"), &Value::Null, 422);
            assert_eq!(
                (e["code"].as_str(), e["field"].as_str()),
                (Some(code), Some(field)),
                "[{backend}] {query}: {e}"
            );
        }
    }
}
