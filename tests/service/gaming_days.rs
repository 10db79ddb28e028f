//! The gaming-day close (issue 16): drop counts beside the ledger with their
//! variances, two sign-offs by two people, a closed day locked, and a void
//! of a closed day's hand booked into the open day; on both backends.

use diesel::RunQueryDsl;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::support::{backends, expect, spawn_app, TestApp};

fn refused(app: &TestApp, method: &str, path: &str, body: &Value, status: u16, code: &str) -> String {
    let answer = expect(app, method, path, body, status);
    assert_eq!(answer["code"], code, "{method} {path}: {answer}");
    answer["error"].as_str().unwrap().to_string()
}

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn dec(v: &Value) -> Decimal {
    v.as_str().unwrap_or_else(|| panic!("not a money string: {v}")).parse().unwrap()
}

/// Four seats, no jackpot trigger (statements.rs's deal).
fn deal() -> Value {
    let rows = [
        ("Ah Ad 2c", "Kh Kd Kc 3c 4d", "5s 6s 7s 8s 9s"),
        ("Qs Qh 3d", "Ts Th Td 5d 6d", "7h 8h 9h Jh 2h"),
        ("Js Jd 4c", "9d 9c 5c 5h 6c", "Ac Qc Tc 8c 7c"),
        ("As Ks Qd", "4s 4h 8d Jc 6h", "2s 2d 3s 3h 7d"),
    ];
    let seats: Vec<_> =
        (1..=4).zip(rows).map(|(s, (f, m, b))| json!({"seat": s, "front": f, "middle": m, "back": b})).collect();
    json!({ "seats": seats })
}

/// Pool 1; table 1 "T1" (hawaiian-gardens, unit 1, rake 0.50 a seat of
/// which 0.10 to the pool) with four players; table 2 "T2" (no rake), empty.
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

fn play(app: &TestApp, n: i64) {
    expect(app, "POST", "/api/v1/tables/1/hands", &json!({}), 201);
    expect(app, "POST", &format!("/api/v1/tables/1/hands/{n}/commit"), &deal(), 201);
}

fn table_of(day: &Value, id: i64) -> Value {
    day["tables"].as_array().unwrap().iter().find(|t| t["table_id"] == id).cloned().unwrap_or(Value::Null)
}

fn next_day(day: &str) -> String {
    let d = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
    (d + chrono::Duration::days(1)).format("%Y-%m-%d").to_string()
}

#[test]
fn a_day_is_counted_closed_by_two_people_and_stays_as_signed() {
    for backend in backends() {
        count_and_close(backend);
    }
}

fn count_and_close(backend: &str) {
    let app = spawn_app(backend);
    room(&app);
    let counter = TestApp::at(&app.base).with_token(&app.user("cora", &["count"], &[]));
    let cora = app.signed_in("cora");
    let acct = app.person("abe", &["accountant"], &[]);
    let both = app.person("bo", &["count", "accountant"], &[]);
    let acct_token = TestApp::at(&app.base).with_token(&app.user("al", &["accountant"], &[]));
    play(&app, 1);
    play(&app, 2);
    let today = expect(&app, "GET", "/api/v1/gaming-days", &Value::Null, 200)["today"].as_str().unwrap().to_string();
    let tomorrow = next_day(&today);
    let path = |what: &str| format!("/api/v1/gaming-days/{today}{what}");

    // What the ledger collected: two hands of four seats at 0.50, 0.10 of
    // each to the pool: rake 4.00, jackpot part 0.80.
    let day = expect(&acct, "GET", &path(""), &Value::Null, 200);
    assert_eq!(day["status"], "open");
    let t1 = table_of(&day, 1);
    assert_eq!(t1["hands"], 2);
    assert_eq!(dec(&t1["rake"]), d("4.00"));
    assert_eq!(dec(&t1["jackpot"]), d("0.80"));
    assert_eq!(t1["rake_drop"], Value::Null);
    assert_eq!(t1["needs_count"], true);
    assert_eq!(table_of(&day, 2), Value::Null, "a table without play is not listed");
    assert_eq!(day["waiting_for"][0], "a count of T1");

    // Refusals of a count: the wrong role, a negative amount, no table, a
    // day not started, a bad date.
    let count = |rake: &str, jackpot: Option<&str>| json!({"table_id": 1, "rake_drop": rake, "jackpot_drop": jackpot});
    refused(&acct_token, "POST", &path("/count"), &count("3.00", None), 403, "role_required");
    let e = refused(&counter, "POST", &path("/count"), &count("-1", None), 422, "bad_money");
    assert!(e.contains("rake drop"), "{e}");
    refused(&counter, "POST", &path("/count"), &count("3.00", Some("x")), 422, "bad_money");
    refused(&counter, "POST", &path("/count"), &json!({"table_id": 99, "rake_drop": "1"}), 404, "no_table");
    refused(
        &counter,
        "POST",
        &format!("/api/v1/gaming-days/{tomorrow}/count"),
        &count("1", None),
        409,
        "day_in_future",
    );
    refused(&counter, "POST", "/api/v1/gaming-days/26-11-2026/count", &count("1", None), 422, "bad_date");
    assert_eq!(table_of(&expect(&app, "GET", &path(""), &Value::Null, 200), 1)["rake_drop"], Value::Null);

    // The count: 3.00 in the rake box and 0.80 in the jackpot box. Kept
    // apart, the rake box should hold 4.00 − 0.80 = 3.20: 0.20 short.
    let day = expect(&counter, "POST", &path("/count"), &count("3.00", Some("0.80")), 200);
    let t1 = table_of(&day, 1);
    assert_eq!(dec(&t1["expected_rake_drop"]), d("3.20"));
    assert_eq!(dec(&t1["rake_variance"]), d("-0.20"));
    assert_eq!(dec(&t1["jackpot_variance"]), d("0.00"));
    assert_eq!(t1["counted_by"], "cora");
    // Counted again: the latest count is read (3.25: 0.05 over); both rows stay.
    let day = expect(&counter, "POST", &path("/count"), &count("3.25", Some("0.80")), 200);
    let t1 = table_of(&day, 1);
    assert_eq!(dec(&t1["rake_variance"]), d("0.05"));
    assert_eq!(t1["counts"], 2);
    // T2 had no play and no jackpot box: 1.00 found is 1.00 over.
    let day = expect(&counter, "POST", &path("/count"), &json!({"table_id": 2, "rake_drop": "1.00"}), 200);
    let t2 = table_of(&day, 2);
    assert_eq!(dec(&t2["expected_rake_drop"]), d("0.00"));
    assert_eq!(dec(&t2["rake_variance"]), d("1.00"));
    assert_eq!(t2["jackpot_variance"], Value::Null);
    assert_eq!(dec(&day["totals"]["rake_variance"]), d("1.05"));
    assert_eq!(dec(&day["totals"]["rake_drop"]), d("4.25"));

    // Sign-offs: a person's, not a token's; the count team first.
    let sign = |who: &str| json!({"signoff": who});
    refused(&counter, "POST", &path("/close"), &sign("count"), 403, "signoff_needs_person");
    refused(&acct_token, "POST", &path("/close"), &sign("accountant"), 403, "signoff_needs_person");
    refused(&acct, "POST", &path("/close"), &sign("accountant"), 409, "count_not_signed_off");
    refused(&acct, "POST", &path("/close"), &sign("count"), 403, "role_required");
    refused(&cora, "POST", &path("/close"), &sign("x"), 422, "bad_body");
    // Not while a hand that would count on the day is in progress.
    expect(&app, "POST", "/api/v1/tables/1/hands", &json!({}), 201);
    let e = refused(&cora, "POST", &path("/close"), &sign("count"), 409, "day_not_ready");
    assert!(e.contains("hand 3 at T1"), "{e}");
    expect(&app, "POST", "/api/v1/tables/1/hands/3/void", &json!({"reason": "misdeal", "note": "two cards"}), 200);
    // Not a day that has not started.
    refused(&both, "POST", &format!("/api/v1/gaming-days/{tomorrow}/close"), &sign("count"), 409, "day_in_future");

    // "bo" signs the count off; then cannot close the day himself.
    let day = expect(&both, "POST", &path("/close"), &sign("count"), 200);
    assert_eq!(day["status"], "counted");
    refused(&both, "POST", &path("/close"), &sign("count"), 409, "already_signed_off");
    refused(&counter, "POST", &path("/count"), &count("3.20", Some("0.80")), 409, "count_signed_off");
    let e = refused(&both, "POST", &path("/close"), &sign("accountant"), 403, "second_person_required");
    assert!(e.contains("bo"), "{e}");
    // The accountant, another person, closes it.
    let closed = expect(&acct, "POST", &path("/close"), &json!({"signoff": "accountant", "note": "ok"}), 200);
    assert_eq!(closed["status"], "closed");
    assert_eq!(closed["closed"], true);
    let who: Vec<(&str, &str)> = closed["signoffs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["signoff"].as_str().unwrap(), s["username"].as_str().unwrap()))
        .collect();
    assert_eq!(who, [("count", "bo"), ("accountant", "abe")]);
    let list = expect(&app, "GET", "/api/v1/gaming-days", &Value::Null, 200);
    assert_eq!(list["days"][0]["gaming_day"], today.as_str());
    assert_eq!(list["days"][0]["status"], "closed");
    assert_eq!(dec(&list["days"][0]["rake_variance"]), d("1.05"));

    // Locked: no count, no second close, no hand started on it (it could
    // never be committed), and nothing written by the refusal.
    refused(&counter, "POST", &path("/count"), &count("3.20", Some("0.80")), 409, "day_closed");
    refused(&acct, "POST", &path("/close"), &sign("accountant"), 409, "day_closed");
    let audit_before = expect(&app, "GET", "/api/v1/audit", &Value::Null, 200);
    let e = refused(&app, "POST", "/api/v1/tables/1/hands", &json!({}), 409, "day_closed");
    assert!(e.contains(&format!("gaming day {today} is closed")), "{e}");
    assert!(e.contains("next gaming day"), "{e}");
    assert_eq!(expect(&app, "GET", "/api/v1/tables/1", &Value::Null, 200)["open_hand"], Value::Null);
    assert_eq!(expect(&app, "GET", "/api/v1/audit", &Value::Null, 200), audit_before, "the refusal wrote nothing");

    // A void of hand 2 (of the closed day) is booked into the open day, the
    // day after (today's is closed), naming the closed day; the closed day's
    // figures and its rake report rows stay exactly as signed.
    let rake_path = format!("/reports/rake.json?from={today}&to={today}");
    let report_before = expect(&app, "GET", &rake_path, &Value::Null, 200);
    assert_eq!(report_before["rows"][0]["day_status"], "closed", "{report_before}");
    assert_eq!(report_before["days"][0]["day_status"], "closed");
    let before = expect(&app, "GET", &path(""), &Value::Null, 200);
    let stacks_before = expect(&app, "GET", "/api/v1/tables/1", &Value::Null, 200)["seats"].clone();
    expect(&app, "POST", "/api/v1/tables/1/hands/2/void", &json!({"reason": "wrong_cards", "note": "late"}), 200);
    let after = expect(&app, "GET", &path(""), &Value::Null, 200);
    assert_eq!(after["tables"], before["tables"], "the closed day's tables changed");
    assert_eq!(after["totals"], before["totals"], "the closed day's totals changed");
    assert_eq!(expect(&app, "GET", &rake_path, &Value::Null, 200), report_before, "the closed day's report changed");
    let stacks_after = expect(&app, "GET", "/api/v1/tables/1", &Value::Null, 200)["seats"].clone();
    assert_ne!(stacks_after, stacks_before, "the void gave the money back");
    let open = expect(&app, "GET", &format!("/api/v1/gaming-days/{tomorrow}"), &Value::Null, 200);
    let t1 = table_of(&open, 1);
    assert_eq!(t1["hands"], -1);
    assert_eq!(dec(&t1["rake"]), d("-2.00"));
    assert_eq!(dec(&t1["jackpot"]), d("-0.40"));
    assert_eq!(open["corrections"][0]["hand"], 2);
    assert_eq!(open["corrections"][0]["closed_day"], today.as_str());
    assert_eq!(open["corrections"][0]["booked_day"], tomorrow.as_str());
    assert_eq!(after["corrections"][0]["booked_day"], tomorrow.as_str(), "the closed day shows where it went");
    // The ledger's reversing rows say so.
    let ledger = expect(&app, "GET", "/api/v1/tables/1/ledger", &Value::Null, 200);
    // (Hand 3 was voided open: only hand 2 has reversing rows.)
    let reversals: Vec<&Value> = ledger.as_array().unwrap().iter().filter(|r| r["kind"] == "reversal").collect();
    assert!(!reversals.is_empty(), "{ledger}");
    for r in reversals {
        let reason = r["reason"].as_str().unwrap_or("");
        assert!(reason.contains(&format!("correction of closed gaming day {today}")), "{r}");
    }
    // A void twice is refused as before; the rollups kept equal the ledger's.
    refused(
        &app,
        "POST",
        "/api/v1/tables/1/hands/2/void",
        &json!({"reason": "other", "note": "x"}),
        409,
        "hand_voided",
    );
    let db = app.db.as_ref().unwrap();
    let mut c = db.conn().unwrap();
    let kept = pitboss::db::rollups::kept(&mut c).unwrap();
    let fresh = pitboss::db::rollups::recompute(&mut c).unwrap();
    assert_eq!(kept, fresh, "the rollups kept differ from the ledger's");
    drop(c);

    // The audit trail has the counts and both sign-offs.
    let audit = expect(&app, "GET", "/api/v1/audit?limit=1000", &Value::Null, 200);
    let actions: Vec<&str> = audit.as_array().unwrap().iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(actions.iter().filter(|a| **a == "drop_count").count(), 3);
    assert!(actions.contains(&"gaming_day_count_signoff") && actions.contains(&"gaming_day_close"), "{actions:?}");
}

#[test]
fn the_database_keeps_counts_and_sign_offs_append_only_and_one_close_a_day() {
    for backend in backends() {
        database_guards(backend);
    }
}

fn database_guards(backend: &str) {
    let app = spawn_app(backend);
    room(&app);
    app.user("cora", &["count"], &[]);
    let cora = app.signed_in("cora");
    let acct = app.person("abe", &["accountant"], &[]);
    play(&app, 1);
    let today = expect(&app, "GET", "/api/v1/gaming-days", &Value::Null, 200)["today"].as_str().unwrap().to_string();
    let path = |what: &str| format!("/api/v1/gaming-days/{today}{what}");
    expect(&cora, "POST", &path("/count"), &json!({"table_id": 1, "rake_drop": "2.00"}), 200);
    expect(&cora, "POST", &path("/close"), &json!({"signoff": "count"}), 200);
    expect(&acct, "POST", &path("/close"), &json!({"signoff": "accountant"}), 200);
    let db = app.db.as_ref().unwrap();
    let mut c = db.conn().unwrap();
    let refuses = |c: &mut pitboss::db::DbConnection, sql: &str| {
        let e = diesel::sql_query(sql).execute(c);
        assert!(e.is_err(), "the database took: {sql}");
    };
    refuses(&mut c, "UPDATE drop_counts SET rake_drop_cents = 1");
    refuses(&mut c, "DELETE FROM drop_counts");
    refuses(&mut c, "UPDATE gaming_day_signoffs SET note = 'x'");
    refuses(&mut c, "DELETE FROM gaming_day_signoffs");
    refuses(
        &mut c,
        &format!(
            "INSERT INTO drop_counts (gaming_day, table_id, rake_drop_cents, note, counted_by, created_at) \
             VALUES ('{today}', 1, -1, '', 1, '2026-01-01 00:00:00')"
        ),
    );
    refuses(
        &mut c,
        &format!(
            "INSERT INTO gaming_day_signoffs (gaming_day, action, user_id, note, created_at) \
             VALUES ('{today}', 'accountant', 1, '', '2026-01-01 00:00:00')"
        ),
    );
    // The accountant's sign-off needs the count team's, by another person.
    refuses(
        &mut c,
        "INSERT INTO gaming_day_signoffs (gaming_day, action, user_id, note, created_at) \
         VALUES ('2020-01-01', 'accountant', 1, '', '2026-01-01 00:00:00')",
    );
    // A closed day's figures: no change.
    refuses(&mut c, &format!("UPDATE table_days SET rake_cents = 0 WHERE gaming_day = '{today}'"));
    refuses(&mut c, &format!("INSERT INTO table_days (table_id, gaming_day, hands) VALUES (2, '{today}', 1)"));
    let rake: i64 = {
        #[derive(diesel::QueryableByName)]
        struct R {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            rake_cents: i64,
        }
        diesel::sql_query(format!("SELECT rake_cents FROM table_days WHERE table_id = 1 AND gaming_day = '{today}'"))
            .get_result::<R>(&mut **c)
            .unwrap()
            .rake_cents
    };
    assert_eq!(rake, 200, "four seats at 0.50");
}

#[test]
fn the_gaming_day_pages_speak_in_words_and_refuse_with_the_form_kept() {
    let app = spawn_app("sqlite");
    room(&app);
    app.user("cora", &["count"], &[]);
    play(&app, 1);
    let today = expect(&app, "GET", "/api/v1/gaming-days", &Value::Null, 200)["today"].as_str().unwrap().to_string();
    let mut b = crate::support::Browser::signed_in(&app, "cora");
    let page = b.get("/gaming-days");
    assert_eq!(page.status, 200);
    assert!(page.body.contains(&format!("/gaming-days/{today}")), "{}", page.body);
    let page = b.get(&format!("/gaming-days/{today}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("not counted"), "{}", page.body);
    assert!(page.body.contains("Count team (name and signature)"));
    // A bad amount: the form comes back with what was typed and the problem.
    let answer =
        b.post(&format!("/gaming-days/{today}/count"), &[("table_id", "1"), ("rake_drop", "2.x"), ("note", "box 7")]);
    assert_eq!(answer.status, 422, "{}", answer.body);
    assert!(answer.body.contains("the rake drop"), "{}", answer.body);
    assert!(answer.body.contains("value=\"2.x\"") && answer.body.contains("value=\"box 7\""), "{}", answer.body);
    // A good one: a notice, and the variance on the page (2.00 collected, 1.90 counted).
    let answer = b.post(&format!("/gaming-days/{today}/count"), &[("table_id", "1"), ("rake_drop", "1.90")]);
    assert_eq!(answer.status, 303, "{}", answer.body);
    let page = b.get(&format!("/gaming-days/{today}"));
    assert!(page.body.contains("Count of T1 saved: rake drop 1.90."), "{}", page.body);
    assert!(page.body.contains("-0.10"), "{}", page.body);
}
