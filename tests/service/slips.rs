//! Printable slips and the reports' CSV files (issue 16), through HTTP on each
//! backend: a jackpot hit's payout slip (the shares by seat and player, both
//! sign-offs, signature lines), a cash-out's slip at a stable address, every
//! report CSV as one table with a BOM in the page's column order and signs,
//! times in the casino's zone, and the jackpot chart's markers.

use std::net::TcpListener;

use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::support::{backends, expect, fresh_database, make_user, page, raw, request, Browser, TestApp};

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

/// The casino's zone of these tests' service (the tables' zone too).
const ZONE: &str = "Asia/Macau";

/// The app on a fresh `backend` database, its casino in `ZONE`, with `boss`
/// (every role) signed in by token.
fn spawn_casino(backend: &str) -> TestApp {
    let mut app = fresh_database(backend);
    let db = pitboss::db::connect(&app.database_url, 8).expect("database");
    app.token = make_user(&db, "boss", &["dealer", "floor", "accountant", "admin"], &[]);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    app.base = listener.local_addr().unwrap().to_string();
    let config = pitboss::config::Config { time_zone: ZONE.parse().unwrap(), ..pitboss::config::Config::default() };
    let service = pitboss::web::start(listener, db.clone(), &config).unwrap();
    crate::support::serve(&mut app, service.server);
    app.db = Some(db);
    app
}

/// The bad beat: seat 1 (straight flush, trips, pair) loses all three rows to seat 2.
const BAD_BEAT: &str = r#"{"seats":[
 {"seat":1,"front":"3c 3d 4c","middle":"2h 2d 2c 4h 5d","back":"5s 6s 7s 8s 9s"},
 {"seat":2,"front":"As Ad 8c","middle":"Ks Kd Kc 6h 7h","back":"Th Jh Qh Kh Ah"},
 {"seat":3,"front":"Qs Qd 2s","middle":"Ts Td Tc 3s 4s","back":"4d 6d 7d 8d 9d"},
 {"seat":4,"front":"8h 9h Qc","middle":"Js Jd Jc 3h 5h","back":"5c 6c 7c 9c Ac"}]}"#;

/// Pool 1 (seed 500, shares 50 / 30 / 20); table 1 "T1" in `ZONE`
/// (hawaiian-gardens, unit 1, rake 0.50 a seat, 0.10 of it to the pool) with
/// Ann, Ben, Cat and Dan, 100 each; hand 1 is the bad beat: hit 1 of
/// 500.00 + 4 × 0.10 = 500.40.
fn room_with_a_hit(app: &TestApp) -> Value {
    let pool = json!({"name": "Bad beat", "seed": "500", "shares": {"loser": 50, "winner": 30, "others": 20}});
    expect(app, "POST", "/api/v1/pools", &pool, 201);
    let t1 = json!({"name": "T1", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                    "jackpot_part": "0.10", "pool_id": 1, "time_zone": ZONE, "gaming_day_cutoff": "06:00"});
    expect(app, "POST", "/api/v1/tables", &t1, 201);
    for (seat, player) in [(1, "Ann"), (2, "Ben"), (3, "Cat"), (4, "Dan")] {
        expect(app, "POST", "/api/v1/tables/1/seats", &json!({"seat": seat, "player": player, "buy_in": "100"}), 201);
    }
    expect(app, "POST", "/api/v1/tables/1/hands", &json!({}), 201);
    let (status, answer) = request(app, "POST", "/api/v1/tables/1/hands/1/commit", BAD_BEAT);
    assert_eq!(status, 201, "{answer}");
    let hit = expect(app, "GET", "/api/v1/jackpots/1", &Value::Null, 200);
    assert_eq!(hit["amount"], "500.40", "{hit}");
    hit
}

/// A time the API gives (UTC, RFC 3339 or naive) in `ZONE` (UTC+8, no
/// daylight saving), to the minute.
fn in_macau(utc: &str) -> String {
    let naive = chrono::NaiveDateTime::parse_from_str(&utc[..19], "%Y-%m-%dT%H:%M:%S").unwrap();
    (naive + chrono::Duration::hours(8)).format("%Y-%m-%d %H:%M").to_string()
}

/// A page as a user signed in by token: (status, body).
fn get_as(app: &TestApp, token: &str, path: &str) -> (u16, String) {
    let answer = raw(app, "GET", path, &[("Authorization".to_string(), format!("Bearer {token}"))], "");
    (answer.status, answer.body)
}

/// The text of an HTML fragment: tags dropped, the entities askama writes undone.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&#x2f;", "/")
        .replace("&#47;", "/")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
        .replace("&#38;", "&")
        .trim()
        .to_string()
}

/// The `<th>` texts of the head of the table `id` on a page.
fn page_headings(html: &str, id: &str) -> Vec<String> {
    let at = html.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no table {id} on the page"));
    let head = &html[at..];
    let head = &head[head.find("<thead>").unwrap() + 7..head.find("</thead>").unwrap()];
    head.split("<th").skip(1).map(|cell| text(&format!("<th{}", &cell[..cell.find("</th>").unwrap()]))).collect()
}

/// A CSV download: checks the BOM and the single table (every row as wide as
/// the one header, which appears once); answers the header and the rows.
fn csv_table(app: &TestApp, path: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let answer = raw(app, "GET", path, &[("Authorization".to_string(), format!("Bearer {}", app.token))], "");
    assert_eq!(answer.status, 200, "{path}: {}", answer.body);
    assert_eq!(answer.header("content-type"), Some("text/csv; charset=utf-8"), "{path}");
    let bytes = answer.body.as_bytes();
    assert_eq!(&bytes[..3], &[0xEF, 0xBB, 0xBF], "{path} begins with the UTF-8 BOM");
    let mut reader = csv::ReaderBuilder::new().flexible(false).from_reader(&bytes[3..]);
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap_or_else(|e| panic!("{path}: {e}")).iter().map(str::to_string).collect())
        .collect();
    assert!(rows.iter().all(|r| *r != header), "{path}: one header row, no second section");
    (header, rows)
}

// ---------------------------------------------------------------------------

#[test]
fn a_jackpot_hit_has_a_payout_slip_with_each_share_and_both_sign_offs() {
    for backend in backends() {
        jackpot_slip(backend);
    }
}

fn jackpot_slip(backend: &str) {
    let app = spawn_casino(backend);
    let hit = room_with_a_hit(&app);
    let accountant = app.user("acc", &["accountant"], &[]);
    let dealer = app.user("dee", &["dealer"], &[1]);

    // Pending: the slip is there (with the plan) and says it is not paid.
    let (status, html) = get_as(&app, &accountant, "/jackpots/1/slip");
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("id=\"not-paid\"") && html.contains("NOT PAID"), "{html}");
    // A dealer does not read slips of hits; an unknown hit is 404.
    assert_eq!(get_as(&app, &dealer, "/jackpots/1/slip").0, 403);
    assert_eq!(page(&app, "/jackpots/99/slip").0, 404);

    // Two people sign off: flo approves, ada verifies and pays.
    let flo = app.person("flo", &["floor"], &[]);
    let ada = app.person("ada", &["admin"], &[]);
    expect(&flo, "POST", "/api/v1/jackpots/1/approve", &json!({}), 200);
    let paid = expect(&ada, "POST", "/api/v1/jackpots/1/verify", &json!({}), 200);
    assert_eq!(paid["status"], "paid");

    let (status, html) = get_as(&app, &accountant, "/jackpots/1/slip");
    assert_eq!(status, 200, "{html}");
    assert!(!html.contains("id=\"not-paid\""), "paid: no stamp");
    let slip = text(&html);
    // The hit: table, hand, gaming day and time in the casino's zone, amount, shares.
    assert!(slip.contains("T1") && slip.contains("#1") && slip.contains("Bad beat"), "{slip}");
    assert!(slip.contains(&in_macau(hit["created_at"].as_str().unwrap())), "the hit's time in {ZONE}: {slip}");
    assert!(slip.contains("CST") || slip.contains("+08"), "the zone named: {slip}");
    assert!(slip.contains("500.40"), "{slip}");
    assert!(slip.contains("loser 50% · winner 30% · other seats 20%"), "{slip}");
    // Each share, by seat and player, as computed here: 500.40 × 50% = 250.20
    // to the loser, × 30% = 150.12 to the winner, × 20% = 100.08 to the two
    // other seats, 50.04 (10%) each; and what the ledger paid, the same.
    let table_at = html.find("id=\"slip-shares-table\"").unwrap();
    let rows_html = &html[table_at..];
    let rows_html = &rows_html[rows_html.find("<tbody>").unwrap()..rows_html.find("</tbody>").unwrap()];
    let rows: Vec<Vec<String>> = rows_html
        .split("<tr>")
        .skip(1)
        .map(|r| r.split("<td").skip(1).map(|c| text(&format!("<td{c}"))).collect())
        .collect();
    let want = [
        ["1", "Ann", "loser", "50%", "250.20", "250.20"],
        ["2", "Ben", "winner", "30%", "150.12", "150.12"],
        ["3", "Cat", "other", "10%", "50.04", "50.04"],
        ["4", "Dan", "other", "10%", "50.04", "50.04"],
    ];
    assert_eq!(rows, want.map(|r| r.map(str::to_string).to_vec()).to_vec());
    let sum: Decimal = want.iter().map(|r| d(r[4])).sum();
    assert_eq!(sum, d("500.40"), "every cent of the hit");
    // The ledger agrees: the stacks grew by those shares.
    let ledger = expect(&app, "GET", "/api/v1/tables/1/ledger", &Value::Null, 200);
    let mut payouts: Vec<Decimal> = ledger
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "jackpot_payout")
        .map(|r| d(r["amount"].as_str().unwrap()))
        .collect();
    payouts.sort();
    assert_eq!(payouts, [d("50.04"), d("50.04"), d("150.12"), d("250.20")]);
    // Both sign-offs: who and when (in the casino's zone).
    let signoffs = {
        let at = html.find("id=\"slip-signoffs\"").unwrap();
        text(&html[at..at + html[at..].find("</dl>").unwrap()])
    };
    assert!(signoffs.contains("(flo)") && signoffs.contains("(ada)"), "{signoffs}");
    assert!(signoffs.contains(&in_macau(paid["approved"]["at"].as_str().unwrap())), "{signoffs}");
    assert!(signoffs.contains(&in_macau(paid["verified"]["at"].as_str().unwrap())), "{signoffs}");
    // Signature lines: one for each player paid, one for each signer.
    assert_eq!(html.matches("class=\"signature winner-signature\"").count(), 4);
    assert!(slip.contains("Seat 2: Ben, received 150.12"), "{slip}");
    assert!(slip.contains("Approved by") && slip.contains("Verified by"), "{slip}");
    assert_eq!(html.matches("<div class=\"signature").count(), 6);
    // Printable: the print stylesheet, a print button; no form on the slip.
    assert!(html.contains("href=\"/static/print.css\" media=\"print\"") && html.contains("data-print"));

    // After payment, the floor page still shows the breakdown, and links the slip.
    let (_, floor) = page(&app, "/floor");
    let decided = &floor[floor.find("id=\"decided-hit-1\"").expect("hit 1 among the decided")..];
    let decided = text(&decided[..decided.find("</tr>").unwrap()]);
    for part in ["seat 1 Ann (loser): 250.20", "seat 2 Ben (winner): 150.12", "seat 4 Dan (other): 50.04"] {
        assert!(decided.contains(part), "{part} in {decided}");
    }
    assert!(floor.contains("href=\"/jackpots/1/slip\""));
}

#[test]
fn a_cash_out_has_a_slip_at_its_own_address() {
    for backend in backends() {
        cash_out_slip(backend);
    }
}

fn cash_out_slip(backend: &str) {
    let app = spawn_casino(backend);
    let t = json!({"name": "T", "preset": "simple", "unit": "1", "time_zone": ZONE, "gaming_day_cutoff": "06:00"});
    expect(&app, "POST", "/api/v1/tables", &t, 201);
    expect(&app, "POST", "/api/v1/tables", &json!({"name": "Other", "preset": "simple", "unit": "1"}), 201);
    app.user("dee", &["dealer"], &[1]);
    app.user("don", &["dealer"], &[2]);
    let floor = app.user("flo", &["floor"], &[]);
    let accountant = app.user("acc", &["accountant"], &[]);
    // The dealer of table 1 seats Bo with 50.50, adds 20, and cashes him out from the page.
    let mut dee = Browser::signed_in(&app, "dee");
    dee.get("/tables/1");
    assert_eq!(dee.post("/tables/1/seats/2/seat", &[("player", "Bo"), ("amount", "50.50")]).status, 303);
    assert_eq!(dee.post("/tables/1/seats/2/add-on", &[("amount", "20")]).status, 303);
    let ask = dee.post("/tables/1/seats/2/cash-out", &[]);
    assert!(ask.status == 200 && ask.body.contains("Cash out Bo?"), "{}", ask.body);
    let done = dee.post("/tables/1/seats/2/cash-out", &[("confirm", "yes")]);
    assert_eq!(done.status, 303, "{}", done.body);
    let ledger = expect(&app, "GET", "/api/v1/tables/1/ledger", &Value::Null, 200);
    let row = ledger.as_array().unwrap().iter().find(|r| r["kind"] == "cash_out").unwrap().clone();
    assert_eq!(row["amount"], "-70.50");
    let slip_path = format!("/tables/1/cash-outs/{}/slip", row["id"]);
    assert_eq!(done.location(), slip_path, "on to the slip, at an address of its own");

    let slip = dee.get(&slip_path);
    assert_eq!(slip.status, 200, "{}", slip.body);
    assert!(slip.body.contains("cashed out from seat 2: 70.50"), "the notice: {}", slip.body);
    let html = slip.body;
    let fact = |id: &str| {
        let at = html.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no {id}"));
        text(&html[at + html[at..].find('>').unwrap() + 1..at + html[at..].find("</dd>").unwrap()])
    };
    assert_eq!(fact("slip-buy-in"), "50.50");
    assert_eq!(fact("slip-add-ons"), "20.00");
    assert_eq!(fact("slip-amount"), "70.50");
    assert_eq!(fact("slip-result"), "0.00", "70.50 − 50.50 − 20.00");
    assert!(fact("slip-by").contains("(dee)"), "{}", fact("slip-by"));
    assert!(fact("slip-at").starts_with(&in_macau(row["created_at"].as_str().unwrap())), "{}", fact("slip-at"));
    let all = text(&html);
    assert!(all.contains("Bo") && all.contains("Player: Bo") && all.contains("Dealer or floor"), "{all}");

    // Who may see it: the table's dealer and the floor; not another table's
    // dealer, not the accountant. Another row's id, or another table's, is 404.
    assert_eq!(get_as(&app, &floor, &slip_path).0, 200);
    let don = Browser::signed_in(&app, "don").get(&slip_path);
    assert_eq!(don.status, 403, "{}", don.body);
    assert_eq!(get_as(&app, &accountant, &slip_path).0, 403);
    let buy_in = ledger.as_array().unwrap().iter().find(|r| r["kind"] == "buy_in").unwrap()["id"].clone();
    assert_eq!(page(&app, &format!("/tables/1/cash-outs/{buy_in}/slip")).0, 404);
    assert_eq!(page(&app, &format!("/tables/2/cash-outs/{}/slip", row["id"])).0, 404);
    assert_eq!(page(&app, "/tables/1/cash-outs/99999/slip").0, 404);

    // A cash-out through the API has its slip too, naming who did it.
    expect(&app, "POST", "/api/v1/tables/1/seats", &json!({"seat": 3, "player": "Cy", "buy_in": "10"}), 201);
    expect(&app, "POST", "/api/v1/tables/1/seats/3/cash-out", &Value::Null, 200);
    let ledger = expect(&app, "GET", "/api/v1/tables/1/ledger", &Value::Null, 200);
    let second = ledger.as_array().unwrap().iter().rev().find(|r| r["kind"] == "cash_out").unwrap()["id"].clone();
    let (status, html) = page(&app, &format!("/tables/1/cash-outs/{second}/slip"));
    assert_eq!(status, 200);
    let all = text(&html);
    assert!(all.contains("Cy") && all.contains("10.00") && all.contains("(boss)"), "{all}");
}

#[test]
fn every_report_csv_is_one_table_with_a_bom_in_the_pages_order() {
    for backend in backends() {
        report_csvs(backend);
    }
}

fn report_csvs(backend: &str) {
    let app = spawn_casino(backend);
    let hit = room_with_a_hit(&app);
    // Ann adds 25 and leaves (she pays her jackpot share in the loss first:
    // the hit is rejected so her seat may cash out).
    let flo = app.person("flo", &["floor"], &[]);
    expect(&flo, "POST", "/api/v1/jackpots/1/reject", &json!({"reason": "camera check failed"}), 200);
    expect(&app, "POST", "/api/v1/tables/1/seats/1/add-on", &json!({"amount": "25"}), 200);
    expect(&app, "POST", "/api/v1/tables/1/seats/1/cash-out", &Value::Null, 200);
    let rake = expect(&app, "GET", "/reports/rake.json", &Value::Null, 200);
    let (from, to) = (rake["from"].as_str().unwrap().to_string(), rake["to"].as_str().unwrap().to_string());
    let q = format!("from={from}&to={to}");

    // Each CSV file against the page's table of the same name.
    let files = [
        ("/reports/rake", "/reports/rake.csv", "rake-table"),
        ("/reports/jackpots", "/reports/jackpots.csv", "pools-table"),
        ("/reports/jackpots", "/reports/jackpot-hits.csv", "hits-table"),
        ("/reports/sessions", "/reports/sessions.csv", "sessions-table"),
    ];
    let mut tables = std::collections::HashMap::new();
    for (page_path, csv_path, id) in files {
        let (status, html) = page(&app, &format!("{page_path}?{q}"));
        assert_eq!(status, 200, "{html}");
        let link = format!("href=\"{csv_path}?{}\"", q.replace('&', "&#38;"));
        assert!(
            html.contains(&link),
            "{page_path} offers {csv_path}: {link} in {}",
            &html[html.find("downloads").unwrap_or(0)..][..300]
        );
        let (header, rows) = csv_table(&app, &format!("{csv_path}?{q}"));
        assert_eq!(header, page_headings(&html, id), "{csv_path}: the page's columns, in its order");
        tables.insert(csv_path, (header, rows));
    }
    let column = |file: &str, name: &str| tables[file].0.iter().position(|h| h == name).unwrap();
    let cell = |file: &str, row: usize, name: &str| tables[file].1[row][column(file, name)].clone();

    // Rake: one hand, 4 seats × 0.50 = 2.00, 0.40 of it to the pool, 1.60 the house's.
    let (_, rows) = &tables["/reports/rake.csv"];
    assert_eq!(rows.len(), 2, "the day's row and the totals");
    assert_eq!(
        rows[0][1..].to_vec(),
        ["T1", "1", "2.00", "1.60", "0.40", "open"].map(str::to_string).to_vec(),
        "{rows:?}"
    );
    assert_eq!(rows[1][0], "Total");

    // Pools: locked is taken out, negative as on the page: the hit of 500.40.
    assert_eq!(cell("/reports/jackpots.csv", 0, "Pool"), "Bad beat");
    assert_eq!(cell("/reports/jackpots.csv", 0, "Locked"), "-500.40");
    assert_eq!(cell("/reports/jackpots.csv", 0, "Returned"), "500.40", "rejected: back in the pool");
    // Opening 0 + seeds 500 (made) + 500 (re-seed after the hit) + 0.40 − 500.40 + 500.40.
    assert_eq!(cell("/reports/jackpots.csv", 0, "Closing"), "1000.40");
    let (_, pools_page) = page(&app, &format!("/reports/jackpots?{q}"));
    assert!(pools_page.contains("<td class=\"num\">-500.40</td>"), "the page's sign");

    // Hits: the time in the casino's zone (the header names it).
    let at = format!("Locked at ({ZONE})");
    assert_eq!(cell("/reports/jackpot-hits.csv", 0, &at), in_macau(hit["created_at"].as_str().unwrap()));
    assert_eq!(cell("/reports/jackpot-hits.csv", 0, "Amount"), "500.40");
    assert_eq!(cell("/reports/jackpot-hits.csv", 0, "Status"), "rejected");
    assert_eq!(cell("/reports/jackpot-hits.csv", 1, "Hit"), "Total");

    // Sessions: Ann bought in 100, added 25, lost the bad beat and cashed out.
    let sessions = &tables["/reports/sessions.csv"].1;
    assert_eq!(sessions.len(), 5, "four seatings and the totals");
    let ann = sessions.iter().position(|r| r[column("/reports/sessions.csv", "Player")] == "Ann").unwrap();
    assert_eq!(cell("/reports/sessions.csv", ann, "Buy-in"), "100.00");
    assert_eq!(cell("/reports/sessions.csv", ann, "Add-ons"), "25.00");
    assert_eq!(cell("/reports/sessions.csv", ann, "Status"), "cashed out");
    let ledger = expect(&app, "GET", "/api/v1/tables/1/ledger", &Value::Null, 200);
    let seated = ledger.as_array().unwrap().iter().find(|r| r["kind"] == "buy_in").unwrap();
    assert_eq!(
        cell("/reports/sessions.csv", ann, &format!("Seated ({ZONE})")),
        in_macau(seated["created_at"].as_str().unwrap())
    );
    let cash_out = ledger.as_array().unwrap().iter().find(|r| r["kind"] == "cash_out").unwrap();
    let out = -d(cash_out["amount"].as_str().unwrap());
    assert_eq!(cell("/reports/sessions.csv", ann, "Cash-out"), format!("{out:.2}"));
    // Net = cash-out + stack − buy-in − add-ons: negative, with its sign.
    let net = out - d("125");
    assert!(net.is_sign_negative());
    assert_eq!(cell("/reports/sessions.csv", ann, "Net"), format!("{net:.2}"));
    assert_eq!(sessions[4][0], "Total");
    assert_eq!(sessions[4][1], "4 sessions");

    // A name that looks like a formula stays text in the file.
    expect(&app, "POST", "/api/v1/tables/1/seats", &json!({"seat": 1, "player": "=SUM(A1)", "buy_in": "5"}), 201);
    let (_, rows) = csv_table(&app, &format!("/reports/sessions.csv?{q}"));
    assert!(rows.iter().any(|r| r.contains(&"'=SUM(A1)".to_string())), "{rows:?}");
}

#[test]
fn the_jackpot_chart_marks_each_hit_and_seed() {
    for backend in backends() {
        let app = spawn_casino(backend);
        let hit = room_with_a_hit(&app);
        let answer =
            raw(&app, "GET", "/reports/jackpots.svg", &[("Authorization".into(), format!("Bearer {}", app.token))], "");
        assert_eq!(answer.status, 200);
        let svg = answer.body;
        // The hit, and two seeds: when the pool was made and after the hit locked it.
        assert_eq!(svg.matches("<g class=\"mark hit\"").count(), 1, "{svg}");
        assert_eq!(svg.matches("<g class=\"mark seed\"").count(), 2, "{svg}");
        // Its time in the casino's zone.
        let at = in_macau(hit["created_at"].as_str().unwrap());
        assert!(svg.contains(&format!("Bad beat: hit 1: 500.40, T1 hand #1 (pending) at {at} CST")), "{svg}");
        assert!(svg.contains("Bad beat: seed 500.00 at "), "{svg}");
        let (_, html) = page(&app, "/reports/jackpots");
        assert!(html.contains("<g class=\"mark hit\""), "the page's chart too");
    }
}
