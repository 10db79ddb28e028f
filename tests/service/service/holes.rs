//! The holes found from outside (issue 12), each closed and tested through
//! HTTP on every backend: each of these failed on the main branch before.

use super::*;
use crate::support::{raw, Browser, PASSWORD};

/// A 4-seat hawaiian-gardens table feeding a pool seeded with 0, rake 1.00
/// of which 0.25 is the jackpot part, every seat bought in for 100.
fn jackpot_table<'a>(app: &'a App, audit: &mut Audit<'a>) -> Table<'a> {
    let pool = create_pool(app, "Bad beat", "0");
    audit.pool(pool);
    let t = Table::create(app, "Main", Some(pool), "hawaiian-gardens", "1", "1", "0.25");
    audit.table(&t);
    for (seat, name) in [(1, "Ann"), (2, "Bo"), (3, "Cy"), (4, "Di")] {
        t.seat(seat, name, "100");
    }
    t
}

/// A person signed in through the sign-in page, calling the JSON API with
/// their session cookie: (status, body).
fn as_person(b: &Browser, method: &str, path: &str, body: &Value) -> (u16, Value) {
    request_with(b.app, method, path, &body.to_string(), &[("Cookie", b.cookie.as_str())])
}

/// Approves (as `floor_a`) and verifies (as `floor_b`) a hit, each signed in.
fn sign_off(app: &App, hit: i64, approver: &str, verifier: &str) {
    let a = Browser::signed_in(app, approver);
    let (status, answer) = as_person(&a, "POST", &format!("/api/v1/jackpots/{hit}/approve"), &json!({}));
    assert_eq!(status, 200, "approve: {answer}");
    let v = Browser::signed_in(app, verifier);
    let (status, answer) = as_person(&v, "POST", &format!("/api/v1/jackpots/{hit}/verify"), &json!({}));
    assert_eq!(status, 200, "verify: {answer}");
    assert_eq!(answer["status"], json!("paid"));
}

// 1. A void of a hand whose contribution a later hit has locked.
#[test]
fn a_void_after_a_hit_never_takes_a_locked_contribution_from_the_pool() {
    each_backend(void_after_lock);
}

fn void_after_lock(backend: &str) {
    let app = spawn_app(backend);
    let mut audit = Audit::new(&app);
    let t = jackpot_table(&app, &mut audit);
    let seats = [1, 2, 3, 4];
    for n in 1..=3 {
        t.start(None);
        t.commit(n, &Showdown::deal(&DEAL_A, &seats, n as usize));
    }
    t.start(None);
    let beat = t.commit(4, &Showdown::deal(&DEAL_BAD_BEAT, &seats, 0));
    assert_eq!(arr(&beat["jackpot_triggers"]).len(), 1);
    let hit = &t.hand(4)["jackpot_hits"][0];
    // Four hands of 4 × 0.25 each: the hit locked 4.00, the pool restarted at 0.
    assert_eq!(dec(&hit["amount"]), d("4.00"));
    assert_eq!(t.pool_balance(), Some(d("0")));
    audit.check();

    // Voiding the three earlier hands gives the players their whole rake
    // back; the jackpot part, locked in the hit, is the house's to refund.
    for n in 1..=3 {
        let stacks = t.stacks();
        let before = t.ledger();
        expect(&app, "POST", &t.path(&format!("/hands/{n}/void")), &json!({"reason": "wrong_cards", "note": "x"}), 200);
        let new: Vec<Value> = t.ledger()[before.len()..].to_vec();
        let refunds: Vec<&Value> = new.iter().filter(|r| r["kind"] == json!("contribution_refund")).collect();
        assert_eq!(refunds.len(), 1, "hand {n}: one refund of its contribution: {new:?}");
        assert_eq!(dec(&refunds[0]["amount"]), d("-1.00"));
        assert!(refunds[0]["pool_id"].is_null() && refunds[0]["seating_id"].is_null());
        let contribution = before
            .iter()
            .find(|r| r["kind"] == json!("jackpot_contribution") && r["hand_id"] == refunds[0]["hand_id"])
            .expect("the hand's contribution");
        assert_eq!(refunds[0]["reverses_id"], contribution["id"]);
        assert!(new.iter().all(|r| r["pool_id"].is_null()), "the pool is not touched: {new:?}");
        assert_eq!(t.pool_balance(), Some(d("0")), "the pool never goes below its seed");
        let rake_back: Decimal = new.iter().filter(|r| r["seating_id"].is_i64()).map(|r| dec(&r["amount"])).sum();
        let stacks_after = t.stacks();
        let moved: Decimal = seats.iter().map(|s| stacks_after[s] - stacks[s]).sum();
        assert_eq!(moved, rake_back);
        assert_eq!(moved, d("4.00"), "the players get the whole rake back (settlements net to zero)");
    }
    // The hit is still worth what it locked; paid, it moves positive money.
    let hit_id = hit["id"].as_i64().unwrap();
    assert_eq!(dec(&get(&app, &format!("/api/v1/jackpots/{hit_id}"))["amount"]), d("4.00"));
    app.user("fa", &["floor"], &[]);
    app.user("fb", &["floor"], &[]);
    let stacks = t.stacks();
    sign_off(&app, hit_id, "fa", "fb");
    let paid: Decimal = t.stacks().iter().map(|(s, v)| *v - stacks[s]).sum();
    assert_eq!(paid, d("4.00"));
    for row in t.ledger().iter().filter(|r| r["kind"] == json!("jackpot_payout")) {
        assert!(dec(&row["amount"]) > Decimal::ZERO, "a payout is positive: {row}");
    }
    // The next bad beat locks only what came in since: its own 1.00.
    t.start(None);
    t.commit(5, &Showdown::deal(&DEAL_BAD_BEAT, &seats, 0));
    assert_eq!(dec(&t.hand(5)["jackpot_hits"][0]["amount"]), d("1.00"));
    assert!(t.stacks().values().all(|s| *s >= Decimal::ZERO));
    audit.check();
}

// 1b. The hand of a hit cannot be voided once a later hit locked its re-seed.
#[test]
fn a_hit_hand_is_voided_only_while_its_reseed_is_in_the_pool() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let pool = create_pool(&app, "Seeded", "10");
        audit.pool(pool);
        let t = Table::create(&app, "Main", Some(pool), "hawaiian-gardens", "1", "1", "0.25");
        audit.table(&t);
        for (seat, name) in [(1, "Ann"), (2, "Bo"), (3, "Cy"), (4, "Di")] {
            t.seat(seat, name, "100");
        }
        t.start(None);
        t.commit(1, &Showdown::deal(&DEAL_BAD_BEAT, &[1, 2, 3, 4], 0));
        t.start(None);
        t.commit(2, &Showdown::deal(&DEAL_BAD_BEAT, &[1, 2, 3, 4], 0));
        let (status, answer) =
            request(&app, "POST", &t.path("/hands/1/void"), &json!({"reason": "dispute", "note": "x"}).to_string());
        assert_eq!(status, 409, "{answer}");
        assert_error(&answer, &["jackpot hit", "hand 2", "refused"], "void of hand 1");
        audit.check();
        // The latest hit's hand may still be voided (its re-seed is in the pool).
        t.void(2, "wrong cards");
        // As before hand 2: its contribution, its lock and its re-seed undone.
        assert_eq!(t.pool_balance(), Some(d("10.00")), "the pool as before hand 2");
        audit.check();
    });
}

// 2. Per-pair stakes are the floor's, on the ruleset; a dealer's showdown cannot set them.
#[test]
fn only_the_floor_sets_per_pair_stakes_and_every_sheet_shows_them() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let t = Table::create(&app, "Main", None, "simple", "1", "0", "0");
        audit.table(&t);
        for (seat, name) in [(1, "Ann"), (2, "Bo"), (3, "Cy")] {
            t.seat(seat, name, "1000");
        }
        let dealer = app.user("dee", &["dealer"], &[t.id]);
        let as_dealer = TestApp::at(&app.base).with_token(&dealer);
        t.start(None);
        let mut body = Showdown::deal(&DEAL_A, &[1, 2, 3], 0).json();
        body["pair_units"] = json!([{"seats": [1, 2], "unit": "100000"}]);
        for action in ["preview", "commit"] {
            let (status, answer) =
                request(&as_dealer, "POST", &t.path(&format!("/hands/1/{action}")), &body.to_string());
            assert_eq!(status, 422, "{action}: {answer}");
            assert_error(&answer, &["pair_units", "floor"], action);
        }
        audit.check();
        expect(&app, "POST", &t.path("/hands/1/void"), &json!({"reason": "misdeal", "note": "x"}), 200);
        // A dealer may not change the ruleset; the floor may, within the table's seats.
        let ruleset = json!({"preset": "simple", "unit": "1", "pair_units": [{"seats": [3, 1], "unit": "10"}]});
        let (status, _) = request(&as_dealer, "PUT", &t.path("/ruleset"), &ruleset.to_string());
        assert_eq!(status, 403);
        for (bad, needle) in [
            (json!([{"seats": [1, 9], "unit": "10"}]), "seat 9"),
            (json!([{"seats": [2, 2], "unit": "10"}]), "itself"),
            (json!([{"seats": [1, 2], "unit": "0.001"}]), "two decimal places"),
            (json!([{"seats": [1, 2], "unit": "0"}]), "more than zero"),
            (json!([{"seats": [1, 2], "unit": "1e3"}]), "exponent"),
            (json!([{"seats": [1, 2], "unit": "5"}, {"seats": [2, 1], "unit": "6"}]), "twice"),
        ] {
            let body = json!({"preset": "simple", "unit": "1", "pair_units": bad});
            audit.refused("PUT", &t.path("/ruleset"), &body.to_string(), None, &[422], &["pair_units", needle]);
        }
        let view = expect(&app, "PUT", &t.path("/ruleset"), &ruleset, 200);
        assert_eq!(view["ruleset"]["pair_units"], json!([{"seats": [1, 3], "unit": "10.00"}]));
        let trail = get(&app, "/api/v1/audit?action=ruleset_change&limit=1");
        assert_eq!(trail[0]["detail"]["pair_units"], json!([{"seats": [1, 3], "unit": "10.00"}]));
        // The dealer's commit uses the floor's stakes: seats 1 and 3 play for 10.
        t.start(None);
        let sd = Showdown::deal(&DEAL_A, &[1, 2, 3], 0);
        let (status, answer) = request(&as_dealer, "POST", &t.path("/hands/2/commit"), &sd.json().to_string());
        assert_eq!(status, 201, "{answer}");
        let result = &answer["hand"]["result"];
        let pair13 = arr(&result["pairs"])
            .iter()
            .find(|p| p["seats"] == json!([1, 3]) || p["seats"] == json!([3, 1]))
            .unwrap_or_else(|| panic!("no pair 1–3: {result}"))
            .clone();
        let units = pair13["main_units"].as_i64().unwrap() + pair13["special_units"].as_i64().unwrap();
        let owed: Decimal = arr(&result["transactions"])
            .iter()
            .filter(|x| [x["payer"].as_i64(), x["payee"].as_i64()].iter().all(|s| [Some(1), Some(3)].contains(s)))
            .map(|x| dec(&x["owed"]))
            .sum();
        assert_eq!(owed, Decimal::from(units.abs()) * d("10"), "pair 1–3 owes its units at 10: {result}");
        let (_, sheet) = crate::support::page(&app, &t.path("/hands/2/sheet").replace("/api/v1", ""));
        assert!(sheet.contains("own stakes: seats 1–3 at 10.00"), "the sheet names the stakes");
        audit.check();
    });
}

// 3. A token cannot sign off a hit; a password one person set is not a second person's.
#[test]
fn sign_offs_need_two_people_each_with_a_password_of_their_own() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let t = jackpot_table(&app, &mut audit);
        t.start(None);
        t.commit(1, &Showdown::deal(&DEAL_BAD_BEAT, &[1, 2, 3, 4], 0));
        let hit = t.hand(1)["jackpot_hits"][0]["id"].as_i64().unwrap();
        // An admin (who is floor too) mints a token for floor user B.
        let boss = app.user("chief", &["floor", "admin"], &[]);
        let chief = TestApp::at(&app.base).with_token(&boss);
        let b_token = app.user("bea", &["floor"], &[]);
        let minted = expect(&chief, "GET", "/api/v1/users", &Value::Null, 200);
        let bea_id = arr(&minted).iter().find(|u| u["username"] == json!("bea")).unwrap()["id"].as_i64().unwrap();
        let token = expect(&chief, "POST", &format!("/api/v1/users/{bea_id}/tokens"), &json!({"label": "x"}), 201);
        for tok in [token["token"].as_str().unwrap(), b_token.as_str()] {
            let as_b = TestApp::at(&app.base).with_token(tok);
            let (status, answer) = request(&as_b, "POST", &format!("/api/v1/jackpots/{hit}/approve"), "{}");
            assert_eq!(status, 403, "{answer}");
            assert_error(&answer, &["signed in", "token"], "approve with a token");
        }
        assert_eq!(get(&app, &format!("/api/v1/jackpots/{hit}"))["status"], json!("pending"));
        // The admin resets B's password and signs in as B: B's approval, then
        // the admin's own verification, is one person twice.
        expect(&chief, "PATCH", &format!("/api/v1/users/{bea_id}"), &json!({"password": PASSWORD}), 200);
        let bea = Browser::signed_in(&app, "bea");
        let (status, answer) = as_person(&bea, "POST", &format!("/api/v1/jackpots/{hit}/approve"), &json!({}));
        assert_eq!(status, 200, "{answer}");
        let me = Browser::signed_in(&app, "chief");
        let (status, answer) = as_person(&me, "POST", &format!("/api/v1/jackpots/{hit}/verify"), &json!({}));
        assert_eq!(status, 403, "{answer}");
        assert_error(&answer, &["password", "second person"], "verify by the one who set the approver's password");
        // Once B has chosen a password of their own, the admin may verify.
        let mine = "a password of my own";
        let (status, answer) = as_person(
            &bea,
            "POST",
            "/api/v1/me/password",
            &json!({"current_password": PASSWORD, "new_password": mine}),
        );
        assert_eq!(status, 204, "{answer}");
        let (status, answer) = as_person(&me, "POST", &format!("/api/v1/jackpots/{hit}/verify"), &json!({}));
        assert_eq!(status, 200, "{answer}");
        // The token's use is in the trail: every change made with a token names it.
        let tokens: Vec<Value> = arr(&get(&app, "/api/v1/audit?limit=1000"))
            .iter()
            .filter(|e| e["detail"]["api_token"].is_i64())
            .cloned()
            .collect();
        assert!(!tokens.is_empty(), "changes made with a token name it");
        audit.check();
    });
}

// 4, 5, 11. Long, sub-cent and loose amounts are a 422 naming the field, never a 500.
#[test]
fn long_sub_cent_and_loose_amounts_are_refused_by_name() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let t = Table::create(&app, "Main", None, "simple", "1", "0", "0");
        audit.table(&t);
        t.seat(1, "Ann", "100");
        let long = "79228162514264337593543950335";
        let cases: Vec<(&str, String, Value, Vec<&str>)> = vec![
            ("POST", t.path("/seats/1/add-on"), json!({"amount": long}), vec!["amount", "larger than"]),
            ("POST", t.path("/seats"), json!({"seat": 2, "player": "Bo", "buy_in": long}), vec!["buy_in", "larger"]),
            ("POST", "/api/v1/pools".into(), json!({"name": "P", "seed": long}), vec!["seed", "larger than"]),
            ("PUT", t.path("/ruleset"), json!({"preset": "simple", "unit": long}), vec!["unit", "larger than"]),
            (
                "PUT",
                t.path("/ruleset"),
                json!({"preset": "simple", "unit": "1", "rake_per_seat": long}),
                vec!["rake_per_seat", "larger than"],
            ),
            ("PUT", t.path("/ruleset"), json!({"preset": "simple", "unit": "0.001"}), vec!["unit", "two decimal"]),
            ("POST", t.path("/seats/1/add-on"), json!({"amount": "1e3"}), vec!["amount", "exponent"]),
            ("POST", t.path("/seats/1/add-on"), json!({"amount": "5e-1"}), vec!["amount", "exponent"]),
            ("POST", t.path("/seats/1/add-on"), json!({"amount": "1_000"}), vec!["amount", "separator"]),
            ("POST", t.path("/seats/1/add-on"), json!({"amount": "+5"}), vec!["amount", "sign"]),
            ("POST", t.path("/seats/1/add-on"), json!({"amount": ".5"}), vec!["amount", "point"]),
            ("POST", t.path("/seats/1/add-on"), json!({"amount": "5."}), vec!["amount", "point"]),
            ("POST", t.path("/seats/1/add-on"), json!({"amount": " 50 "}), vec!["amount", "spaces"]),
        ];
        for (method, path, body, needles) in cases {
            audit.refused(method, &path, &body.to_string(), None, &[422], &needles);
        }
        // The engine's own scoring refuses the same text.
        let sd = json!({"ruleset": "simple", "unit": "1e3", "seats": [
            {"seat": 1, "stack": "10", "front": "2c 3d 4h", "middle": "5s 6c 7d 8h 9s", "back": "Tc Jc Qs Kd Ac"},
            {"seat": 2, "stack": "10", "front": "2d 3h 4s", "middle": "5c 6d 7h 8s 9c", "back": "Td Jd Qh Ks Ad"}]});
        let (status, answer) = request(&app, "POST", "/api/v1/score", &sd.to_string());
        assert_eq!(status, 422, "{answer}");
        assert_error(&answer, &["unit", "exponent"], "score");
        audit.check();
    });
}

// 6. A table's money stays within the limit, so no stack can pass it.
#[test]
fn the_money_on_a_table_stays_within_the_limit() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let t = Table::create(&app, "Main", None, "simple", "1", "0", "0");
        audit.table(&t);
        t.seat(1, "Ann", "600000000000");
        let body = json!({"seat": 2, "player": "Bo", "buy_in": "500000000000"});
        audit.refused("POST", &t.path("/seats"), &body.to_string(), None, &[422], &["buy-in", "limit"]);
        t.seat(2, "Bo", "400000000000");
        audit.refused("POST", &t.path("/seats/1/add-on"), r#"{"amount": "0.01"}"#, None, &[422], &["add-on", "limit"]);
        // A hand between them can move all of it; the table still deals.
        for n in 1..=3 {
            t.start(None);
            t.commit(n, &Showdown::deal(&DEAL_A, &[1, 2], n as usize));
        }
        let total: Decimal = t.stacks().values().sum();
        assert_eq!(total, d("1000000000000"));
        audit.check();
    });
}

// 7, 8. Live scans only for the table's people; tokens carry a subset of their user's rights.
#[test]
fn scans_and_tokens_stay_within_their_table_and_roles() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let t1 = Table::create(&app, "One", None, "simple", "1", "0", "0");
        let t2 = Table::create(&app, "Two", None, "simple", "1", "0", "0");
        audit.table(&t1);
        audit.table(&t2);
        for t in [&t1, &t2] {
            t.seat(1, "Ann", "100");
            t.seat(2, "Bo", "100");
        }
        let dealer1 = app.user("d1", &["dealer"], &[t1.id]);
        let dealer2 = app.user("d2", &["dealer"], &[t2.id]);
        let accountant = app.user("acc", &["accountant"], &[]);
        t1.start(None);
        let scan = json!({"seat": 1, "row": "front", "card": "As"});
        let as_d1 = TestApp::at(&app.base).with_token(&dealer1);
        expect(&as_d1, "POST", &t1.path("/hands/1/scans"), &scan, 201);
        for (who, token) in [("another table's dealer", &dealer2), ("the accountant", &accountant)] {
            let other = TestApp::at(&app.base).with_token(token);
            let (status, answer) = request(&other, "GET", &t1.path("/hands/1/scans"), "");
            assert_eq!(status, 403, "{who}: {answer}");
        }
        assert_eq!(arr(&expect(&as_d1, "GET", &t1.path("/hands/1/scans"), &Value::Null, 200)).len(), 1);

        // A card reader's token: scans at table 1 only, nothing else.
        let users = get(&app, "/api/v1/users");
        let d1_id = arr(&users).iter().find(|u| u["username"] == json!("d1")).unwrap()["id"].as_i64().unwrap();
        let body = json!({"label": "shoe 1", "roles": ["scanner"], "tables": [t1.id], "expires_at": "2999-01-01"});
        let shoe = expect(&app, "POST", &format!("/api/v1/users/{d1_id}/tokens"), &body, 201);
        assert_eq!(shoe["roles"], json!(["scanner"]));
        let as_shoe = TestApp::at(&app.base).with_token(shoe["token"].as_str().unwrap());
        expect(&as_shoe, "POST", &t1.path("/hands/1/scans"), &json!({"seat": 2, "row": "front", "card": "Ks"}), 201);
        expect(&as_shoe, "GET", &t1.path("/hands/1/scans"), &Value::Null, 200);
        for (method, path, body) in [
            ("POST", t1.path("/seats"), json!({"seat": 3, "player": "Cy", "buy_in": "5"})),
            ("POST", t1.path("/seats/1/cash-out"), json!({})),
            ("POST", t1.path("/hands/1/commit"), Showdown::deal(&DEAL_A, &[1, 2], 0).json()),
            ("POST", t2.path("/hands"), json!({})),
            ("GET", t2.path("/hands/1/scans"), Value::Null),
        ] {
            let text = if body.is_null() { String::new() } else { body.to_string() };
            let (status, answer) = request(&as_shoe, method, &path, &text);
            assert_eq!(status, 403, "the shoe's token {method} {path}: {answer}");
        }
        // A token cannot reach past its user: another table, a role they lack.
        for (bad, needle) in [
            (json!({"label": "x", "tables": [t2.id]}), "table"),
            (json!({"label": "x", "roles": ["floor"]}), "floor"),
            (json!({"label": "x", "expires_at": "2001-01-01"}), "future"),
            (json!({"label": "x", "expires_at": "soon"}), "expires_at"),
        ] {
            let (status, answer) = request(&app, "POST", &format!("/api/v1/users/{d1_id}/tokens"), &bad.to_string());
            assert_eq!(status, 422, "{bad}: {answer}");
            assert_error(&answer, &[needle], "token");
        }
        // No token for an inactive user (it would start working on reactivation).
        expect(&app, "PATCH", &format!("/api/v1/users/{d1_id}"), &json!({"active": false}), 200);
        let (status, answer) =
            request(&app, "POST", &format!("/api/v1/users/{d1_id}/tokens"), &json!({"label": "x"}).to_string());
        assert_eq!(status, 409, "{answer}");
        expect(&app, "PATCH", &format!("/api/v1/users/{d1_id}"), &json!({"active": true}), 200);
        let (status, _) = request(&as_shoe, "GET", &t1.path("/hands/1/scans"), "");
        assert_eq!(status, 401, "deactivation revoked the shoe's token for good");
        audit.check();
    });
}

// 9. The form origin check ignores X-Forwarded-Host unless TRUST_PROXY.
#[test]
fn a_forwarded_host_does_not_pass_the_origin_check() {
    let app = spawn_app("sqlite");
    let mut b = Browser::signed_in(&app, "boss");
    let body = crate::support::form_encode(&[("csrf_token", b.csrf.as_str())]);
    let headers = vec![
        ("Cookie".to_string(), b.cookie.clone()),
        ("Origin".to_string(), "http://evil.example".to_string()),
        ("X-Forwarded-Host".to_string(), "evil.example".to_string()),
        ("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()),
    ];
    let answer = raw(&app, "POST", "/logout", &headers, &body);
    assert_eq!(answer.status, 403, "{}", answer.body);
    assert_eq!(b.get("/").status, 200, "still signed in");
}

// 10. An Idempotency-Key reused with another showdown is refused, naming the difference.
#[test]
fn an_idempotency_key_reused_with_another_showdown_is_refused() {
    each_backend(|backend| {
        let app = spawn_app(backend);
        let mut audit = Audit::new(&app);
        let t = Table::create(&app, "Main", None, "simple", "1", "0", "0");
        audit.table(&t);
        t.seat(1, "Ann", "100");
        t.seat(2, "Bo", "100");
        t.start(None);
        let first = Showdown::deal(&DEAL_A, &[1, 2], 0).json();
        t.commit_body(1, &first, Some("key-1"));
        let (status, answer) = send(&app, "POST", &t.path("/hands/1/commit"), &first.to_string(), Some("key-1"));
        assert_eq!(status, 200, "the same showdown again: {answer}");
        let mut swapped = first.clone();
        let middle = swapped["seats"][1]["middle"].clone();
        swapped["seats"][1]["middle"] = swapped["seats"][1]["back"].clone();
        swapped["seats"][1]["back"] = middle;
        for key in [Some("key-1"), None, Some("key-2")] {
            audit.refused(
                "POST",
                &t.path("/hands/1/commit"),
                &swapped.to_string(),
                key,
                &[409],
                &["already committed", "seat 2 middle", "void"],
            );
        }
        audit.check();
    });
}

// 12. A bad SQLite path is named once, with the operating system's reason.
#[test]
fn a_bad_sqlite_path_is_named_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/pitboss.sqlite").to_string_lossy().to_string();
    let cases = [
        (missing.clone(), vec![missing.as_str(), "No such file or directory"]),
        (dir.path().to_string_lossy().to_string(), vec!["directory"]),
        ("file:pitboss.sqlite?mode=rwc".to_string(), vec!["file:", "not supported"]),
    ];
    for (path, needles) in cases {
        let message = match pitboss::db::connect(&path, 4) {
            Ok(_) => panic!("{path} opened"),
            Err(e) => e.to_string(),
        };
        for n in needles {
            assert!(message.contains(n), "{path}: {message:?} does not say {n:?}");
        }
        assert!(!message.contains("multiconnection"), "{message}");
    }
}

// The database's own guards: a change the code should never make is refused there.
/// Runs SQL written straight to the database: it must be refused as
/// `books_refused`, or, on SQLite, be an insert that `ON CONFLICT DO NOTHING`
/// skipped (SQLite moves a stack or a pool's share after its row is
/// written, so a row skipped moves nothing).
fn refused_or_skipped(db: &pitboss::db::Database, backend: &str, sql: &str) {
    use diesel::RunQueryDsl;
    match diesel::sql_query(sql).execute(&mut **db.conn().unwrap()) {
        Ok(0) if backend == "sqlite" && sql.contains("ON CONFLICT DO NOTHING") => {}
        outcome => {
            let e = pitboss::domain::AppError::from(outcome.expect_err(sql));
            assert!(e.code == "books_refused", "[{backend}] {sql}: {e:?}");
        }
    }
}

#[test]
fn the_database_itself_refuses_wrong_books() {
    each_backend(|backend| {
        use diesel::RunQueryDsl;
        let app = spawn_app(backend);
        let t = Table::create(&app, "Main", None, "simple", "1", "0", "0");
        t.seat(1, "Ann", "100");
        let seating = t.view()["seats"][0]["seating_id"].as_i64().unwrap();
        let db = app.db.as_ref().unwrap();
        let now = "'2026-11-23 12:00:00'";
        let attempts = [
            // A stack below zero.
            format!(
                "INSERT INTO ledger_entries (table_id, seating_id, kind, amount_cents, created_at, balance_after_cents) \
                 VALUES ({}, {seating}, 'settlement', -20000, {now}, -10000)",
                t.id
            ),
            // A running stack that is not the previous plus the amount.
            format!(
                "INSERT INTO ledger_entries (table_id, seating_id, kind, amount_cents, created_at, balance_after_cents) \
                 VALUES ({}, {seating}, 'add_on', 100, {now}, 999999)",
                t.id
            ),
            // A payout of less than nothing.
            format!(
                "INSERT INTO ledger_entries (table_id, seating_id, kind, amount_cents, created_at, balance_after_cents) \
                 VALUES ({}, {seating}, 'add_on', -100, {now}, 9900)",
                t.id
            ),
            // A changed row, a deleted row.
            "UPDATE ledger_entries SET amount_cents = 1".to_string(),
            "DELETE FROM ledger_entries".to_string(),
            "UPDATE ruleset_versions SET unit_cents = 100000".to_string(),
            // A stack changed, or dropped, but not by a ledger row.
            format!("UPDATE seating_stacks SET stack_cents = 999999 WHERE seating_id = {seating}"),
            "UPDATE seating_stacks SET stack_cents = stack_cents".to_string(),
            "DELETE FROM seating_stacks".to_string(),
            // A session's seat, player or time seated changed in its totals
            // (the sessions report reads them there).
            "UPDATE seating_totals SET player = 'Mallory'".to_string(),
            "UPDATE seating_totals SET seat = 4, seated_at = '2026-01-01 00:00:00'".to_string(),
            "UPDATE seating_totals SET player_id = NULL".to_string(),
            "UPDATE seating_totals SET member_no = 'M-1'".to_string(),
            // A pool below zero.
            "INSERT INTO pools (name, seed_cents, created_at) VALUES ('P', 0, '2026-11-23 12:00:00')".to_string(),
        ];
        for (i, sql) in attempts.iter().enumerate() {
            let outcome = diesel::sql_query(sql.as_str()).execute(&mut **db.conn().unwrap());
            if i == attempts.len() - 1 {
                outcome.expect("a pool with seed 0 is fine");
                continue;
            }
            let e = pitboss::domain::AppError::from(outcome.expect_err(sql));
            assert!(
                e.kind == pitboss::domain::Kind::Conflict
                    && e.code == "books_refused"
                    && e.to_string().contains("books refused"),
                "{sql}: {e:?}"
            );
        }
        // A new seating's totals that say another seat, player, time seated,
        // player id or member number than the seating (in a transaction not
        // kept), and the same made right (the time written another way).
        let made = |seat: i64, player: &str, at: &str, player_id: &str, member_no: &str| {
            let mut conn = db.conn().unwrap();
            let outcome = diesel::Connection::transaction::<(), diesel::result::Error, _>(&mut **conn, |c| {
                diesel::sql_query(format!(
                    "INSERT INTO seatings (id, table_id, seat, player, seated_at) VALUES (999, {}, 2, 'Bob', {now})",
                    t.id
                ))
                .execute(c)?;
                diesel::sql_query(format!(
                    "INSERT INTO seating_totals (seating_id, table_id, gaming_day, seat, player, seated_at, \
                     player_id, member_no) VALUES (999, {}, '2026-11-23', {seat}, '{player}', {at}, {player_id}, \
                     {member_no})",
                    t.id
                ))
                .execute(c)?;
                Err(diesel::result::Error::RollbackTransaction)
            });
            outcome.expect_err("never kept")
        };
        let ann = "(SELECT MIN(id) FROM players)";
        for (seat, player, at, player_id, member_no) in [
            (3, "Bob", now, "NULL", "NULL"),
            (2, "Mallory", now, "NULL", "NULL"),
            (2, "Bob", "'2026-11-23 12:00:01'", "NULL", "NULL"),
            (2, "Bob", now, ann, "NULL"),
            (2, "Bob", now, "NULL", "'M-1'"),
        ] {
            let e = pitboss::domain::AppError::from(made(seat, player, at, player_id, member_no));
            assert!(
                e.code == "books_refused" && e.to_string().contains("as its seating does"),
                "[{backend}] seat {seat}, {player}, {at}, {player_id}, {member_no}: {e:?}"
            );
        }
        let same_time = if backend == "sqlite" { "'2026-11-23T12:00:00.000'" } else { now };
        assert!(
            matches!(made(2, "Bob", same_time, "NULL", "NULL"), diesel::result::Error::RollbackTransaction),
            "[{backend}] as the seating says"
        );
        // A kind that is none of the ledger's: a check on SQLite, the
        // column's type on PostgreSQL (an error of its input, not a check).
        let unknown = format!(
            "INSERT INTO ledger_entries (table_id, seating_id, kind, amount_cents, created_at, balance_after_cents) \
             VALUES ({}, {seating}, 'bonus', 100, {now}, 10100)",
            t.id
        );
        let refused = diesel::sql_query(unknown.as_str()).execute(&mut **db.conn().unwrap()).expect_err(&unknown);
        let said = refused.to_string();
        let expected = match backend {
            "postgres" => "invalid input value for enum ledger_entry_kind",
            _ => "books: unknown ledger kind",
        };
        assert!(said.contains(expected), "{backend}: {said}");
        // A stack moved by a seat row that is then not written (skipped by ON
        // CONFLICT: PostgreSQL moves a stack before its row, and checks at
        // commit), wound back to an older row, or emptied.
        let buy_in = t.ledger()[0]["id"].as_i64().unwrap();
        let mut attempts = vec![format!(
            "INSERT INTO ledger_entries (id, table_id, seating_id, kind, amount_cents, created_at, \
             balance_after_cents) VALUES ({buy_in}, {}, {seating}, 'add_on', 1000000, {now}, 1010000) \
             ON CONFLICT DO NOTHING",
            t.id
        )];
        // No append-only row is written over or emptied either: a REPLACE
        // deletes without the delete trigger unless recursive triggers are
        // on (every SQLite connection of the service), and a row trigger does
        // not see TRUNCATE (refused by a statement trigger on PostgreSQL).
        if backend == "postgres" {
            attempts.push("TRUNCATE seating_stacks".to_string());
            for table in ["ledger_entries", "audit_events", "hands", "showdowns", "seatings"] {
                attempts.push(format!("TRUNCATE {table} CASCADE"));
            }
        } else {
            attempts.push(format!(
                "INSERT OR REPLACE INTO seating_stacks (seating_id, stack_cents, entry_id) VALUES ({seating}, 10000, \
                 {buy_in})"
            ));
            // A row the ledger's guard would take, in the buy-in's place.
            attempts.push(format!(
                "INSERT OR REPLACE INTO ledger_entries (id, kind, amount_cents, created_at) \
                 VALUES ({buy_in}, 'house_rake', 1, {now})"
            ));
            attempts.push(
                "INSERT OR REPLACE INTO audit_events (id, created_at, user_id, username, action, target, detail, ip) \
                 SELECT id, created_at, NULL, 'someone else', action, target, detail, ip FROM audit_events LIMIT 1"
                    .to_string(),
            );
        }
        let (ledger_before, audit_before) = (t.ledger(), get(&app, "/api/v1/audit"));
        for sql in &attempts {
            refused_or_skipped(db, backend, sql);
            assert_eq!(t.stack(1), d("100"), "[{backend}] {sql}: nothing changed");
            assert_eq!(t.ledger(), ledger_before, "[{backend}] {sql}: nothing changed");
            assert_eq!(get(&app, "/api/v1/audit"), audit_before, "[{backend}] {sql}: nothing changed");
        }
        let pool: i64 = get(&app, "/api/v1/pools/1")["id"].as_i64().unwrap_or(1);
        let e = diesel::sql_query(format!(
            "INSERT INTO ledger_entries (pool_id, kind, amount_cents, created_at, reverses_id, reason) \
             VALUES ({pool}, 'jackpot_lock', -1, {now}, NULL, NULL)"
        ))
        .execute(&mut **db.conn().unwrap())
        .expect_err("a lock with no hit, taking a pool below zero");
        assert!(pitboss::domain::AppError::from(e).to_string().contains("books refused"));
        assert_eq!(t.stack(1), d("100"), "nothing changed");

        // A seat's result of a hand carries the rake in it; a reversal gives
        // that rake back too.
        use rust_decimal::prelude::ToPrimitive;
        let raked = Table::create(&app, "Raked", None, "simple", "1", "0.50", "0");
        for seat in [1, 2] {
            raked.seat(seat, "P", "100");
        }
        raked.start(None);
        raked.commit(1, &Showdown::deal(&DEAL_A, &[1, 2], 0));
        let ledger = raked.ledger();
        let results: Vec<&Value> = ledger.iter().filter(|r| r["kind"] == json!("hand_result")).collect();
        assert_eq!(results.len(), 2, "one row a seat: {ledger:?}");
        let row = results[0];
        let (id, hand, seating) = (&row["id"], &row["hand_id"], &row["seating_id"]);
        let amount = (dec(&row["amount"]) * Decimal::from(100)).to_i64().unwrap();
        assert_eq!(dec(&row["rake"]), d("0.50"));
        let after = (dec(&row["stack_after"]) * Decimal::from(100)).to_i64().unwrap();
        let columns =
            "table_id, hand_id, seating_id, kind, amount_cents, rake_cents, reverses_id, reason, created_at, \
                       balance_after_cents";
        let attempts = [
            // A reversal that keeps the rake.
            format!(
                "INSERT INTO ledger_entries ({columns}) VALUES ({}, {hand}, {seating}, 'reversal', {}, NULL, {id}, \
                 'x', {now}, {})",
                raked.id,
                -amount,
                after - amount
            ),
            // A reversal that gives back another rake.
            format!(
                "INSERT INTO ledger_entries ({columns}) VALUES ({}, {hand}, {seating}, 'reversal', {}, -49, {id}, \
                 'x', {now}, {})",
                raked.id,
                -amount,
                after - amount
            ),
            // A hand result without its rake, or with a negative one.
            format!(
                "INSERT INTO ledger_entries ({columns}) VALUES ({}, {hand}, {seating}, 'hand_result', 100, NULL, \
                 NULL, NULL, {now}, {})",
                raked.id,
                after + 100
            ),
            format!(
                "INSERT INTO ledger_entries ({columns}) VALUES ({}, {hand}, {seating}, 'hand_result', 100, -50, \
                 NULL, NULL, {now}, {})",
                raked.id,
                after + 100
            ),
            // A rake on a row that is not a hand's.
            format!(
                "INSERT INTO ledger_entries ({columns}) VALUES ({}, NULL, {seating}, 'add_on', 100, 50, NULL, NULL, \
                 {now}, {})",
                raked.id,
                after + 100
            ),
        ];
        for sql in &attempts {
            let e = diesel::sql_query(sql.as_str()).execute(&mut **db.conn().unwrap()).expect_err(sql);
            let e = pitboss::domain::AppError::from(e);
            assert!(e.code == "books_refused", "{sql}: {e:?}");
        }
        assert_eq!(raked.ledger(), ledger, "nothing changed");
        // The void gives the rake back with the settlement.
        raked.void(1, "misdeal");
        let reversals: Vec<Value> = raked.ledger()[ledger.len()..].to_vec();
        let mine = reversals.iter().find(|r| r["reverses_id"] == *id).expect("the row's reversal");
        assert_eq!((dec(&mine["amount"]), dec(&mine["rake"])), (-dec(&row["amount"]), d("-0.50")));
        assert_eq!((raked.stack(1), raked.stack(2)), (d("100"), d("100")));
    });
}

/// A pool's shares (`pool_balances`, one per table feeding it and one for
/// its rows of no table) are moved by its ledger rows only: a share changed,
/// emptied, written over or moved by a row an insert then skips is refused by
/// the database itself, or moves nothing.
#[test]
fn a_pools_shares_are_kept_by_its_ledger_rows_only() {
    each_backend(|backend| {
        use diesel::RunQueryDsl;
        use rust_decimal::prelude::ToPrimitive;
        let app = spawn_app(backend);
        let pool = create_pool(&app, "Bad beat", "10");
        let t = Table::create(&app, "Main", Some(pool), "hawaiian-gardens", "1", "1", "0.25");
        for (seat, name) in [(1, "Ann"), (2, "Bo")] {
            t.seat(seat, name, "100");
        }
        t.start(None);
        t.commit(1, &Showdown::deal(&DEAL_A, &[1, 2], 0));
        // The seed (share 0) and two contributions of 0.25 (the table's share).
        assert_eq!(t.pool_balance(), Some(d("10.50")));
        let db = app.db.as_ref().unwrap();
        let now = "'2026-11-23 12:00:00'";
        let ledger = t.ledger();
        let (table, last) = (t.id, ledger.last().unwrap()["id"].as_i64().unwrap());
        let contribution = ledger.iter().rev().find(|r| r["kind"] == json!("jackpot_contribution")).unwrap();
        let cents = (dec(&contribution["amount"]) * Decimal::from(100)).to_i64().unwrap();
        let contribution = contribution["id"].as_i64().unwrap();
        let mut attempts = vec![
            format!("UPDATE pool_balances SET balance_cents = balance_cents + 100000 WHERE table_key = {table}"),
            "UPDATE pool_balances SET balance_cents = balance_cents".to_string(),
            format!("UPDATE pool_balances SET balance_cents = 0, entry_id = {last} + 1000"),
            // The seed's share moved by a newer row, but of the table's share.
            format!(
                "UPDATE pool_balances SET balance_cents = balance_cents + {cents}, entry_id = {contribution} \
                 WHERE table_key = 0"
            ),
            format!(
                "INSERT INTO pool_balances (pool_id, table_key, balance_cents) VALUES ({pool}, {table}, 0) \
                 ON CONFLICT (pool_id, table_key) DO UPDATE SET balance_cents = 100000"
            ),
            "DELETE FROM pool_balances".to_string(),
            // A new share of money no row holds, or of another share's row.
            format!("INSERT INTO pool_balances (pool_id, table_key, balance_cents) VALUES ({pool}, 999, 100000)"),
            format!(
                "INSERT INTO pool_balances (pool_id, table_key, balance_cents, entry_id) \
                 SELECT pool_id, 999, amount_cents, id FROM ledger_entries WHERE pool_id = {pool} LIMIT 1"
            ),
        ];
        if backend == "postgres" {
            // A pool row that is then not written: the second of two equal
            // reversals, skipped by ON CONFLICT (PostgreSQL moves a share
            // before its row is written, and checks at commit; a pool row's
            // id is its own, so only another key conflicts).
            let reversal = |copies: &str| {
                format!(
                    "INSERT INTO ledger_entries (table_id, hand_id, pool_id, kind, amount_cents, reverses_id, \
                     reason, created_at) SELECT table_id, hand_id, pool_id, 'reversal', -amount_cents, id, 'x', \
                     {now} FROM ledger_entries, (VALUES {copies}) AS copies (n) \
                     WHERE id = (SELECT MIN(id) FROM ledger_entries WHERE kind = 'jackpot_contribution') \
                     ON CONFLICT DO NOTHING"
                )
            };
            // One such reversal alone is written (and rolled back here): the
            // second copy is what is refused.
            use diesel::Connection;
            let one = (**db.conn().unwrap()).transaction::<usize, diesel::result::Error, _>(|c| {
                assert_eq!(diesel::sql_query(reversal("(1)")).execute(c)?, 1);
                Err(diesel::result::Error::RollbackTransaction)
            });
            assert!(matches!(one, Err(diesel::result::Error::RollbackTransaction)), "{one:?}");
            attempts.push(reversal("(1), (2)"));
            attempts.push("TRUNCATE pool_balances".to_string());
        } else {
            // A pool row that is then not written (SQLite moves a share
            // after its row).
            attempts.push(format!(
                "INSERT INTO ledger_entries (id, pool_id, kind, amount_cents, created_at) \
                 VALUES ({last}, {pool}, 'pool_seed', 100000, {now}) ON CONFLICT DO NOTHING"
            ));
            // INSERT OR REPLACE deletes without the delete trigger.
            attempts.push(format!(
                "INSERT OR REPLACE INTO pool_balances (pool_id, table_key, balance_cents) VALUES ({pool}, {table}, 0)"
            ));
            attempts.push(format!(
                "INSERT OR REPLACE INTO pool_balances (pool_id, table_key, balance_cents, entry_id) \
                 SELECT pool_id, table_id, amount_cents, id FROM ledger_entries \
                 WHERE pool_id = {pool} AND table_id = {table} ORDER BY id DESC LIMIT 1"
            ));
        }
        for sql in &attempts {
            refused_or_skipped(db, backend, sql);
            assert_eq!(t.pool_balance(), Some(d("10.50")), "[{backend}] {sql}: nothing changed");
        }
        // An empty share may be opened (a table's, before its first row).
        diesel::sql_query(format!(
            "INSERT INTO pool_balances (pool_id, table_key, balance_cents) VALUES ({pool}, 999, 0)"
        ))
        .execute(&mut **db.conn().unwrap())
        .expect("an empty share");
        if backend == "sqlite" {
            let e = diesel::sql_query(format!(
                "INSERT OR REPLACE INTO pool_balances (pool_id, table_key, balance_cents) VALUES ({pool}, 999, 0)"
            ))
            .execute(&mut **db.conn().unwrap())
            .expect_err("an empty share written over");
            assert_eq!(pitboss::domain::AppError::from(e).code, "books_refused");
        }
        // A table's pool changed before its first hand, and back: its share
        // there is open already.
        let other = create_pool(&app, "Other", "0");
        let moved = Table::create(&app, "Moved", Some(pool), "hawaiian-gardens", "1", "1", "0.25");
        for to in [other, pool] {
            expect(&app, "PATCH", &format!("/api/v1/tables/{}", moved.id), &json!({ "pool_id": to }), 200);
        }
        // The pool still moves by its rows, and the shares kept are the sums
        // of the rows.
        t.start(None);
        t.commit(2, &Showdown::deal(&DEAL_A, &[1, 2], 1));
        assert_eq!(t.pool_balance(), Some(d("11.00")));
        let mut conn = db.conn().unwrap();
        let kept = pitboss::db::rollups::kept(&mut conn).unwrap();
        assert_eq!(kept.pool_shares, pitboss::db::rollups::recompute(&mut conn).unwrap().pool_shares);
        assert_eq!(kept.pool_shares.len(), 2, "{:?}", kept.pool_shares);
    });
}

/// A hand keeps its seats in its own row (issue 17: a row per seat cost
/// about 400 bytes a hand on PostgreSQL). The database still guards what the
/// rows' key, foreign key and checks guarded; a hand started before, with its
/// seats in `hand_seats`, still reads, commits and voids.
#[test]
fn a_hands_seats_are_kept_in_its_row_and_guarded_there_by_the_database() {
    each_backend(|backend| {
        use diesel::{Connection, ExpressionMethods, QueryDsl, RunQueryDsl};
        use pitboss::db::schema::hands;
        use rust_decimal::prelude::ToPrimitive;
        let app = spawn_app(backend);
        let t = Table::create(&app, "Seats", None, "simple", "1", "0", "0");
        t.seat(1, "Ann", "100");
        t.seat(2, "Bo \"the Ace\" Zoë", "100");
        let other = Table::create(&app, "Other", None, "simple", "1", "0", "0");
        other.seat(1, "Cy", "100");
        let seating = |t: &Table, seat: i64| seat_of(&t.view()["seats"], seat)["seating_id"].as_i64().unwrap();
        let (ann, bo, cy) = (seating(&t, 1), seating(&t, 2), seating(&other, 1));
        let db = app.db.as_ref().unwrap();
        let stored = |number: i32| -> Option<String> {
            hands::table
                .filter(hands::table_id.eq(t.id))
                .filter(hands::number.eq(number))
                .select(hands::seats)
                .first(&mut **db.conn().unwrap())
                .unwrap()
        };
        t.start(None);
        assert_eq!(
            stored(1).as_deref(),
            Some(format!("[[1,{ann},10000],[2,{bo},10000]]").as_str()),
            "[{backend}] the hand's row holds its seats (their players are the seatings')"
        );

        let insert = |number: i64, seats: &str| {
            format!(
                "INSERT INTO hands (table_id, number, dealer_seat, ruleset_version_id, started_at, seats) \
                 SELECT table_id, {number}, 1, ruleset_version_id, started_at, '{}' FROM hands \
                 WHERE table_id = {} AND number = 1",
                seats.replace('\'', "''"),
                t.id
            )
        };
        let refused = [
            format!("[[1,{ann},-1]]"),
            format!("[[1,{ann},100000000000001]]"),
            format!("[[1,{ann},100.5]]"),
            format!(r#"[[1,{ann},"100"]]"#),
            format!("[[2,{ann},100]]"),
            format!("[[1,{cy},100]]"),
            format!("[[1,{ann},100],[1,{ann},100]]"),
            format!("[[1,{ann},100,2,null,null]]"),
            format!("[[1,{ann},100,0,-5,null]]"),
            format!("[[1,{ann},100,0]]"),
            format!("[[1,{ann}]]"),
            format!("[[1,{ann},100],5]"),
            // The form of before, with the player third: hands are started
            // in the new form only.
            format!(r#"[[1,{ann},"Ann",100]]"#),
            format!(r#"[[1,{ann},"Ann",100,0,null,null]]"#),
            // A seat or seating that is not a whole number in its column's
            // range (the guard casts them to look the seating up by key).
            format!("[[1.5,{ann},100]]"),
            format!("[[1,{ann}.5,100]]"),
            format!("[[0,{ann},100]]"),
            format!("[[4294967297,{ann},100]]"),
            "[[1,-3,100]]".to_string(),
            "[[1,1e30,100]]".to_string(),
            r#"[[1,"7",100]]"#.to_string(),
            "[]".to_string(),
            r#"{"seat":1}"#.to_string(),
        ];
        for (i, seats) in refused.iter().enumerate() {
            let sql = insert(100 + i as i64, seats);
            let e = diesel::sql_query(sql.as_str()).execute(&mut **db.conn().unwrap()).expect_err(&sql);
            let e = pitboss::domain::AppError::from(e);
            assert!(e.code == "books_refused", "[{backend}] {seats}: {e:?}");
        }
        // Text that is not JSON at all is refused too (PostgreSQL refuses it
        // as it reads it as JSON, not with a books message).
        assert!(diesel::sql_query(insert(70, "[[1,")).execute(&mut **db.conn().unwrap()).is_err());
        // The same statement with good seats goes in (rolled back): the
        // refusals above are for their seats.
        let good = insert(71, &format!("[[1,{ann},100],[2,{bo},0,1,null,14]]"));
        let outcome = db.conn().unwrap().transaction::<(), diesel::result::Error, _>(|c| {
            assert_eq!(diesel::sql_query(good.as_str()).execute(c).expect(&good), 1);
            Err(diesel::result::Error::RollbackTransaction)
        });
        assert!(matches!(outcome, Err(diesel::result::Error::RollbackTransaction)));
        // A hand's seats never change, and a hand with seats in its row
        // takes no seat rows.
        for sql in [
            format!("UPDATE hands SET seats = '[[1,{ann},1]]' WHERE table_id = {}", t.id),
            format!(
                "INSERT INTO hand_seats (hand_id, seat, seating_id, stack_start_cents, in_fantasyland) \
                 SELECT id, 3, {ann}, 0, false FROM hands WHERE table_id = {} AND number = 1",
                t.id
            ),
        ] {
            let e = diesel::sql_query(sql.as_str()).execute(&mut **db.conn().unwrap()).expect_err(&sql);
            assert_eq!(pitboss::domain::AppError::from(e).code, "books_refused", "[{backend}] {sql}");
        }
        assert_eq!(t.hand(1)["status"], json!("open"), "nothing changed");
        t.commit(1, &Showdown::deal(&DEAL_A, &[1, 2], 0));

        // Hand 2 as the release before started it: seats in hand_seats.
        let cents = |v: Decimal| (v * Decimal::from(100)).to_i64().unwrap();
        let (ann_stack, bo_stack) = (t.stack(1), t.stack(2));
        let sql = format!(
            "INSERT INTO hands (table_id, number, dealer_seat, ruleset_version_id, started_at) \
             SELECT table_id, 2, 2, ruleset_version_id, started_at FROM hands WHERE table_id = {0} AND number = 1; \
             INSERT INTO hand_seats (hand_id, seat, seating_id, stack_start_cents, in_fantasyland) \
             SELECT id, 1, {ann}, {1}, false FROM hands WHERE table_id = {0} AND number = 2; \
             INSERT INTO hand_seats (hand_id, seat, seating_id, stack_start_cents, in_fantasyland) \
             SELECT id, 2, {bo}, {2}, false FROM hands WHERE table_id = {0} AND number = 2;",
            t.id,
            cents(ann_stack),
            cents(bo_stack)
        );
        diesel::connection::SimpleConnection::batch_execute(&mut **db.conn().unwrap(), &sql).unwrap();
        assert_eq!(stored(2), None);
        let old = t.hand(2);
        assert_eq!(old["status"], json!("open"), "[{backend}] {old}");
        let seats: Vec<(i64, i64, &str, Decimal)> = arr(&old["seats"])
            .iter()
            .map(|s| {
                (
                    s["seat"].as_i64().unwrap(),
                    s["seating_id"].as_i64().unwrap(),
                    s["player"].as_str().unwrap(),
                    dec(&s["stack_start"]),
                )
            })
            .collect();
        assert_eq!(seats, vec![(1, ann, "Ann", ann_stack), (2, bo, "Bo \"the Ace\" Zoë", bo_stack)]);
        t.commit(2, &Showdown::deal(&DEAL_A, &[1, 2], 0));
        t.void(2, "misdeal");
        assert_eq!((t.stack(1), t.stack(2)), (ann_stack, bo_stack), "[{backend}] the void gives hand 2 back");
        // And the next hand keeps its seats in its row again.
        t.start(None);
        assert!(stored(3).is_some());
        t.commit(3, &Showdown::deal(&DEAL_A, &[1, 2], 0));

        // A seat dealt in to a hand whose jackpot hit waits is found through
        // the hand's seats: it cannot cash out until the hit is decided.
        let mut audit = Audit::new(&app);
        let j = jackpot_table(&app, &mut audit);
        j.start(None);
        j.commit(1, &Showdown::deal(&DEAL_BAD_BEAT, &[1, 2, 3, 4], 0));
        let hit = j.hand(1)["jackpot_hits"][0]["id"].as_i64().unwrap();
        let (status, answer) = request(&app, "POST", &j.path("/seats/3/cash-out"), "");
        assert_eq!((status, answer["code"].as_str()), (409, Some("jackpot_share_waiting")), "[{backend}] {answer}");
        expect(
            &app.signed_in("boss"),
            "POST",
            &format!("/api/v1/jackpots/{hit}/reject"),
            &json!({"reason": "test"}),
            200,
        );
        expect(&app, "POST", &j.path("/seats/3/cash-out"), &Value::Null, 200);
        // A hand played out before a player left still names them (the
        // seating, no longer open, is read for it).
        let players: Vec<Value> = arr(&j.hand(1)["seats"]).iter().map(|s| s["player"].clone()).collect();
        assert_eq!(players, [json!("Ann"), json!("Bo"), json!("Cy"), json!("Di")], "[{backend}]");

        // Hand 4 as the release before started it: seats in its row, each
        // with its player third (written past the guard, which now takes
        // the new form only: last in this test, as SQLite's guard is dropped
        // for it). It reads with those players, commits and voids.
        let (ann_stack, bo_stack) = (t.stack(1), t.stack(2));
        let named =
            format!(r#"[[1,{ann},"Ann",{}],[2,{bo},"Bo \"the Ace\" Zoë",{}]]"#, cents(ann_stack), cents(bo_stack));
        let (off, on) = if backend == "postgres" {
            (
                "ALTER TABLE hands DISABLE TRIGGER hands_seats_guard;",
                "ALTER TABLE hands ENABLE TRIGGER hands_seats_guard;",
            )
        } else {
            ("DROP TRIGGER hands_seats_guard;", "")
        };
        let past_guard = format!("{off} {}; {on}", insert(4, &named).replace("number = 1", "number = 3"));
        diesel::connection::SimpleConnection::batch_execute(&mut **db.conn().unwrap(), &past_guard).unwrap();
        assert_eq!(stored(4).as_deref(), Some(named.as_str()));
        let old = t.hand(4);
        assert_eq!(old["status"], json!("open"), "[{backend}] {old}");
        let players: Vec<&str> = arr(&old["seats"]).iter().map(|s| s["player"].as_str().unwrap()).collect();
        assert_eq!(players, ["Ann", "Bo \"the Ace\" Zoë"], "[{backend}] {old}");
        t.commit(4, &Showdown::deal(&DEAL_A, &[1, 2], 0));
        t.void(4, "misdeal");
        assert_eq!((t.stack(1), t.stack(2)), (ann_stack, bo_stack), "[{backend}] the void gives hand 4 back");
    });
}
