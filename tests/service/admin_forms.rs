//! What the back office can change after set-up, through the API and
//! through its forms (issue 16, "pages for everything the API can do"): a
//! table's settings, its stakes, rake and options as a new ruleset version,
//! a pool's name, re-seed amount and shares, the house seeding a pool, and
//! unlocking a user locked out by failed sign-ins. Each on SQLite and, when
//! configured, PostgreSQL; each refusal changes nothing.

use crate::support::{backends, expect, refused, spawn_app, Browser, TestApp, PASSWORD};
use serde_json::{json, Value};

/// Audit rows of `action`, newest first.
fn audit(app: &TestApp, action: &str) -> Vec<Value> {
    let rows = expect(app, "GET", &format!("/api/v1/audit?action={action}&limit=50"), &Value::Null, 200);
    rows.as_array().unwrap().clone()
}

/// The bad beat of `back_office.rs`: seat 1 loses all three rows to seat 2.
const BAD_BEAT: &str = r#"{"seats":[
 {"seat":1,"front":"3c 3d 4c","middle":"2h 2d 2c 4h 5d","back":"5s 6s 7s 8s 9s"},
 {"seat":2,"front":"As Ad 8c","middle":"Ks Kd Kc 6h 7h","back":"Th Jh Qh Kh Ah"},
 {"seat":3,"front":"Qs Qd 2s","middle":"Ts Td Tc 3s 4s","back":"4d 6d 7d 8d 9d"},
 {"seat":4,"front":"8h 9h Qc","middle":"Js Jd Jc 3h 5h","back":"5c 6c 7c 9c Ac"}]}"#;

/// Pool 1 "Main" (seed 500), table 1 (hawaiian-gardens, unit 1, rake 0.50 of
/// which 0.10 to the pool) with four players of 100 each.
fn room(app: &TestApp) {
    expect(app, "POST", "/api/v1/pools", &json!({"name": "Main", "seed": "500"}), 201);
    let table = json!({"name": "T1", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                       "jackpot_part": "0.10", "pool_id": 1});
    expect(app, "POST", "/api/v1/tables", &table, 201);
    for seat in 1..=4 {
        let body = json!({"seat": seat, "player": format!("P{seat}"), "buy_in": "100"});
        expect(app, "POST", "/api/v1/tables/1/seats", &body, 201);
    }
}

#[test]
fn a_tables_settings_change_between_hands_and_its_clock_and_pool_only_before_its_first_hand() {
    for backend in backends() {
        let app = spawn_app(backend);
        room(&app);
        expect(&app, "POST", "/api/v1/pools", &json!({"name": "Second", "seed": "0"}), 201);
        expect(&app, "POST", "/api/v1/tables", &json!({"name": "T2", "preset": "simple", "unit": "1"}), 201);
        // Before any hand: name, seats and pool; the clock only before
        // anyone has sat down (a session counts on the day it was seated).
        let t = expect(&app, "PATCH", "/api/v1/tables/1", &json!({"name": "Main 1", "pool_id": 2}), 200);
        assert_eq!((t["name"].as_str(), t["pool"]["id"].as_i64()), (Some("Main 1"), Some(2)));
        let zone = t["time_zone"].as_str().unwrap().to_string();
        for body in [json!({"time_zone": "America/Los_Angeles"}), json!({"gaming_day_cutoff": "05:00"})] {
            refused(&app, "PATCH", "/api/v1/tables/1", &body, 409, "table_has_sessions");
        }
        let t = expect(
            &app,
            "PATCH",
            "/api/v1/tables/2",
            &json!({"time_zone": "America/Los_Angeles", "gaming_day_cutoff": "05:00"}),
            200,
        );
        assert_eq!(
            (t["time_zone"].as_str(), t["gaming_day_cutoff"].as_str()),
            (Some("America/Los_Angeles"), Some("05:00"))
        );
        // The audit trail says what changed from what.
        let edits = audit(&app, "table_edit");
        let edit = edits.iter().find(|e| e["target"] == "table 1").expect("table 1's edit");
        let detail = &edit["detail"];
        assert_eq!(detail["name"], json!({"from": "T1", "to": "Main 1"}));
        assert_eq!(detail["pool"], json!({"from": 1, "to": 2}));
        // A name another table has, a bad zone, a bad cutoff, no pool with a jackpot part: refused.
        refused(&app, "PATCH", "/api/v1/tables/1", &json!({"name": "T2"}), 409, "already_exists");
        let e = refused(&app, "PATCH", "/api/v1/tables/1", &json!({"time_zone": "Mars/Olympus"}), 422, "bad_time_zone");
        assert_eq!(e["field"], "time_zone");
        refused(&app, "PATCH", "/api/v1/tables/1", &json!({"gaming_day_cutoff": "25:00"}), 422, "bad_cutoff");
        let e = refused(&app, "PATCH", "/api/v1/tables/1", &json!({"pool_id": null}), 422, "jackpot_without_pool");
        assert!(e["error"].as_str().unwrap().contains("jackpot part"), "{e}");
        refused(&app, "PATCH", "/api/v1/tables/1", &json!({"pool_id": 9}), 422, "bad_pool");
        // Seats: not fewer than the seated players need, not more than the preset seats.
        let e = refused(&app, "PATCH", "/api/v1/tables/1", &json!({"seat_count": 3}), 409, "seat_taken");
        assert!(e["error"].as_str().unwrap().contains("P4 sits in seat 4"), "{e}");
        refused(&app, "PATCH", "/api/v1/tables/1", &json!({"seat_count": 9}), 422, "bad_seat_count");
        // After the first hand its clock and pool are fixed; the name is not.
        expect(&app, "POST", "/api/v1/tables/1/hands", &json!({}), 201);
        refused(&app, "PATCH", "/api/v1/tables/1", &json!({"seat_count": 3}), 409, "hand_in_progress");
        expect(&app, "POST", "/api/v1/tables/1/hands/1/commit", &serde_json::from_str(BAD_BEAT).unwrap(), 201);
        for body in [json!({"time_zone": "Asia/Macau"}), json!({"gaming_day_cutoff": "07:00"}), json!({"pool_id": 1})] {
            refused(&app, "PATCH", "/api/v1/tables/1", &body, 409, "table_has_hands");
        }
        // The same values again are no change, so not refused; a cutoff
        // written without its leading zero is the same time of day.
        expect(&app, "PATCH", "/api/v1/tables/1", &json!({"time_zone": zone, "pool_id": 2}), 200);
        let t = expect(&app, "PATCH", "/api/v1/tables/1", &json!({"gaming_day_cutoff": " 6:00"}), 200);
        assert_eq!(t["gaming_day_cutoff"], "06:00");
        let t = expect(&app, "PATCH", "/api/v1/tables/1", &json!({"name": "Main One"}), 200);
        assert_eq!(t["name"], "Main One");
        // Unknown fields are refused, nothing changed.
        refused(&app, "PATCH", "/api/v1/tables/1", &json!({"name": "X", "colour": "green"}), 422, "bad_body");
        assert_eq!(expect(&app, "GET", "/api/v1/tables/1", &Value::Null, 200)["name"], "Main One");
    }
}

#[test]
fn a_pools_shares_and_seed_change_and_the_house_seeds_it_with_who_in_the_trail() {
    for backend in backends() {
        let app = spawn_app(backend);
        room(&app);
        let pools = expect(&app, "GET", "/api/v1/pools", &Value::Null, 200);
        assert_eq!(pools.as_array().unwrap().len(), 1);
        assert_eq!(pools[0]["balance"], "500.00");
        // Shares and the re-seed amount.
        let p = expect(
            &app,
            "PATCH",
            "/api/v1/pools/1",
            &json!({"seed": "250", "shares": {"loser": 60, "winner": 30, "others": 10}}),
            200,
        );
        assert_eq!((p["seed"].as_str(), p["shares"]["loser"].as_i64()), (Some("250.00"), Some(60)));
        let e = refused(
            &app,
            "PATCH",
            "/api/v1/pools/1",
            &json!({"shares": {"loser": 60, "winner": 30, "others": 20}}),
            422,
            "bad_shares",
        );
        assert_eq!(e["field"], "shares");
        refused(&app, "PATCH", "/api/v1/pools/1", &json!({"seed": "-1"}), 422, "bad_money");
        // The house seeds 100.25 now: the balance is 600.25, a pool_seed row
        // with the note, the seed counted on the pool's day, who in the trail.
        let floor = TestApp::at(&app.base).with_token(&app.user("fiona", &["floor"], &[]));
        let p = expect(&floor, "POST", "/api/v1/pools/1/seed", &json!({"amount": "100.25", "note": "top-up"}), 200);
        assert_eq!(p["balance"], "600.25");
        let seed = &audit(&app, "pool_seed")[0];
        assert_eq!(seed["username"], "fiona");
        assert_eq!(seed["detail"]["note"], "top-up");
        for (body, code) in [
            (json!({"amount": "0", "note": "x"}), "bad_money"),
            (json!({"amount": "10", "note": "  "}), "note_required"),
            (json!({"amount": "ten", "note": "x"}), "bad_money"),
            (json!({"amount": "1000000000000", "note": "x"}), "pool_money_limit"),
        ] {
            refused(&floor, "POST", "/api/v1/pools/1/seed", &body, 422, code);
        }
        let dealer = TestApp::at(&app.base).with_token(&app.user("dee", &["dealer"], &[1]));
        refused(&dealer, "POST", "/api/v1/pools/1/seed", &json!({"amount": "1", "note": "x"}), 403, "role_required");
        assert_eq!(expect(&app, "GET", "/api/v1/pools/1", &Value::Null, 200)["balance"], "600.25");
        // A hit waits for its sign-offs on the shares it shows: they cannot change
        // now (the name and seed can). The pool held 600.25 + 4 × 0.10 = 600.65.
        expect(&app, "POST", "/api/v1/tables/1/hands", &json!({}), 201);
        let hand =
            expect(&app, "POST", "/api/v1/tables/1/hands/1/commit", &serde_json::from_str(BAD_BEAT).unwrap(), 201);
        let hit = &hand["hand"]["jackpot_hits"][0];
        assert_eq!(hit["amount"], "600.65");
        let e = refused(
            &app,
            "PATCH",
            "/api/v1/pools/1",
            &json!({"shares": {"loser": 50, "winner": 25, "others": 25}}),
            409,
            "jackpot_hit_waiting",
        );
        assert!(e["error"].as_str().unwrap().contains(&format!("hit {}", hit["id"])), "{e}");
        expect(&app, "PATCH", "/api/v1/pools/1", &json!({"name": "Main pool"}), 200);
        // The pool restarted from the seed it had when the hit locked it (250).
        assert_eq!(expect(&app, "GET", "/api/v1/pools/1", &Value::Null, 200)["balance"], "250.00");
        // The pool's reports count both seeds of the day: 500 at its making, 100.25
        // by hand and 250 after the hit.
        let today = chrono::Utc::now().date_naive();
        let (from, to) = (today - chrono::Duration::days(1), today + chrono::Duration::days(1));
        let report = expect(&app, "GET", &format!("/reports/jackpots.json?from={from}&to={to}"), &Value::Null, 200);
        let seeds: rust_decimal::Decimal = report["totals"]["seeds"].as_str().unwrap().parse().unwrap();
        assert_eq!(seeds, "850.25".parse().unwrap(), "{report}");
    }
}

#[test]
fn an_admin_unlocks_a_user_locked_out_by_failed_sign_ins() {
    for backend in backends() {
        let app = spawn_app(backend);
        app.user("lou", &["dealer"], &[]);
        let mut b = Browser::new(&app);
        b.get("/login");
        for _ in 0..5 {
            assert_eq!(b.post("/login", &[("username", "lou"), ("password", "wrong password!")]).status, 401);
        }
        // Locked out now, even with the right password.
        assert_eq!(b.post("/login", &[("username", "lou"), ("password", PASSWORD)]).status, 429);
        let users = expect(&app, "GET", "/api/v1/users", &Value::Null, 200);
        let lou = users.as_array().unwrap().iter().find(|u| u["username"] == "lou").unwrap().clone();
        assert!(lou["locked_out_until"].is_string(), "{lou}");
        let boss = users.as_array().unwrap().iter().find(|u| u["username"] == "boss").unwrap();
        assert!(boss["locked_out_until"].is_null());
        let id = lou["id"].as_i64().unwrap();
        // Only an admin unlocks.
        let floor = TestApp::at(&app.base).with_token(&app.user("fiona", &["floor"], &[]));
        refused(&floor, "POST", &format!("/api/v1/users/{id}/unlock"), &Value::Null, 403, "role_required");
        let unlocked = expect(&app, "POST", &format!("/api/v1/users/{id}/unlock"), &Value::Null, 200);
        assert!(unlocked["locked_out_until"].is_null());
        refused(&app, "POST", &format!("/api/v1/users/{id}/unlock"), &Value::Null, 409, "not_locked_out");
        assert_eq!(audit(&app, "user_unlock")[0]["target"], "user lou");
        // Lou signs in at once.
        assert_eq!(b.post("/login", &[("username", "lou"), ("password", PASSWORD)]).status, 303);
        refused(&app, "POST", "/api/v1/users/999/unlock", &Value::Null, 404, "no_user");
    }
}

#[test]
fn the_forms_keep_what_was_typed_when_refused_speak_in_words_and_say_when_they_worked() {
    for backend in backends() {
        let app = spawn_app(backend);
        room(&app);
        let mut b = Browser::signed_in(&app, "boss");
        // A table's settings: a refusal keeps the typed name, marks the field and says why in words.
        assert_eq!(b.get("/admin/tables/1").status, 200);
        let answer = b.post("/admin/tables/1", &[("name", "Main 1"), ("seat_count", "two")]);
        assert_eq!(answer.status, 422, "{}", answer.body);
        assert!(answer.body.contains(r#"value="Main 1""#), "the typed name is kept");
        assert!(answer.body.contains("The number of seats must be a whole number"), "{}", answer.body);
        assert!(answer.body.contains(r#"aria-invalid="true" aria-describedby="seat_count-problem""#));
        let answer = b.post("/admin/tables/1", &[("name", "Main 1"), ("seat_count", "3")]);
        assert_eq!(answer.status, 409);
        assert!(answer.body.contains("P4 sits in seat 4"), "{}", answer.body);
        assert_eq!(expect(&app, "GET", "/api/v1/tables/1", &Value::Null, 200)["name"], "T1", "nothing changed");
        // Players sit here: the clock is fixed (the page shows it so, and a
        // form that sends it anyway is refused in words).
        assert!(b.get("/admin/tables/1").body.contains("Fixed: players have sat here"));
        let answer =
            b.post("/admin/tables/1", &[("name", "Main 1"), ("seat_count", "4"), ("time_zone", "Europe/Paris")]);
        assert_eq!(answer.status, 409);
        assert!(answer.body.contains("players have sat at T1: its time zone cannot change"), "{}", answer.body);
        let answer = b.post("/admin/tables/1", &[("name", "Main 1"), ("seat_count", "4")]);
        assert_eq!((answer.status, answer.location()), (303, "/admin/tables/1"));
        let next = b.get("/admin/tables/1");
        assert!(next.body.contains("Main 1 saved."), "the next page says it worked");
        assert!(!b.get("/admin/tables/1").body.contains("saved."), "said once");
        assert_eq!(expect(&app, "GET", "/api/v1/tables/1", &Value::Null, 200)["name"], "Main 1");

        // The stakes, rake and options: a new version from the form, options and pairs included.
        let page = b.get("/tables/1/ruleset");
        assert_eq!(page.status, 200);
        assert!(page.body.contains("Units for a hand with no picture card"), "the preset's own options");
        let answer = b.post(
            "/tables/1/ruleset",
            &[
                ("preset", "hawaiian-gardens"),
                ("unit", "2"),
                ("rake_per_seat", "0.50"),
                ("jackpot_part", "0.75"),
                ("option_no_pictures", "3"),
                ("pair_0_a", "1"),
                ("pair_0_b", "3"),
                ("pair_0_unit", "5"),
                ("pair_1_a", ""),
                ("pair_1_b", ""),
                ("pair_1_unit", ""),
            ],
        );
        assert_eq!(answer.status, 422);
        assert!(
            answer.body.contains("the jackpot part (0.75) is larger than the rake per seat (0.50)"),
            "{}",
            answer.body
        );
        assert!(
            answer.body.contains(r#"name="unit" required inputmode="decimal" value="2""#),
            "the typed unit is kept"
        );
        assert!(answer.body.contains(r#"name="pair_0_unit" inputmode="decimal" value="5""#), "the typed pair is kept");
        let answer = b.post(
            "/tables/1/ruleset",
            &[
                ("preset", "hawaiian-gardens"),
                ("unit", "2"),
                ("rake_per_seat", "0.50"),
                ("jackpot_part", "0.10"),
                ("option_no_pictures", "3"),
                ("pair_0_a", "1"),
                ("pair_0_b", "3"),
                ("pair_0_unit", "5"),
                ("pair_1_a", ""),
                ("pair_1_b", ""),
                ("pair_1_unit", ""),
            ],
        );
        assert_eq!((answer.status, answer.location()), (303, "/tables/1/ruleset"), "{}", answer.body);
        assert!(b.get("/tables/1/ruleset").body.contains("Main 1 now plays version 2: hawaiian-gardens, unit 2.00"));
        let t = expect(&app, "GET", "/api/v1/tables/1", &Value::Null, 200);
        assert_eq!((t["ruleset"]["version"].as_i64(), t["ruleset"]["unit"].as_str()), (Some(2), Some("2.00")));
        assert_eq!(t["ruleset"]["options"]["no_pictures"], 3);
        assert_eq!(t["ruleset"]["pair_units"], json!([{"seats": [1, 3], "unit": "5.00"}]));
        // Another preset's options show when it is chosen.
        assert!(b.get("/tables/1/ruleset?preset=singapore").body.contains("The dragon wins 26"));

        // A pool: settings, then a seed by the floor, both in the history with who.
        let answer = b.post(
            "/admin/pools/1",
            &[("name", "Main"), ("seed", "300"), ("loser", "50"), ("winner", "50"), ("others", "10")],
        );
        assert_eq!(answer.status, 422);
        assert!(answer.body.contains("the shares: "), "{}", answer.body);
        assert!(answer.body.contains(r#"name="winner" inputmode="numeric" required value="50""#), "kept as typed");
        let answer = b.post(
            "/admin/pools/1",
            &[("name", "Main"), ("seed", "300"), ("loser", "50"), ("winner", "40"), ("others", "10")],
        );
        assert_eq!(answer.status, 303, "{}", answer.body);
        let answer = b.post("/admin/pools/1/seed", &[("amount", "25"), ("note", "")]);
        assert_eq!(answer.status, 422);
        assert!(answer.body.contains(r#"name="amount" required inputmode="decimal" value="25""#));
        assert!(answer.body.contains("say why the pool is seeded"));
        let answer = b.post("/admin/pools/1/seed", &[("amount", "25"), ("note", "opening night")]);
        assert_eq!(answer.status, 303);
        let page = b.get("/admin/pools/1");
        assert!(page.body.contains("Main seeded: its balance is now 525.00."), "{}", page.body);
        assert!(page.body.contains("seeded 25.00: opening night"), "{}", page.body);
        assert!(page.body.contains("seed from 500.00 to 300.00"), "{}", page.body);

        // A new table refused keeps every field typed.
        let answer = b
            .post("/admin/tables", &[("name", "T9"), ("preset", "simple"), ("unit", "0"), ("time_zone", "Asia/Macau")]);
        assert_eq!(answer.status, 422);
        assert!(answer.body.contains("the unit must be more than zero"), "{}", answer.body);
        assert!(answer.body.contains(r#"value="T9""#) && answer.body.contains(r#"value="Asia/Macau""#));
        let answer = b.post("/admin/tables", &[("name", "T9"), ("preset", "simple"), ("unit", "1")]);
        assert_eq!(answer.status, 303);
        assert!(b.get("/admin/tables").body.contains("Table T9 made."));
    }
}
