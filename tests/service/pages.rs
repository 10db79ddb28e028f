//! The dealer's pages: every user-provided text escaped, the settlement
//! sheet's numbers, and its CSV and JSON downloads.

use crate::support::{page, request, spawn_app, TestApp};

const SHOWDOWN: &str = r#"{"seats":[
 {"seat":1,"front":"Qh Qd 7c","middle":"Js Jh Jd 2s 2h","back":"5s 5h 5d 5c Ad"},
 {"seat":2,"front":"2c 3d 4h","middle":"6c 7d 8h 9s Tc","back":"Ac Kc Qc Jc 9c"},
 {"seat":3,"front":"As Ks 3s","middle":"Kh Kd 8d 8c 3h","back":"Th Td Ts 4d 4c"},
 {"seat":4,"front":"6h 6d 6s","middle":"7h 7s 9h 9d 2d","back":"8s Qs 4s Ah 3c"}]}"#;

fn table_with_a_hand(app: &TestApp, table_name: &str, players: [&str; 4]) {
    assert_eq!(request(app, "POST", "/api/v1/pools", r#"{"name":"Bad beat","seed":"500"}"#).0, 201);
    let table = serde_json::json!({"name": table_name, "preset": "hawaiian-gardens", "unit": "5",
        "rake_per_seat": "0.50", "jackpot_part": "0.10", "pool_id": 1});
    assert_eq!(request(app, "POST", "/api/v1/tables", &table.to_string()).0, 201);
    for (i, player) in players.iter().enumerate() {
        let body = serde_json::json!({"seat": i + 1, "player": player, "buy_in": format!("{}", (i + 1) * 50)});
        assert_eq!(request(app, "POST", "/api/v1/tables/1/seats", &body.to_string()).0, 201);
    }
    assert_eq!(request(app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    assert_eq!(request(app, "POST", "/api/v1/tables/1/hands/1/commit", SHOWDOWN).0, 201);
}

#[test]
fn names_are_escaped_on_every_page() {
    let app = spawn_app("sqlite");
    let evil = "<script>alert('x')</script>";
    table_with_a_hand(&app, "<b>Table</b> & \"7\"", [evil, "<img src=x onerror=y>", "Cy", "Dee"]);
    for path in ["/", "/tables/1", "/tables/1/hands/1/sheet"] {
        let (status, body) = page(&app, path);
        assert_eq!(status, 200, "{path}");
        assert!(!body.contains("<script>alert"), "{path} shows a raw script tag");
        assert!(!body.contains("<img src=x"), "{path} shows a raw img tag");
        assert!(!body.contains("<b>Table</b>"), "{path} shows a raw table name");
    }
    let (_, body) = page(&app, "/tables/1");
    assert!(body.contains("&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;"), "{body}");
}

#[test]
fn the_sheet_shows_the_settlement_and_downloads_reconcile() {
    let app = spawn_app("sqlite");
    table_with_a_hand(&app, "Table 7", ["Ann", "Bo", "Cy", "Dee"]);
    let (status, html) = page(&app, "/tables/1/hands/1/sheet");
    assert_eq!(status, 200);
    for text in
        ["hand #1", "49.50", "capped", "fouled: back ace high is below middle two pair, nines and sevens", "2.00"]
    {
        assert!(html.contains(text), "the sheet lacks {text:?}");
    }
    let (status, csv_text) = page(&app, "/tables/1/hands/1/sheet.csv");
    assert_eq!(status, 200);
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(csv_text.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows[0].iter().take(4).collect::<Vec<_>>(), ["table", "hand", "line", "pass"]);
    // The transactions: paid sums by seat equal the seat rows' net + rake.
    let transactions: Vec<&csv::StringRecord> = rows.iter().skip(1).take_while(|r| &r[0] != "table").collect();
    assert_eq!(transactions.len(), 6);
    assert_eq!(transactions[0].iter().skip(6).collect::<Vec<_>>(), ["75.00", "49.50", "yes"]);
    let seats: Vec<&csv::StringRecord> = rows.iter().skip(transactions.len() + 2).collect();
    assert_eq!(seats.len(), 4);
    for seat in seats {
        let number = &seat[2];
        let received: f64 = transactions.iter().filter(|t| &t[5] == number).map(|t| t[7].parse::<f64>().unwrap()).sum();
        let paid: f64 = transactions.iter().filter(|t| &t[4] == number).map(|t| t[7].parse::<f64>().unwrap()).sum();
        let net: f64 = seat[7].parse().unwrap();
        let rake: f64 = seat[6].parse().unwrap();
        assert!((received - paid - (net + rake)).abs() < 1e-9, "seat {number}");
    }
    let (status, json) = page(&app, "/tables/1/hands/1/sheet.json");
    assert_eq!(status, 200);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["jackpot_contribution"], "0.40");
}

#[test]
fn a_sheet_for_an_open_hand_or_no_hand_is_refused() {
    let app = spawn_app("sqlite");
    table_with_a_hand(&app, "T", ["A", "B", "C", "D"]);
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    assert_eq!(page(&app, "/tables/1/hands/2/sheet").0, 409);
    // Voided before its showdown (a misdeal): a sheet that says so, no money moved.
    let void = r#"{"reason":"misdeal","note":"cards exposed"}"#;
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/2/void", void).0, 200);
    let (status, html) = page(&app, "/tables/1/hands/2/sheet");
    assert_eq!(status, 200);
    assert!(html.contains("class=\"void-stamp\"") && html.contains("no money moved"), "{html}");
    assert!(html.contains("Misdeal: cards exposed"), "{html}");
    assert_eq!(page(&app, "/tables/1/hands/9/sheet").0, 404);
    assert_eq!(page(&app, "/tables/9").0, 404);
    assert_eq!(page(&app, "/static/pitboss.css").0, 200);
    assert_eq!(page(&app, "/static/nope.css").0, 404);
}

/// POSTs a form as a browser without JavaScript would: (status, location, body).
fn post_form(app: &TestApp, path: &str, fields: &[(&str, &str)], origin: Option<&str>) -> (u16, String, String) {
    let mut headers = vec![
        ("Authorization".to_string(), format!("Bearer {}", app.token)),
        ("Content-Type".to_string(), "application/x-www-form-urlencoded".to_string()),
    ];
    if let Some(o) = origin {
        headers.push(("Origin".to_string(), o.to_string()));
    }
    let answer = crate::support::raw(app, "POST", path, &headers, &crate::support::form_encode(fields));
    (answer.status, answer.location().to_string(), answer.body)
}

#[test]
fn without_javascript_the_forms_check_preview_and_commit() {
    let app = spawn_app("sqlite");
    assert_eq!(
        request(&app, "POST", "/api/v1/tables", r#"{"name":"T","preset":"hawaiian-gardens","unit":"5"}"#).0,
        201
    );
    for (seat, buy_in) in [(1, "50"), (2, "100"), (3, "150"), (4, "200")] {
        let body = serde_json::json!({"seat": seat, "player": format!("P{seat}"), "buy_in": buy_in}).to_string();
        assert_eq!(request(&app, "POST", "/api/v1/tables/1/seats", &body).0, 201);
    }
    let origin = format!("http://{}", app.base);
    // Start the hand from the table page's form.
    let (status, location, _) = post_form(&app, "/tables/1/start-hand", &[], Some(&origin));
    assert_eq!((status, location.as_str()), (303, "/tables/1/hands/1/entry"));
    let rows = [
        ("qh qd 7c", "js jh jd 2s 2h", "5s 5h 5d 5c ad"),
        ("2c 3d 4h", "6c 7d 8h 9s 10c", "Ac Kc Qc Jc 9c"),
        ("as ks 3s", "kh kd 8d 8c 3h", "th td ts 4d 4c"),
        ("6h 6d 6s", "7h 7s 9h 9d 2d", "8s qs 4s ah 3c"),
    ];
    let mut fields: Vec<(String, String)> = vec![("key".into(), "form-key-1".into())];
    for (i, (front, middle, back)) in rows.iter().enumerate() {
        let seat = i + 1;
        fields.push((format!("seat{seat}.front"), front.to_string()));
        fields.push((format!("seat{seat}.middle"), middle.to_string()));
        fields.push((format!("seat{seat}.back"), back.to_string()));
        fields.push((format!("seat{seat}.aces_field"), "1".into()));
        fields.push((format!("seat{seat}.aces_bet"), "on".into()));
    }
    let as_refs = |extra: &[(&'static str, &'static str)], fields: &[(String, String)]| -> Vec<(String, String)> {
        let mut all = fields.to_vec();
        all.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        all
    };
    let send = |fields: &[(String, String)], origin: Option<&str>| {
        let refs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        post_form(&app, "/tables/1/hands/1/entry", &refs, origin)
    };
    // A duplicated card comes back next to its row, with the values kept.
    let mut broken = fields.clone();
    broken[2].1 = "js jh jd 2s 3h".into(); // seat 1 middle takes seat 3's 3h
    let (status, _, html) = send(&as_refs(&[("action", "preview")], &broken), Some(&origin));
    assert_eq!(status, 422);
    assert!(html.contains("3h appears twice: seat 1 middle and seat 3 middle"), "{html}");
    assert!(html.contains("value=\"js jh jd 2s 3h\""), "the typed values are kept");
    // Next to both rows (placed by seat and row, not read out of the words),
    // and summed up beside Commit.
    let note = |seat: i32, row: &str| {
        let id = format!("id=\"n{seat}-{row}\" for=\"s{seat}-{row}\">");
        let at = html.find(&id).unwrap_or_else(|| panic!("no note for seat {seat} {row}")) + id.len();
        html[at..at + html[at..].find("</output>").unwrap()].to_string()
    };
    assert!(note(1, "middle").contains("3h appears twice"));
    assert!(note(3, "middle").contains("3h appears twice"));
    assert!(note(2, "middle").is_empty());
    assert!(html.contains("<ul id=\"problems\" class=\"problems\"><li>3h appears twice"), "{html}");
    // A short row and text that is not a card, each named at its row.
    let mut short = fields.clone();
    short[3].1 = "5s 5h 5d 5c".into(); // seat 1 back: 4 cards
    short[6].1 = "2c 3d 4x".into(); // seat 2 front
    let (status, _, html) = send(&as_refs(&[("action", "preview")], &short), Some(&origin));
    assert_eq!(status, 422);
    assert!(html.contains("seat 1 back has 4 cards; it needs 5"), "{html}");
    assert!(html.contains("seat 2 front: &#34;4x&#34; (card 3) is not a card"), "{html}");
    // Compact text (`qhqd7c`) is read as cards.
    let mut compact = fields.clone();
    compact[1].1 = "qhqd7c".into();
    compact[2].1 = "jsjhjd2s2h".into();
    let (status, _, html) = send(&as_refs(&[("action", "preview")], &compact), Some(&origin));
    assert_eq!(status, 200, "{html}");
    // Preview: the foul in words and the settlement, nothing written.
    let (status, _, html) = send(&as_refs(&[("action", "preview")], &fields), Some(&origin));
    assert_eq!(status, 200);
    assert!(html.contains("Foul: back ace high is below middle two pair, nines and sevens"), "{html}");
    assert!(html.contains("100.00"), "seat 1 ends with 100.00 (50 doubled: the chip bound)");
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    assert_eq!(hand["status"], "open");
    // Another site's form, or one with no origin, is refused and writes nothing.
    let (status, _, _) = send(&as_refs(&[("action", "commit")], &fields), Some("http://evil.example"));
    assert_eq!(status, 403);
    let (status, _, _) = send(&as_refs(&[("action", "commit")], &fields), None);
    assert_eq!(status, 403);
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    assert_eq!(hand["status"], "open");
    // Commit: to the sheet; a repeat (same key) goes there too, once.
    let (status, location, _) = send(&as_refs(&[("action", "commit")], &fields), Some(&origin));
    assert_eq!((status, location.as_str()), (303, "/tables/1/hands/1/sheet"));
    let (status, location, _) = send(&as_refs(&[("action", "commit")], &fields), Some(&origin));
    assert_eq!((status, location.as_str()), (303, "/tables/1/hands/1/sheet"));
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    assert_eq!(hand["status"], "committed");
    assert_eq!(hand["result"]["seats"][0]["stack_end"], "100.00");
    // A page from before the commit sends other cards (a correction after
    // Back): refused and said, never a silent redirect to the old sheet.
    let mut corrected = fields.clone();
    corrected[18].1 = "8s qs 4s ah 2d".into(); // seat 4 swaps two cards
    corrected[17].1 = "7h 7s 9h 9d 3c".into();
    let (status, _, html) = send(&as_refs(&[("action", "commit")], &corrected), Some(&origin));
    assert_eq!(status, 409);
    assert!(html.contains("already committed") && html.contains("a floor supervisor can void it"), "{html}");
    assert!(html.contains("value=\"8s qs 4s ah 2d\""), "the typed values are kept");
    let (status, _, html) = send(&as_refs(&[("action", "preview")], &corrected), Some(&origin));
    assert_eq!(status, 409);
    assert!(html.contains("Hand #1 is already committed"), "{html}");
    let (_, after) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    assert_eq!(after["showdown"], hand["showdown"], "the committed hand changed");
}

#[test]
fn the_sheet_shows_each_seats_cards_as_committed() {
    let app = spawn_app("sqlite");
    table_with_a_hand(&app, "Table 7", ["Ann", "Bo", "Cy", "Dee"]);
    let (_, html) = page(&app, "/tables/1/hands/1/sheet");
    // canonical notation, in card order within each row (rank, then suit: s h d c)
    // each card in its suit's colour, with its suit's symbol
    assert!(
        html.contains(
            "<span class=\"c black\">7♣</span> <span class=\"c red\">Q♥</span> <span class=\"c red\">Q♦</span>"
        ),
        "{html}"
    );
    let (_, csv_text) = page(&app, "/tables/1/hands/1/sheet.csv");
    assert!(csv_text.contains("7c Qh Qd / 2s 2h Js Jh Jd / 5s 5h 5d 5c Ad"), "{csv_text}");
}

#[test]
fn a_tournament_tables_entry_form_records_penalties() {
    let app = spawn_app("sqlite");
    let table = r#"{"name":"Final","preset":"ofc","unit":"1","options":{"tournament":true}}"#;
    assert_eq!(request(&app, "POST", "/api/v1/tables", table).0, 201);
    for seat in [1, 2] {
        let body = serde_json::json!({"seat": seat, "player": format!("P{seat}"), "buy_in": "100"}).to_string();
        assert_eq!(request(&app, "POST", "/api/v1/tables/1/seats", &body).0, 201);
    }
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    let (_, html) = page(&app, "/tables/1/hands/1/entry");
    assert!(html.contains("name=\"seat1.missed_turns\"") && html.contains("name=\"seat2.dead_hand\""), "{html}");
    let origin = format!("http://{}", app.base);
    // Seat 1 (a jack-high back) missed a turn: it pays 3 and takes nothing from seat 2 (aces up front).
    let fields = [
        ("seat1.front", "2s 3h 4d"),
        ("seat1.middle", "5c 6s 7h 8d Tc"),
        ("seat1.back", "Js 9h 8c 6d 3c"),
        ("seat1.missed_turns", "1"),
        ("seat1.early_cards", ""),
        ("seat2.front", "Ah Ad Kc"),
        ("seat2.middle", "2h 2d 5h 5d 9c"),
        ("seat2.back", "Qs Qh Qd 4s 4h"),
        ("seat2.early_cards", "0"),
        ("action", "commit"),
    ];
    let (status, location, body) = post_form(&app, "/tables/1/hands/1/entry", &fields, Some(&origin));
    assert_eq!((status, location.as_str()), (303, "/tables/1/hands/1/sheet"), "{body}");
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    let seat1 = &hand["result"]["seats"][0];
    assert_eq!(seat1["penalties"], serde_json::json!(["missed-turn"]));
    let (_, table) = request(&app, "GET", "/api/v1/tables/1", "");
    assert_eq!(table["seats"][0]["stack"], "91.00", "seat 1 paid 9: {table}");
}

#[test]
fn a_browser_gets_errors_as_pages_and_the_api_keeps_json() {
    let app = spawn_app("sqlite");
    let dealer = app.user("dee", &["dealer"], &[]);
    let get = |path: &str, token: &str, accept: &str| {
        crate::support::raw(
            &app,
            "GET",
            path,
            &[("Authorization".to_string(), format!("Bearer {token}")), ("Accept".to_string(), accept.to_string())],
            "",
        )
    };
    let html = "text/html,application/xhtml+xml,*/*;q=0.8";
    let refused = get("/floor", &dealer, html);
    assert_eq!(refused.status, 403);
    assert!(refused.header("content-type").unwrap().starts_with("text/html"));
    assert!(
        refused.body.contains("<h1>Forbidden</h1>") && refused.body.contains("this needs the role floor"),
        "{}",
        refused.body
    );
    let missing = get("/tables/99", &app.token, html);
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("no table 99") && missing.body.contains("<!doctype html>"));
    // The API, and clients that do not ask for HTML, keep the JSON error.
    let api = get("/api/v1/tables/99", &app.token, html);
    assert_eq!(api.status, 404);
    assert!(api.body.starts_with("{\"error\""), "{}", api.body);
    let plain = get("/floor", &dealer, "*/*");
    assert!(plain.body.starts_with("{\"error\""));
}

#[test]
fn the_dealer_seats_players_adds_on_and_cashes_out_from_the_table_page() {
    let app = spawn_app("sqlite");
    assert_eq!(request(&app, "POST", "/api/v1/tables", r#"{"name":"T","preset":"simple","unit":"1"}"#).0, 201);
    let (_, html) = page(&app, "/tables/1");
    assert!(html.contains("action=\"/tables/1/seats/1/seat#seat-1\""), "an empty seat offers seating");
    let origin = format!("http://{}", app.base);
    let post = |path: &str, fields: &[(&str, &str)]| post_form(&app, path, fields, Some(&origin));
    assert_eq!(post("/tables/1/seats/1/seat", &[("player", "Ann"), ("amount", "100")]).1, "/tables/1");
    assert_eq!(post("/tables/1/seats/2/seat", &[("player", "Bo"), ("amount", "50.50")]).1, "/tables/1");
    assert_eq!(post("/tables/1/seats/2/add-on", &[("amount", "20")]).1, "/tables/1");
    // A bad amount comes back on the table page, named; nothing changes.
    let (status, _, html) = post("/tables/1/seats/2/add-on", &[("amount", "twenty")]);
    assert_eq!(status, 422);
    assert!(html.contains("is not an amount of money"), "{html}");
    // A conflict with the table as it is: 409, as through the API.
    let (status, _, html) = post("/tables/1/seats/1/seat", &[("player", "Cy"), ("amount", "10")]);
    assert_eq!(status, 409);
    assert!(html.contains("seat 1 is taken"), "{html}");
    let (_, table) = request(&app, "GET", "/api/v1/tables/1", "");
    let stacks: Vec<&str> = table["seats"].as_array().unwrap().iter().map(|s| s["stack"].as_str().unwrap()).collect();
    assert_eq!(stacks, ["100.00", "70.50"]);
    // A cash-out asks first (player and amount), and pays nothing yet.
    let (status, _, html) = post("/tables/1/seats/2/cash-out", &[]);
    assert_eq!(status, 200);
    assert!(html.contains("Cash out Bo?") && html.contains("70.50") && html.contains("name=\"confirm\""), "{html}");
    let (_, table) = request(&app, "GET", "/api/v1/tables/1", "");
    assert_eq!(table["seats"].as_array().unwrap().len(), 2);
    // Confirmed: paid, and a slip to sign with the amount the ledger took.
    let (status, to, _) = post("/tables/1/seats/2/cash-out", &[("confirm", "yes")]);
    assert_eq!(status, 303);
    assert!(to.starts_with("/tables/1/cash-outs/") && to.ends_with("/slip"), "on to the slip: {to}");
    let (_, html) = page(&app, &to);
    assert!(html.contains("Cash-out slip") && html.contains("70.50") && html.contains("Bo"), "{html}");
    let (_, table) = request(&app, "GET", "/api/v1/tables/1", "");
    assert_eq!(table["seats"].as_array().unwrap().len(), 1);
    // An empty seat has nothing to cash out: said in the seat's box.
    let (status, _, html) = post("/tables/1/seats/2/cash-out", &[("confirm", "yes")]);
    assert_eq!(status, 404);
    assert!(html.contains("seat-problem") && html.contains("seat 2 is empty"), "{html}");
    let (_, ledger) = request(&app, "GET", "/api/v1/tables/1/ledger", "");
    let cash_out = ledger.as_array().unwrap().iter().find(|r| r["kind"] == "cash_out").unwrap();
    assert_eq!(cash_out["amount"], "-70.50");
}
