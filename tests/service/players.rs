//! Players' records (issue 16, "Players"): chosen or made at seating (by
//! the list, by a member or ID number typed or scanned, or a new name), a
//! player's sessions and results across tables, the list and its search,
//! the pages and their forms. On SQLite and, when configured, PostgreSQL;
//! every refusal changes nothing.

use diesel::RunQueryDsl;
use serde_json::{json, Value};

use crate::support::{backends, expect, refused, spawn_app, Browser, TestApp};

fn players(app: &TestApp, query: &str) -> Vec<Value> {
    expect(app, "GET", &format!("/api/v1/players{query}"), &Value::Null, 200).as_array().unwrap().clone()
}

fn seat(app: &TestApp, table: i64, body: Value, status: u16) -> Value {
    expect(app, "POST", &format!("/api/v1/tables/{table}/seats"), &body, status)
}

/// The player in `seat` of `table`, as the table shows it.
fn seated(app: &TestApp, table: i64, seat: i64) -> Option<String> {
    let t = expect(app, "GET", &format!("/api/v1/tables/{table}"), &Value::Null, 200);
    t["seats"].as_array().unwrap().iter().find(|s| s["seat"] == seat).map(|s| s["player"].as_str().unwrap().into())
}

#[test]
fn a_player_is_chosen_or_made_at_seating_and_their_sessions_add_up_across_tables() {
    for backend in backends() {
        let app = spawn_app(backend);
        for name in ["T1", "T2"] {
            expect(&app, "POST", "/api/v1/tables", &json!({"name": name, "preset": "simple", "unit": "1"}), 201);
        }
        // A new player with a member number, and one without.
        seat(&app, 1, json!({"seat": 1, "player": "Alice Wong", "member_no": "M-100", "buy_in": "100"}), 201);
        seat(&app, 1, json!({"seat": 2, "player": "Bob", "buy_in": "80"}), 201);
        let list = players(&app, "");
        assert_eq!(list.len(), 2);
        let alice = list.iter().find(|p| p["name"] == "Alice Wong").unwrap().clone();
        assert_eq!((alice["member_no"].as_str(), alice["sessions"].as_i64()), (Some("M-100"), Some(1)));
        let bob = list.iter().find(|p| p["name"] == "Bob").unwrap().clone();
        assert!(bob["member_no"].is_null());
        let (alice_id, bob_id) = (alice["id"].as_i64().unwrap(), bob["id"].as_i64().unwrap());
        // The seating's audit row names the new record.
        let seatings = expect(&app, "GET", "/api/v1/audit?action=seat_player&limit=10", &Value::Null, 200);
        let first = &seatings[1]["detail"];
        assert_eq!((first["player_id"].as_i64(), first["new_player"].as_bool()), (Some(alice_id), Some(true)));
        assert_eq!(first["member_no"], "M-100");

        // Alice adds on 50 and cashes out her 150.
        expect(&app, "POST", "/api/v1/tables/1/seats/1/add-on", &json!({"amount": "50"}), 200);
        expect(&app, "POST", "/api/v1/tables/1/seats/1/cash-out", &Value::Null, 200);
        // She comes back at T2: her scanned card (with stray spaces) finds her record, her name with it.
        seat(&app, 2, json!({"seat": 3, "member_no": " M-100 ", "buy_in": "200"}), 201);
        assert_eq!(seated(&app, 2, 3).as_deref(), Some("Alice Wong"));
        // Bob, chosen from the list at T2; his name typed beside the choice in another case is his.
        seat(&app, 2, json!({"seat": 1, "player_id": bob_id, "player": "bob", "buy_in": "20"}), 201);
        assert_eq!(seated(&app, 2, 1).as_deref(), Some("Bob"));
        assert_eq!(players(&app, "").len(), 2, "no record was made for a returning player");
        let seatings = expect(&app, "GET", "/api/v1/audit?action=seat_player&limit=10", &Value::Null, 200);
        let last = &seatings[0]["detail"];
        assert_eq!((last["player_id"].as_i64(), last["new_player"].as_bool()), (Some(bob_id), Some(false)));

        // Alice's sessions, by hand: 100 + 50 in, 150 out at T1; 200 in, sitting with 200 at T2.
        let p = expect(&app, "GET", &format!("/api/v1/players/{alice_id}"), &Value::Null, 200);
        assert_eq!((p["name"].as_str(), p["member_no"].as_str()), (Some("Alice Wong"), Some("M-100")));
        let sessions = p["sessions"].as_array().unwrap();
        assert_eq!(sessions.len(), 2);
        assert_eq!((sessions[0]["table"].as_str(), sessions[0]["status"].as_str()), (Some("T1"), Some("cashed out")));
        assert_eq!((sessions[1]["table"].as_str(), sessions[1]["status"].as_str()), (Some("T2"), Some("seated")));
        assert_eq!(sessions[0]["net"], "0.00", "150 out of 150 in");
        let t = &p["totals"];
        assert_eq!(
            [&t["buy_in"], &t["add_ons"], &t["cash_out"], &t["stack"], &t["net"]],
            [&json!("300.00"), &json!("50.00"), &json!("150.00"), &json!("200.00"), &json!("0.00")]
        );
        assert_eq!(t["sessions"], 2);
        // Bob sits at both tables: 80 and 20 in, 80 and 20 in front of him.
        let p = expect(&app, "GET", &format!("/api/v1/players/{bob_id}"), &Value::Null, 200);
        assert_eq!((p["totals"]["buy_in"].as_str(), p["totals"]["stack"].as_str()), (Some("100.00"), Some("100.00")));
        // The sessions report names the record of each seating.
        let report = expect(&app, "GET", "/reports/sessions.json", &Value::Null, 200);
        let row = report["sessions"].as_array().unwrap().iter().find(|s| s["player"] == "Alice Wong").unwrap().clone();
        assert_eq!((row["player_id"].as_i64(), row["member_no"].as_str()), (Some(alice_id), Some("M-100")));
        refused(&app, "GET", "/api/v1/players/999", &Value::Null, 404, "no_player");
    }
}

#[test]
fn a_wrong_choice_is_refused_by_name_and_changes_nothing() {
    for backend in backends() {
        let app = spawn_app(backend);
        expect(&app, "POST", "/api/v1/tables", &json!({"name": "T1", "preset": "simple", "unit": "1"}), 201);
        seat(&app, 1, json!({"seat": 1, "player": "Alice Wong", "member_no": "M-100", "buy_in": "100"}), 201);
        let alice = players(&app, "")[0]["id"].as_i64().unwrap();
        let cases = [
            (json!({"seat": 2, "player_id": alice, "player": "Bob", "buy_in": "10"}), "player_mismatch", "player"),
            (json!({"seat": 2, "member_no": "M-100", "player": "Carol", "buy_in": "10"}), "player_mismatch", "player"),
            (
                json!({"seat": 2, "player_id": alice, "member_no": "M-999", "buy_in": "10"}),
                "player_mismatch",
                "member_no",
            ),
            (json!({"seat": 2, "player_id": 999, "buy_in": "10"}), "bad_player", "player_id"),
            (json!({"seat": 2, "buy_in": "10"}), "player_required", "player"),
            (json!({"seat": 2, "player": "  ", "buy_in": "10"}), "player_required", "player"),
            (json!({"seat": 2, "member_no": "M-200", "buy_in": "10"}), "player_required", "player"),
            (
                json!({"seat": 2, "player": "Dan", "member_no": "x".repeat(41), "buy_in": "10"}),
                "bad_member_no",
                "member_no",
            ),
        ];
        for (body, code, field) in cases {
            let e = refused(&app, "POST", "/api/v1/tables/1/seats", &body, 422, code);
            assert_eq!(e["field"], field, "{body}: {e}");
        }
        let e = refused(
            &app,
            "POST",
            "/api/v1/tables/1/seats",
            &json!({"seat": 2, "member_no": "M-200", "buy_in": "10"}),
            422,
            "player_required",
        );
        assert!(e["error"].as_str().unwrap().contains("type the new player's name"), "{e}");
        let e = refused(
            &app,
            "POST",
            "/api/v1/tables/1/seats",
            &json!({"seat": 2, "player_id": alice, "player": "Bob", "buy_in": "10"}),
            422,
            "player_mismatch",
        );
        assert!(e["error"].as_str().unwrap().contains("member M-100 is Alice Wong, not Bob"), "{e}");
        assert_eq!(seated(&app, 1, 2), None, "nothing was seated");
        assert_eq!(players(&app, "").len(), 1, "no record was made");

        // Records made ahead of seating: a member number is one player's.
        refused(
            &app,
            "POST",
            "/api/v1/players",
            &json!({"name": "Carol", "member_no": "M-100"}),
            409,
            "member_no_taken",
        );
        refused(&app, "POST", "/api/v1/players", &json!({"name": ""}), 422, "bad_name");
        let carol = expect(&app, "POST", "/api/v1/players", &json!({"name": "Carol", "member_no": "M-300"}), 201);
        assert_eq!((carol["sessions"].as_i64(), carol["member_no"].as_str()), (Some(0), Some("M-300")));
        // No sessions: the totals are money zeros with their two places.
        let carol_id = carol["id"].as_i64().unwrap();
        let totals = expect(&app, "GET", &format!("/api/v1/players/{carol_id}"), &Value::Null, 200)["totals"].clone();
        for field in ["buy_in", "add_ons", "cash_out", "rake", "jackpot_payouts", "stack", "net"] {
            assert_eq!(totals[field].as_str(), Some("0.00"), "{field}: {totals}");
        }
        let made = expect(&app, "GET", "/api/v1/audit?action=player_create&limit=10", &Value::Null, 200);
        let detail = &made[0]["detail"];
        assert_eq!((&detail["name"], &detail["member_no"]), (&json!("Carol"), &json!("M-300")));

        // The search: any case, name or number, LIKE's own characters taken literally.
        let names =
            |q: &str| players(&app, q).iter().map(|p| p["name"].as_str().unwrap().to_string()).collect::<Vec<_>>();
        assert_eq!(names("?q=WONG"), ["Alice Wong"]);
        assert_eq!(names("?q=m-3"), ["Carol"]);
        assert!(names("?q=%25").is_empty(), "a % is a percent sign, not a wildcard");
        assert!(names("?q=_").is_empty());
        assert_eq!(names("").len(), 2);
        assert_eq!(names("?limit=1"), ["Alice Wong"], "the most recently seated first");
        refused(&app, "GET", "/api/v1/players?colour=green", &Value::Null, 422, "bad_query");

        // The records are append-only: the database refuses to change or remove one.
        let mut conn = app.db.as_ref().unwrap().conn().unwrap();
        for sql in ["UPDATE players SET name = 'Mallory'", "DELETE FROM players"] {
            let err = diesel::sql_query(sql).execute(&mut **conn).expect_err(sql);
            assert!(err.to_string().contains("append-only"), "{sql}: {err}");
        }
    }
}

#[test]
fn the_pages_list_find_and_make_players_and_seat_a_returning_one() {
    for backend in backends() {
        let app = spawn_app(backend);
        expect(&app, "POST", "/api/v1/tables", &json!({"name": "T1", "preset": "simple", "unit": "1"}), 201);
        seat(&app, 1, json!({"seat": 1, "player": "Alice Wong", "member_no": "M-100", "buy_in": "100"}), 201);
        let mut b = Browser::signed_in(&app, "boss");
        let page = b.get("/players");
        assert_eq!(page.status, 200);
        assert!(page.body.contains("Alice Wong") && page.body.contains("M-100"), "{}", page.body);
        assert!(b.get("/players?q=nobody").body.contains("No player's name or member number holds"));
        // A refused record keeps what was typed and says why beside the field.
        let answer = b.post("/players", &[("name", "Carol"), ("member_no", "M-100")]);
        assert_eq!(answer.status, 409, "{}", answer.body);
        assert!(answer.body.contains("member or ID number M-100 belongs to Alice Wong"), "{}", answer.body);
        assert!(answer.body.contains(r#"value="Carol""#), "the typed name is kept");
        assert!(answer.body.contains(r#"aria-describedby="member_no-problem""#));
        let answer = b.post("/players", &[("name", "Carol"), ("member_no", "M-300")]);
        assert_eq!(answer.status, 303, "{}", answer.body);
        let carol_page = answer.location().to_string();
        let page = b.get(&carol_page);
        assert!(page.body.contains("Carol added.") && page.body.contains("Not seated yet."), "{}", page.body);
        let carol = carol_page.rsplit('/').next().unwrap().to_string();

        // The table page offers the returning players in an open seat's form.
        let table = b.get("/tables/1");
        assert!(table.body.contains(&format!(r#"<option value="{carol}">Carol · M-300</option>"#)), "{}", table.body);
        let answer = b.post(
            "/tables/1/seats/2/seat",
            &[("player_id", &carol), ("player", ""), ("member_no", ""), ("amount", "40")],
        );
        assert_eq!(answer.status, 303, "{}", answer.body);
        assert_eq!(seated(&app, 1, 2).as_deref(), Some("Carol"));
        // A member number alone seats its player; a wrong pairing is refused in the seat's box.
        let answer = b.post(
            "/tables/1/seats/3/seat",
            &[("player_id", ""), ("player", "Zed"), ("member_no", "M-100"), ("amount", "40")],
        );
        assert_eq!(answer.status, 422);
        assert!(answer.body.contains("member M-100 is Alice Wong, not Zed"), "{}", answer.body);
        assert_eq!(seated(&app, 1, 3), None);
        // Carol's page shows her session at T1.
        let page = b.get(&carol_page);
        assert!(
            page.body.contains(r#"<a href="/tables/1">T1</a> · 2"#) && page.body.contains("40.00"),
            "{}",
            page.body
        );
    }
}

#[test]
fn the_list_of_all_players_puts_the_players_seated_last_first_then_the_newest_records() {
    for backend in backends() {
        let app = spawn_app(backend);
        expect(&app, "POST", "/api/v1/tables", &json!({"name": "T1", "preset": "simple", "unit": "1"}), 201);
        let made = |name: &str| expect(&app, "POST", "/api/v1/players", &json!({"name": name}), 201)["id"].clone();
        made("Never A");
        let old = made("Old");
        seat(&app, 1, json!({"seat": 1, "player_id": old, "buy_in": "10"}), 201);
        seat(&app, 1, json!({"seat": 2, "player": "Mid", "buy_in": "10"}), 201);
        seat(&app, 1, json!({"seat": 3, "player": "New", "buy_in": "10"}), 201);
        made("Never B");
        // Old leaves and comes back: seated last of all, with two sessions.
        expect(&app, "POST", "/api/v1/tables/1/seats/1/cash-out", &Value::Null, 200);
        seat(&app, 1, json!({"seat": 4, "player_id": old, "buy_in": "10"}), 201);
        let list = players(&app, "");
        let names: Vec<&str> = list.iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["Old", "New", "Mid", "Never B", "Never A"], "[{backend}] {list:?}");
        let sessions: Vec<i64> = list.iter().map(|p| p["sessions"].as_i64().unwrap()).collect();
        assert_eq!(sessions, [2, 1, 1, 0, 0], "[{backend}]");
        assert!(list[3]["last_seated_at"].is_null() && !list[2]["last_seated_at"].is_null(), "[{backend}]");
        // At most `limit`, from the front of the same order.
        let first: Vec<String> =
            players(&app, "?limit=4").iter().map(|p| p["name"].as_str().unwrap().to_string()).collect();
        assert_eq!(first, ["Old", "New", "Mid", "Never B"], "[{backend}]");
        let two: Vec<String> =
            players(&app, "?limit=2").iter().map(|p| p["name"].as_str().unwrap().to_string()).collect();
        assert_eq!(two, ["Old", "New"], "[{backend}]");
        // The same order when the newest seatings looked through hold fewer
        // players than asked for: the rest by their latest seating.
        let mut conn = app.db.as_ref().unwrap().conn().unwrap();
        for (recent, limit) in [(1, 200), (2, 200), (1, 3), (3, 2), (0, 200)] {
            let found: Vec<String> = pitboss::db::players::search_within(&mut conn, "", limit, recent)
                .unwrap()
                .into_iter()
                .map(|(p, _, _)| p.name)
                .collect();
            let all = ["Old", "New", "Mid", "Never B", "Never A"];
            assert_eq!(found, all[..all.len().min(limit as usize)], "[{backend}] {recent} seatings looked through");
        }
    }
}
