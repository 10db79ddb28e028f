//! The live pit board and tables opened and closed by the floor (issue 16),
//! through HTTP on a real database (SQLite, and PostgreSQL when configured).

use diesel::RunQueryDsl;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::support::{backends, expect, raw, request, spawn_app, Browser, TestApp};

fn refused(app: &TestApp, method: &str, path: &str, body: &Value, status: u16, code: &str) -> String {
    let answer = expect(app, method, path, body, status);
    assert_eq!(answer["code"], code, "{method} {path}: {answer}");
    answer["error"].as_str().unwrap().to_string()
}

fn dec(v: &Value) -> Decimal {
    v.as_str().unwrap_or_else(|| panic!("not a money string: {v}")).parse().unwrap()
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

/// Pool 1; table 1 "T1" (hawaiian-gardens, unit 1, rake 0.50, 0.10 to the
/// pool) with four players; table 2 "T2" (simple, unit 5), empty.
fn room(app: &TestApp) {
    expect(app, "POST", "/api/v1/pools", &json!({"name": "Bad beat", "seed": "500"}), 201);
    let t1 = json!({"name": "T1", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                    "jackpot_part": "0.10", "pool_id": 1});
    expect(app, "POST", "/api/v1/tables", &t1, 201);
    expect(app, "POST", "/api/v1/tables", &json!({"name": "T2", "preset": "simple", "unit": "5"}), 201);
    for (seat, player) in [(1, "Ann"), (2, "Ben"), (3, "Cat"), (4, "Dan")] {
        expect(app, "POST", "/api/v1/tables/1/seats", &json!({"seat": seat, "player": player, "buy_in": "100"}), 201);
    }
}

fn board_table(app: &TestApp, id: i64) -> Value {
    let board = expect(app, "GET", "/api/v1/board", &Value::Null, 200);
    board["tables"].as_array().unwrap().iter().find(|t| t["id"] == id).cloned().expect("the table on the board")
}

/// (action, username, target) of the audit trail's table openings and closings.
fn status_audit(app: &TestApp) -> Vec<(String, String, String)> {
    let events = expect(app, "GET", "/api/v1/audit?limit=1000", &Value::Null, 200);
    let mut out: Vec<(String, String, String)> = events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| matches!(e["action"].as_str(), Some("table_open" | "table_close")))
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap().to_string();
            (s("action"), s("username"), s("target"))
        })
        .collect();
    out.reverse(); // oldest first
    out
}

#[test]
fn the_board_shows_every_table_and_the_floor_opens_and_closes_them() {
    for backend in backends() {
        board_and_status(backend);
    }
}

fn board_and_status(backend: &str) {
    let app = spawn_app(backend);
    room(&app);
    let dee = as_user(&app, "dee", &["dealer"], &[1]);
    let flo = as_user(&app, "flo", &["floor"], &[]);
    let acc = as_user(&app, "acc", &["accountant"], &[]);

    // Both tables as made: open, their stakes, T1's dealer and players.
    let board = expect(&app, "GET", "/api/v1/board", &Value::Null, 200);
    assert_eq!(board["tables"].as_array().unwrap().len(), 2, "{board}");
    let t1 = board_table(&app, 1);
    assert_eq!(t1["name"], "T1");
    assert_eq!(t1["status"], "open");
    assert_eq!(t1["status_changed_at"], Value::Null);
    assert_eq!(t1["preset"], "hawaiian-gardens");
    assert_eq!((dec(&t1["unit"]), dec(&t1["rake_per_seat"])), (Decimal::ONE, "0.5".parse().unwrap()));
    assert_eq!(t1["dealers"], json!(["dee"]));
    assert_eq!(t1["dealers_signed_in"], json!([]), "a token is no sign-in");
    assert_eq!((t1["seats_filled"].as_i64(), t1["seat_count"].as_i64()), (Some(4), Some(4)));
    assert_eq!((&t1["last_hand"], &t1["open_hand"], &t1["last_commit_at"]), (&json!(0), &Value::Null, &Value::Null));
    assert_eq!((&t1["pending_hits"], &t1["voids_today"]), (&json!([]), &json!([])));
    assert_eq!(t1["cannot_close"], "4 players seated: cash out first");
    let t2 = board_table(&app, 2);
    assert_eq!(
        (t2["status"].as_str(), t2["seats_filled"].as_i64(), &t2["dealers"]),
        (Some("open"), Some(0), &json!([]))
    );
    assert_eq!(t2["cannot_close"], Value::Null, "an empty table can close");
    assert_eq!(dec(&t2["unit"]), Decimal::from(5));

    // A hand in progress: on the board, and the table cannot close.
    expect(&app, "POST", "/api/v1/tables/1/hands", &json!({}), 201);
    let t1 = board_table(&app, 1);
    assert_eq!(t1["open_hand"]["number"], 1, "{t1}");
    assert_eq!(t1["cannot_close"], "hand 1 in progress");
    assert!(t1["open_hand"]["seconds"].as_i64().unwrap() >= 0);
    let why = refused(&flo, "POST", "/api/v1/tables/1/close", &json!({}), 409, "table_has_open_hand");
    assert!(why.contains("T1") && why.contains("hand 1"), "{why}");
    assert_eq!(board_table(&app, 1)["status"], "open", "nothing changed");

    // Committed: the last commit, the bad beat's hit waiting for sign-off.
    let (status, answer) = request(&app, "POST", "/api/v1/tables/1/hands/1/commit", BAD_BEAT);
    assert_eq!(status, 201, "{answer}");
    let t1 = board_table(&app, 1);
    assert_eq!((&t1["last_hand"], &t1["open_hand"]), (&json!(1), &Value::Null), "{t1}");
    assert!(t1["last_commit_at"].is_string() && t1["seconds_since_commit"].as_i64().unwrap() >= 0, "{t1}");
    assert_eq!(t1["pending_hits"], json!([1]));
    // Players seated: the table cannot close; the message names them.
    let why = refused(&flo, "POST", "/api/v1/tables/1/close", &json!({}), 409, "table_has_players");
    assert!(why.contains("T1") && why.contains("4 player") && why.contains("seat 1 (Ann)"), "{why}");
    assert_eq!(board_table(&app, 1)["status"], "open");

    // T2: two players, a hand voided as a misdeal, cashed out, closed.
    for (seat, player) in [(1, "Eve"), (2, "Fay")] {
        expect(&app, "POST", "/api/v1/tables/2/seats", &json!({"seat": seat, "player": player, "buy_in": "50"}), 201);
    }
    expect(&app, "POST", "/api/v1/tables/2/hands", &json!({}), 201);
    refused(&flo, "POST", "/api/v1/tables/2/close", &json!({}), 409, "table_has_open_hand");
    expect(&flo, "POST", "/api/v1/tables/2/hands/1/void", &json!({"reason": "misdeal", "note": "cards exposed"}), 200);
    let t2 = board_table(&app, 2);
    assert_eq!(t2["voids_today"].as_array().unwrap().len(), 1, "{t2}");
    assert_eq!((&t2["voids_today"][0]["hand_number"], &t2["voids_today"][0]["reason"]), (&json!(1), &json!("misdeal")));
    assert_eq!((&t2["open_hand"], &t2["seats_filled"]), (&Value::Null, &json!(2)));
    assert_eq!(board_table(&app, 1)["voids_today"], json!([]), "the void is T2's");
    refused(&flo, "POST", "/api/v1/tables/2/close", &json!({}), 409, "table_has_players");
    expect(&app, "POST", "/api/v1/tables/2/seats/1/cash-out", &Value::Null, 200);
    let why = refused(&flo, "POST", "/api/v1/tables/2/close", &json!({}), 409, "table_has_players");
    assert!(why.contains("1 player") && why.contains("seat 2 (Fay)"), "{why}");
    expect(&app, "POST", "/api/v1/tables/2/seats/2/cash-out", &Value::Null, 200);
    assert!(status_audit(&app).is_empty(), "no refusal wrote anything");

    // Roles: a dealer and an accountant cannot close; nobody signed in neither.
    refused(&dee, "POST", "/api/v1/tables/2/close", &json!({}), 403, "role_required");
    refused(&acc, "POST", "/api/v1/tables/2/close", &json!({}), 403, "role_required");
    refused(&dee, "GET", "/api/v1/board", &Value::Null, 403, "role_required");
    expect(&acc, "GET", "/api/v1/board", &Value::Null, 200);
    assert_eq!(raw(&app, "GET", "/api/v1/board", &[], "").status, 401);
    let long = "x".repeat(501);
    refused(&flo, "POST", "/api/v1/tables/2/close", &json!({"note": long}), 422, "note_too_long");
    refused(&flo, "POST", "/api/v1/tables/99/close", &json!({}), 404, "no_table");

    let closed = expect(&flo, "POST", "/api/v1/tables/2/close", &json!({"note": "end of session"}), 200);
    assert_eq!(
        (&closed["status"], &closed["changed_by"], &closed["note"]),
        (&json!("closed"), &json!("flo"), &json!("end of session"))
    );
    let t2 = board_table(&app, 2);
    assert_eq!(
        (&t2["status"], &t2["status_changed_by"], &t2["seats_filled"]),
        (&json!("closed"), &json!("flo"), &json!(0))
    );
    assert!(t2["status_changed_at"].is_string());
    assert_eq!(board_table(&app, 1)["status"], "open", "only T2 closed");
    refused(&flo, "POST", "/api/v1/tables/2/close", &json!({}), 409, "table_already_closed");

    // A closed table starts no hand and seats nobody; it reads as before.
    let why = refused(&app, "POST", "/api/v1/tables/2/hands", &json!({}), 409, "table_closed");
    assert!(why.contains("T2") && why.contains("closed"), "{why}");
    let seat = json!({"seat": 1, "player": "Gus", "buy_in": "50"});
    refused(&app, "POST", "/api/v1/tables/2/seats", &seat, 409, "table_closed");
    let table = expect(&app, "GET", "/api/v1/tables/2", &Value::Null, 200);
    assert_eq!((&table["seats"], &table["hand_number"]), (&json!([]), &json!(1)));
    expect(&app, "GET", "/api/v1/tables/2/ledger", &Value::Null, 200);
    expect(&app, "GET", "/api/v1/tables/2/hands/1", &Value::Null, 200);

    // Opened again (by an admin): seats and hands as before.
    let admin = as_user(&app, "ada", &["admin"], &[]);
    let opened = expect(&admin, "POST", "/api/v1/tables/2/open", &Value::Null, 200);
    assert_eq!((&opened["status"], &opened["changed_by"]), (&json!("open"), &json!("ada")));
    refused(&flo, "POST", "/api/v1/tables/2/open", &json!({}), 409, "table_already_open");
    assert_eq!(board_table(&app, 2)["status"], "open");
    expect(&app, "POST", "/api/v1/tables/2/seats", &seat, 201);

    // The audit trail: who closed and who opened, in order.
    let target = "table 2".to_string();
    assert_eq!(
        status_audit(&app),
        vec![
            ("table_close".to_string(), "flo".to_string(), target.clone()),
            ("table_open".to_string(), "ada".to_string(), target),
        ]
    );
    // The board's statements do not grow with the number of tables.
    let cost = || {
        let before = pitboss::db::statements(&app.database_url);
        expect(&app, "GET", "/api/v1/board", &Value::Null, 200);
        pitboss::db::statements(&app.database_url) - before
    };
    let two = cost();
    for name in ["T3", "T4", "T5"] {
        expect(&app, "POST", "/api/v1/tables", &json!({"name": name, "preset": "simple", "unit": "1"}), 201);
    }
    assert_eq!(cost(), two, "the board reads every table in the same statements");
    assert!(two <= 16, "[{backend}] the board ran {two} statements");
    // The history is append-only: the database refuses to change it.
    let mut conn = app.db.as_ref().unwrap().conn().unwrap();
    for sql in ["UPDATE table_status_changes SET note = 'edited'", "DELETE FROM table_status_changes"] {
        let err = diesel::sql_query(sql).execute(&mut **conn).expect_err(sql);
        assert!(err.to_string().contains("append-only"), "{sql}: {err}");
    }
}

#[test]
fn the_board_page_shows_the_tables_and_closes_one_by_its_form() {
    for backend in backends() {
        board_page(backend);
    }
}

#[test]
fn the_board_shows_which_dealers_are_signed_in() {
    for backend in backends() {
        let app = spawn_app(backend);
        room(&app);
        app.user("dee", &["dealer"], &[1]);
        app.user("dan", &["dealer"], &[1, 2]);
        app.user("flo", &["floor"], &[]);
        let signed_in = |table: i64| board_table(&app, table)["dealers_signed_in"].clone();
        assert_eq!(board_table(&app, 1)["dealers"], json!(["dan", "dee"]), "[{backend}]");
        assert_eq!((signed_in(1), signed_in(2)), (json!([]), json!([])), "[{backend}] nobody signed in");
        // dee signs in: signed in at table 1 (dee deals there only).
        let mut dee = Browser::signed_in(&app, "dee");
        assert_eq!((signed_in(1), signed_in(2)), (json!(["dee"]), json!([])), "[{backend}]");
        // A wrong password is no sign-in.
        let mut wrong = Browser::new(&app);
        wrong.get("/login");
        let answer = wrong.post("/login", &[("username", "dan"), ("password", "wrong"), ("next", "/")]);
        assert_ne!(answer.status, 303, "[{backend}] {}", answer.body);
        assert_eq!((signed_in(1), signed_in(2)), (json!(["dee"]), json!([])), "[{backend}]");
        let mut dan = Browser::signed_in(&app, "dan");
        assert_eq!((signed_in(1), signed_in(2)), (json!(["dan", "dee"]), json!(["dan"])), "[{backend}]");
        // The page marks them.
        let mut flo = Browser::signed_in(&app, "flo");
        let page = flo.get("/floor/board").body;
        assert!(
            page.contains(r#"dan <span class="badge signed-in">signed in</span>, dee <span class="badge signed-in">signed in</span>"#),
            "[{backend}] {page}"
        );
        // dee signs out.
        dee.get("/");
        assert_eq!(dee.post("/logout", &[]).status, 303, "[{backend}]");
        assert_eq!((signed_in(1), signed_in(2)), (json!(["dan"]), json!(["dan"])), "[{backend}]");
        let page = flo.get("/floor/board").body;
        assert!(page.contains(r#", dee</dd>"#), "[{backend}] {page}");
        // dan changes their password: every session of theirs ends.
        assert_eq!(dan.get("/account/password").status, 200);
        let new = "another horse battery";
        let answer = dan.post(
            "/account/password",
            &[("current_password", crate::support::PASSWORD), ("new_password", new), ("new_password_again", new)],
        );
        assert!(answer.status < 400, "[{backend}] {} {}", answer.status, answer.body);
        assert_eq!((signed_in(1), signed_in(2)), (json!([]), json!([])), "[{backend}] {}", answer.body);
        // A sign-in older than a session's length has ended; a younger one
        // stands (rows written straight to the audit trail, hours back).
        let db = app.db.as_ref().unwrap();
        app.user("eve", &["dealer"], &[2]);
        app.user("fay", &["dealer"], &[2]);
        for (who, hours) in [("eve", 13), ("fay", 11)] {
            let at = (chrono::Utc::now().naive_utc() - chrono::Duration::hours(hours)).format("%Y-%m-%d %H:%M:%S");
            diesel::sql_query(format!(
                "INSERT INTO audit_events (created_at, username, action, target, detail, ip) \
                 VALUES ('{at}', '{who}', 'login', 'user {who}', '{{}}', '')"
            ))
            .execute(&mut **db.conn().unwrap())
            .unwrap();
        }
        assert_eq!((signed_in(1), signed_in(2)), (json!([]), json!(["fay"])), "[{backend}]");
        // Two dealers with one display name: each is told apart, in
        // `dealer_status` and on the page.
        for who in ["sam1", "sam2"] {
            let req = pitboss::service::users::NewUserRequest {
                username: who.to_string(),
                display_name: Some("sam".to_string()),
                roles: vec!["dealer".to_string()],
                password: crate::support::PASSWORD.to_string(),
                tables: vec![pitboss::domain::TableId(1)],
            };
            pitboss::service::users::create_user(db, &pitboss::domain::Actor::command_line(), req, false).unwrap();
        }
        let _sam2 = Browser::signed_in(&app, "sam2");
        let status = board_table(&app, 1)["dealer_status"].clone();
        assert_eq!(
            status,
            json!([{"name": "dan", "signed_in": false}, {"name": "dee", "signed_in": false},
                   {"name": "sam", "signed_in": false}, {"name": "sam", "signed_in": true}]),
            "[{backend}]"
        );
        let page = flo.get("/floor/board").body;
        assert!(
            page.contains(r#"dan, dee, sam, sam <span class="badge signed-in">signed in</span></dd>"#),
            "[{backend}] {page}"
        );
    }
}

fn board_page(backend: &str) {
    let app = spawn_app(backend);
    room(&app);
    app.user("flo", &["floor"], &[]);
    app.user("acc", &["accountant"], &[]);
    app.user("dee", &["dealer"], &[1]);
    let mut flo = Browser::signed_in(&app, "flo");
    assert!(flo.get("/floor").body.contains("href=\"/floor/board\""), "the floor page links the board");
    let page = flo.get("/floor/board");
    assert_eq!(page.status, 200);
    // Live through its script; without JavaScript it reads itself again.
    assert!(page.body.contains(r#"<noscript><meta http-equiv="refresh" content="15"></noscript>"#));
    assert!(page.body.contains(r#"<script src="/static/board.js" defer></script>"#));
    assert!(flo.get("/static/board.js").body.contains("/api/v1/board/events"));
    assert!(page.body.contains("T1") && page.body.contains("T2") && page.body.contains("hawaiian-gardens"));
    assert!(page.body.contains("4 / 4") && page.body.contains("dee"), "seats filled and the dealer");
    // T1 has players: no close button but why; T2 is empty: its form.
    assert!(!page.body.contains("/floor/tables/1/close") && page.body.contains("/floor/tables/2/close"));
    assert!(page.body.contains("Cannot close now: 4 players seated: cash out first."), "{}", page.body);

    // T1 posted anyway (a page from before the players sat down): the
    // refusal on the page, nothing changes.
    let refused = flo.post("/floor/tables/1/close", &[("note", "")]);
    assert_eq!(refused.status, 409);
    assert!(refused.body.contains("T1 has 4 player(s) seated: seat 1 (Ann)"), "{}", refused.body);
    // Without the page's token, or from another site: refused.
    assert_eq!(flo.post("/floor/tables/2/close", &[("csrf_token", "nope")]).status, 403);
    let forged = raw(
        &app,
        "POST",
        "/floor/tables/2/close",
        &[
            ("Cookie".to_string(), flo.cookie.clone()),
            ("Origin".to_string(), "http://evil.example".to_string()),
            ("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()),
        ],
        &format!("csrf_token={}", flo.csrf),
    );
    assert_eq!(forged.status, 403);
    assert_eq!(board_table(&app, 2)["status"], "open");

    // T2 is empty: closed by the form, then opened again.
    let closed = flo.post("/floor/tables/2/close", &[("note", "no dealer tonight")]);
    assert_eq!((closed.status, closed.location()), (303, "/floor/board"));
    let page = flo.get("/floor/board");
    assert!(page.body.contains("/floor/tables/2/open") && page.body.contains("by flo"), "{}", page.body);
    assert_eq!(board_table(&app, 2)["status"], "closed");
    // The table's own page says it is closed, and offers no seat or hand.
    let table_page = flo.get("/tables/2");
    assert!(table_page.body.contains("This table is closed"), "{}", table_page.body);
    assert!(!table_page.body.contains("/tables/2/start-hand") && !table_page.body.contains("/seats/1/seat"));
    assert!(!flo.get("/tables/1").body.contains("This table is closed"));
    assert_eq!(flo.post("/floor/tables/2/open", &[]).status, 303);
    let table_page = flo.get("/tables/2");
    assert!(!table_page.body.contains("This table is closed") && table_page.body.contains("/tables/2/start-hand"));
    assert_eq!(board_table(&app, 2)["status"], "open");

    // An accountant reads the board without the forms; a dealer does not read it.
    let mut acc = Browser::signed_in(&app, "acc");
    let page = acc.get("/floor/board");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("T1") && !page.body.contains("/floor/tables/1/close"));
    assert_eq!(acc.post("/floor/tables/2/close", &[]).status, 403);
    let mut dee = Browser::signed_in(&app, "dee");
    assert_eq!(dee.get("/floor/board").status, 403);
    assert_eq!(dee.post("/floor/tables/2/close", &[]).status, 403);
}

/// Issue 17: the seats taken now are kept by the database itself (made with
/// a seating, freed by its cash-out row), one player a seat, on both backends.
#[test]
fn the_database_keeps_the_seats_taken_now() {
    use diesel::QueryDsl;
    use pitboss::db::schema::open_seatings;
    for backend in backends() {
        let app = spawn_app(backend);
        room(&app);
        let mut conn = app.db.as_ref().unwrap().conn().unwrap();
        let taken = |conn: &mut pitboss::db::DbConnection| -> Vec<(i64, i32)> {
            open_seatings::table
                .order((open_seatings::table_id, open_seatings::seat))
                .select((open_seatings::table_id, open_seatings::seat))
                .load(conn)
                .unwrap()
        };
        assert_eq!(taken(&mut conn), [(1, 1), (1, 2), (1, 3), (1, 4)], "[{backend}]");
        // A second seating on a taken seat, past the service: refused by the
        // database, nothing written.
        let sql =
            "INSERT INTO seatings (table_id, seat, player, seated_at) VALUES (1, 2, 'Eve', '2026-11-26 12:00:00')";
        let err = diesel::sql_query(sql).execute(&mut **conn).expect_err("two players in seat 2");
        assert!(err.to_string().contains("open_seatings"), "[{backend}] refused by the seats' key: {err}");
        assert_eq!(taken(&mut conn).len(), 4, "[{backend}]");
        // A cash-out frees the seat; the next player takes it.
        expect(&app, "POST", "/api/v1/tables/1/seats/2/cash-out", &Value::Null, 200);
        assert_eq!(taken(&mut conn), [(1, 1), (1, 3), (1, 4)], "[{backend}]");
        expect(&app, "POST", "/api/v1/tables/1/seats", &json!({"seat": 2, "player": "Eve", "buy_in": "50"}), 201);
        assert_eq!(taken(&mut conn), [(1, 1), (1, 2), (1, 3), (1, 4)], "[{backend}]");
        let seated = board_table(&app, 1);
        assert_eq!(seated["seats_filled"], 4, "[{backend}] the board counts the seats taken: {seated}");
    }
}

/// The tables' list (the pit board's and the tables page's source) is read
/// for all tables at once; each table in it is exactly what the table's own
/// view says: its ruleset version, pool balance, seats and stacks, last and
/// open hand, for tables with a committed hand, an open hand, none, a
/// changed ruleset, a pool shared or none.
#[test]
fn the_tables_list_is_each_tables_own_view() {
    for backend in backends() {
        let app = spawn_app(backend);
        room(&app);
        let t3 = json!({"name": "T3", "preset": "hawaiian-gardens", "unit": "2", "rake_per_seat": "0.50",
                        "jackpot_part": "0.10", "pool_id": 1});
        expect(&app, "POST", "/api/v1/tables", &t3, 201);
        expect(&app, "POST", "/api/v1/pools", &json!({"name": "Second", "seed": "50"}), 201);
        expect(
            &app,
            "POST",
            "/api/v1/tables",
            &json!({"name": "T4", "preset": "simple", "unit": "1", "pool_id": 2}),
            201,
        );
        // T1: a committed hand (a jackpot hit waiting for sign-off).
        expect(&app, "POST", "/api/v1/tables/1/hands", &Value::Null, 201);
        let showdown: Value = serde_json::from_str(BAD_BEAT).unwrap();
        expect(&app, "POST", "/api/v1/tables/1/hands/1/commit", &showdown, 201);
        // T3: a cash-out and a new player in that seat, then a hand left
        // open; a new ruleset on T2.
        for (seat, player) in [(1, "Fay"), (2, "Gus"), (3, "Hal")] {
            expect(
                &app,
                "POST",
                "/api/v1/tables/3/seats",
                &json!({"seat": seat, "player": player, "buy_in": "60"}),
                201,
            );
        }
        expect(&app, "POST", "/api/v1/tables/3/seats/3/cash-out", &Value::Null, 200);
        expect(&app, "POST", "/api/v1/tables/3/seats", &json!({"seat": 3, "player": "Eve", "buy_in": "40"}), 201);
        expect(&app, "POST", "/api/v1/tables/3/hands", &Value::Null, 201);
        expect(&app, "PUT", "/api/v1/tables/2/ruleset", &json!({"preset": "typical", "unit": "2"}), 200);
        let list = expect(&app, "GET", "/api/v1/tables", &Value::Null, 200);
        let list = list.as_array().unwrap();
        assert_eq!(list.len(), 4, "[{backend}]");
        for (i, listed) in list.iter().enumerate() {
            let own = expect(&app, "GET", &format!("/api/v1/tables/{}", i + 1), &Value::Null, 200);
            assert_eq!(listed, &own, "[{backend}] table {} in the list and on its own", i + 1);
        }
        assert_eq!((list[0]["hand_number"].as_i64(), list[0]["open_hand"].as_i64()), (Some(1), None));
        assert_eq!(list[0]["seats"].as_array().unwrap().len(), 4);
        assert_eq!((list[2]["hand_number"].as_i64(), list[2]["open_hand"].as_i64()), (Some(1), Some(1)));
        assert_eq!(list[2]["seats"][2]["player"], "Eve");
        assert_eq!(list[1]["ruleset"]["version"], 2, "[{backend}] {}", list[1]);
        assert_eq!(list[3]["pool"]["id"], 2);
    }
}
