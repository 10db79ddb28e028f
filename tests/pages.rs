//! The dealer's pages: every user-provided text escaped, the settlement
//! sheet's numbers, and its CSV and JSON downloads.

mod support;

use support::{request, spawn_app, TestApp};

/// GET a page: (status, body text).
fn page(app: &TestApp, path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(&app.base).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", app.base).unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let text = String::from_utf8_lossy(&response).to_string();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text.split_once("\r\n\r\n").map(|x| x.1.to_string()).unwrap_or_default())
}

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
    assert_eq!(page(&app, "/tables/1/hands/9/sheet").0, 404);
    assert_eq!(page(&app, "/tables/9").0, 404);
    assert_eq!(page(&app, "/static/pitboss.css").0, 200);
    assert_eq!(page(&app, "/static/nope.css").0, 404);
}
