//! The dealer screen in headless Chromium (Debian's `chromium` and
//! `chromium-driver`, installed by `.ci/run`): key in a four-seat showdown,
//! see the foul, correct it, commit, and read the settlement sheet; the
//! whole showdown on one tablet screen, compact card text and the keystrokes
//! it takes, problems where the dealer looks, a hand that survives a reload
//! and a sign-in, the jackpot in the preview, the sheet on a tablet and on
//! paper, voids, cash-outs, the floor's pit board. Screenshots go to `target/screenshots/` at
//! 1024×768 (a tablet), 1366×768 and 390×844 (a phone).
//!
//! Outside CI the test is skipped when chromedriver is not installed; in CI
//! (`CI` set) a missing browser is a failure.

#[path = "../support/mod.rs"]
mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::{Client, ClientBuilder, Locator};
use support::{request, spawn_app, TestApp, PASSWORD};

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn chromedriver() -> Option<(Driver, u16)> {
    let binary = ["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists());
    let Some(binary) = binary else {
        assert!(std::env::var("CI").is_err(), "CI must have chromium-driver installed (.ci/run installs it)");
        eprintln!("skipping: chromedriver is not installed (apt-get install chromium chromium-driver)");
        return None;
    };
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child =
        Command::new(binary).arg(format!("--port={port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((Driver(child), port))
}

async fn browser(port: u16, profile: &std::path::Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        serde_json::json!({
            "binary": "/usr/bin/chromium",
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                     "--window-size=1100,1500", format!("--user-data-dir={}", profile.display())]
        }),
    );
    ClientBuilder::native()
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a browser session")
}

async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Waits until `check` passes (the page updates after a debounce and a fetch).
/// The deadline is generous: on a loaded two-core machine a check, a commit
/// and the next page load took over 10 s once, and a full CI run once
/// passed 30 s (the same test alone: 4 s); a passing check returns at once.
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(60);
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn text_of(client: &Client, css: &str) -> String {
    match client.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// The text next to every row of the entry page.
async fn row_notes(client: &Client) -> Vec<String> {
    let mut notes = Vec::new();
    for note in client.find_all(Locator::Css(".row-note")).await.unwrap() {
        notes.push(note.text().await.unwrap_or_default());
    }
    notes
}

/// Signs `username` in through the sign-in page.
async fn sign_in(client: &Client, base: &str, username: &str) {
    client.goto(&format!("{base}/login")).await.unwrap();
    client.find(Locator::Css("input[name=username]")).await.unwrap().send_keys(username).await.unwrap();
    let password = client.find(Locator::Css("input[name=password]")).await.unwrap();
    password.send_keys(PASSWORD).await.unwrap();
    password.send_keys("\u{E007}").await.unwrap(); // Enter submits
    eventually("the signed-in home page", || async {
        client.current_url().await.unwrap().path() == "/" && text_of(client, ".who .user").await == username
    })
    .await;
}

/// Sets the page's viewport (not the window) to `width`×`height` CSS pixels.
async fn viewport(client: &Client, width: i64, height: i64) {
    let inner = || async {
        let v = client.execute("return [window.innerWidth, window.innerHeight]", vec![]).await.unwrap();
        (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
    };
    client.set_window_size(width as u32, height as u32).await.unwrap();
    // The window's frame takes some room, and a resize may land a moment
    // later on a busy machine: measure, correct, measure again.
    for _ in 0..20 {
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        let (w, h) = inner().await;
        if (w, h) == (width, height) {
            return;
        }
        let (outer_w, outer_h) = client.get_window_size().await.unwrap();
        let fix = |outer: u64, want: i64, got: i64| (outer as i64 + want - got).max(100) as u32;
        client.set_window_size(fix(outer_w, width, w), fix(outer_h, height, h)).await.unwrap();
    }
    assert_eq!(inner().await, (width, height), "the viewport");
}

/// Types `keys` key by key, as a person at a keyboard would, into whatever
/// has the focus at each key; answers the number of keystrokes.
async fn type_keys(client: &Client, keys: &str) -> usize {
    let mut actions = KeyActions::new("keyboard".to_string());
    for c in keys.chars() {
        actions = actions.then(KeyAction::Down { value: c }).then(KeyAction::Up { value: c });
    }
    client.perform_actions(actions).await.unwrap();
    keys.chars().count()
}

/// Runs `script` (a function body) in the page and answers its value.
async fn js(client: &Client, script: &str) -> serde_json::Value {
    client.execute(script, vec![]).await.unwrap()
}

/// The page scrolls neither way, and every element `css` names is wholly
/// in view: `Err` names what is not.
async fn all_in_view(client: &Client, css: &str) -> Result<(), String> {
    let script = format!(
        "const d = document.documentElement; const out = [];
         if (d.scrollHeight > innerHeight) out.push(`the page is ${{d.scrollHeight}} px high in ${{innerHeight}}`);
         if (d.scrollWidth > innerWidth) out.push(`the page is ${{d.scrollWidth}} px wide in ${{innerWidth}}`);
         for (const e of document.querySelectorAll({css:?})) {{
           const r = e.getBoundingClientRect();
           if (r.width === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
             out.push(`${{e.id || e.name || e.className}} at ${{Math.round(r.left)}},${{Math.round(r.top)}}–${{Math.round(r.right)}},${{Math.round(r.bottom)}}`);
         }}
         return out;"
    );
    let out = js(client, &script).await;
    let problems: Vec<String> =
        out.as_array().unwrap().iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// Whether the element `css` names is wholly inside the viewport.
async fn in_view(client: &Client, css: &str) -> bool {
    let script = format!(
        "const e = document.querySelector({css:?}); if (!e) return false; const r = e.getBoundingClientRect();
         return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;"
    );
    js(client, &script).await == serde_json::json!(true)
}

/// A row input of the entry page.
async fn row_input(client: &Client, seat: usize, row: &str) -> fantoccini::elements::Element {
    client.find(Locator::Css(&format!(".seat-entry[data-seat='{seat}'] [data-field={row}]"))).await.unwrap()
}

async fn value_of(client: &Client, seat: usize, row: &str) -> String {
    row_input(client, seat, row).await.prop("value").await.unwrap().unwrap_or_default()
}

async fn path_of(client: &Client) -> String {
    client.current_url().await.unwrap().path().to_string()
}

/// Every row of `rows` typed into its input (seats from 1).
async fn fill_rows(client: &Client, rows: &[[&str; 3]]) {
    for (seat, cards) in rows.iter().enumerate() {
        for (row, text) in ["front", "middle", "back"].iter().zip(cards) {
            let input = row_input(client, seat + 1, row).await;
            input.clear().await.unwrap();
            input.send_keys(text).await.unwrap();
        }
    }
}

/// Table 7 set up, hand 1 started, its entry page open in a new browser.
async fn open_entry(port: u16) -> (TestApp, tempfile::TempDir, Client) {
    open_entry_with(port, set_up).await
}

/// A table set up by `set_up`, hand 1 started, its entry page open in a new
/// browser (the profile directory lives as long as the returned guard).
async fn open_entry_with(port: u16, set_up: impl FnOnce(&TestApp)) -> (TestApp, tempfile::TempDir, Client) {
    let app = spawn_app("sqlite");
    set_up(&app);
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    let profile = tempfile::tempdir().unwrap();
    let client = browser(port, profile.path()).await;
    sign_in(&client, &format!("http://{}", app.base), "boss").await;
    client.goto(&format!("http://{}/tables/1/hands/1/entry", app.base)).await.unwrap();
    (app, profile, client)
}

/// A table (`table` as JSON) with players P1.. in seats 1..=`players`, 100 each.
fn seated_table(app: &TestApp, table: &str, players: i32) {
    assert_eq!(request(app, "POST", "/api/v1/tables", table).0, 201);
    for seat in 1..=players {
        let body = format!(r#"{{"seat":{seat},"player":"P{seat}","buy_in":"100"}}"#);
        assert_eq!(request(app, "POST", "/api/v1/tables/1/seats", &body).0, 201);
    }
}

fn set_up(app: &TestApp) {
    assert_eq!(request(app, "POST", "/api/v1/pools", r#"{"name":"Bad beat","seed":"500"}"#).0, 201);
    let table = r#"{"name":"Table 7","preset":"hawaiian-gardens","unit":"5","rake_per_seat":"0.50","jackpot_part":"0.10","pool_id":1}"#;
    assert_eq!(request(app, "POST", "/api/v1/tables", table).0, 201);
    for (seat, player, buy_in) in [(1, "Ann", "50"), (2, "Bo", "100"), (3, "Cy", "150"), (4, "Dee", "200")] {
        let body = format!(r#"{{"seat":{seat},"player":"{player}","buy_in":"{buy_in}"}}"#);
        assert_eq!(request(app, "POST", "/api/v1/tables/1/seats", &body).0, 201);
    }
}

/// Rows per seat, typed the way a dealer would (mixed case, `10`, commas).
const ROWS: [[&str; 3]; 4] = [
    ["qh qd 7c", "js jh jd 2s 2h", "5s 5h 5d 5c ad"],
    ["2c 3d 4h", "6c 7d 8h 9s 10c", "Ac Kc Qc Jc 9c"],
    ["as ks 3s", "kh kd 8d 8c 3h", "th td ts 4d 4c"],
    // seat 4 sets its two pair above its ace-high back: a foul
    ["6h 6d 6s", "7h 7s 9h 9d 2d", "8s,qs,4s,ah,3c"],
];

#[actix_web::test]
async fn a_dealer_keys_in_a_showdown_fixes_a_foul_commits_and_reads_the_sheet() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    set_up(&app);
    app.user("dee", &["dealer"], &[1]);
    let profile = tempfile::tempdir().unwrap();
    let client = browser(port, profile.path()).await;
    let base = format!("http://{}", app.base);
    // A dealer signs in (their table: 1).
    sign_in(&client, &base, "dee").await;

    // The table view: start the hand with its button.
    client.goto(&format!("{base}/tables/1")).await.unwrap();
    screenshot(&client, "table").await;
    client.find(Locator::Css("button.start-hand")).await.unwrap().click().await.unwrap();
    eventually("the entry page", || async { client.current_url().await.unwrap().path().ends_with("/hands/1/entry") })
        .await;

    // Key in every row with Enter after each, starting from the focused
    // front of seat 1. A full row moves on by itself; the Enter typed after
    // it does not skip the next row.
    for rows in ROWS {
        for row in rows {
            type_keys(&client, &format!("{row}\u{E007}")).await;
        }
    }
    for (seat, rows) in ROWS.iter().enumerate() {
        assert_eq!(
            value_of(&client, seat + 1, "front").await.to_lowercase(),
            rows[0].to_lowercase(),
            "seat {}",
            seat + 1
        );
    }
    // The last Enter goes to Commit; nothing is committed yet.
    assert_eq!(client.active_element().await.unwrap().attr("id").await.unwrap().as_deref(), Some("commit"));
    eventually("the foul next to its seat, with a legal setting beside Commit", || async {
        let note = text_of(&client, ".seat-entry[data-seat='4'] .seat-note").await;
        let summary = text_of(&client, "#summary").await;
        note.contains("back ace high is below middle two pair")
            && summary.contains("Dee (seat 4): Foul: back ace high is below middle two pair")
            && summary.contains("a legal setting was: front")
    })
    .await;
    screenshot(&client, "entry-foul").await;

    // A duplicated card is named next to its row and the commit is disabled.
    let middle1 = client.find(Locator::Css(".seat-entry[data-seat='1'] [data-field=middle]")).await.unwrap();
    middle1.clear().await.unwrap();
    middle1.send_keys("js jh jd 2s 3h").await.unwrap(); // 3h is seat 3's
    eventually("the duplicate card named next to its row", || async {
        row_notes(&client).await.iter().any(|n| n.contains("3h appears twice: seat 1 middle and seat 3 middle"))
    })
    .await;
    screenshot(&client, "entry-duplicate").await;
    let commit = client.find(Locator::Id("commit")).await.unwrap();
    assert_eq!(commit.attr("aria-disabled").await.unwrap().as_deref(), Some("true"));
    assert!(text_of(&client, "#summary").await.contains("3h appears twice"), "summed up beside Commit");
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    assert_eq!(hand["status"], "open");
    middle1.clear().await.unwrap();
    middle1.send_keys("js jh jd 2s 2h").await.unwrap();

    // Correct the foul: two pair in back, a pair of sixes in the middle, a low front.
    for (row, cards) in [("front", "4s 3c 2d"), ("middle", "6h 6d ah qs 8s"), ("back", "7h 7s 9h 9d 6s")] {
        let input = client.find(Locator::Css(&format!(".seat-entry[data-seat='4'] [data-field={row}]"))).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(cards).await.unwrap();
    }
    eventually("the commit button, with no foul left", || async {
        client.find(Locator::Id("commit")).await.unwrap().attr("aria-disabled").await.unwrap().as_deref()
            == Some("false")
            && text_of(&client, ".seat-entry[data-seat='4'] .seat-note").await.is_empty()
    })
    .await;
    screenshot(&client, "entry-ready").await;
    client.find(Locator::Id("commit")).await.unwrap().click().await.unwrap();
    eventually("the settlement sheet", || async {
        client.current_url().await.unwrap().path().ends_with("/hands/1/sheet")
    })
    .await;
    screenshot(&client, "sheet").await;

    // The sheet's numbers are the committed result's.
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    assert_eq!(hand["status"], "committed");
    assert!(hand["result"]["seats"].as_array().unwrap().iter().all(|s| s["fouled"] == false), "{hand}");
    let body = client.find(Locator::Css("main")).await.unwrap().text().await.unwrap();
    for seat in hand["result"]["seats"].as_array().unwrap() {
        let end: rust_decimal::Decimal = seat["stack_end"].as_str().unwrap().parse().unwrap();
        assert!(body.contains(&format!("{end:.2}")), "the sheet lacks seat {}'s end stack {end:.2}", seat["seat"]);
    }
    for t in hand["result"]["transactions"].as_array().unwrap() {
        let paid: rust_decimal::Decimal = t["paid"].as_str().unwrap().parse().unwrap();
        assert!(body.contains(&format!("{paid:.2}")), "the sheet lacks a payment of {paid:.2}");
    }
    client.close().await.unwrap();
}

#[actix_web::test]
async fn the_bank_hand_is_set_by_the_house_way() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) =
        open_entry_with(port, |app| seated_table(app, r#"{"name":"Bank","preset":"banker","unit":"1"}"#, 3)).await;
    // The dealer (seat 1, the bank) types its 13 cards into the rows in any order.
    let cards = ["As Ad Ah", "Ac Kd Qh Jc 9s", "8d 7h 5c 4s 2d"];
    for (row, text) in ["front", "middle", "back"].iter().zip(cards) {
        let input = client.find(Locator::Css(&format!(".seat-entry[data-seat='1'] [data-field={row}]"))).await.unwrap();
        input.send_keys(text).await.unwrap();
    }
    client.find(Locator::Css("button.house-way")).await.unwrap().click().await.unwrap();
    let analyse = serde_json::json!({"ruleset": "banker", "cards": cards.join(" ")}).to_string();
    let (_, expected) = request(&app, "POST", "/api/v1/analyse", &analyse);
    let want = expected["house_setting"]["middle"].as_str().unwrap().to_string();
    eventually("the house setting in the rows", || async {
        let middle = client.find(Locator::Css(".seat-entry[data-seat='1'] [data-field=middle]")).await.unwrap();
        middle.prop("value").await.unwrap().as_deref() == Some(want.as_str())
    })
    .await;
    for row in ["front", "back"] {
        let input = client.find(Locator::Css(&format!(".seat-entry[data-seat='1'] [data-field={row}]"))).await.unwrap();
        assert_eq!(input.prop("value").await.unwrap().as_deref(), expected["house_setting"][row].as_str());
    }
    screenshot(&client, "entry-bank-house-way").await;
    client.close().await.unwrap();
}

#[actix_web::test]
async fn a_scanner_fills_slot_after_slot_and_the_picker_greys_used_cards() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (_app, _profile, client) = open_entry(port).await;

    // The picker greys cards typed anywhere at the table.
    client.find(Locator::Css("#picker-box summary")).await.unwrap().click().await.unwrap();
    let front1 = client.find(Locator::Css(".seat-entry[data-seat='1'] [data-field=front]")).await.unwrap();
    front1.send_keys("qh 10d").await.unwrap();
    eventually("Qh and Td greyed in the picker", || async {
        let qh = client.find(Locator::Css("#picker button[data-card='Qh']")).await.unwrap();
        let td = client.find(Locator::Css("#picker button[data-card='Td']")).await.unwrap();
        qh.attr("disabled").await.unwrap().is_some() && td.attr("disabled").await.unwrap().is_some()
    })
    .await;
    let qs = client.find(Locator::Css("#picker button[data-card='Qs']")).await.unwrap();
    assert!(qs.attr("disabled").await.unwrap().is_none(), "an unused card is not greyed");
    // Clicking a card puts it into the row being entered.
    front1.click().await.unwrap();
    qs.click().await.unwrap();
    assert_eq!(front1.prop("value").await.unwrap().as_deref(), Some("qh 10d Qs"));
    screenshot(&client, "entry-picker").await;
    front1.clear().await.unwrap();

    // A keyboard-wedge scanner types each card and Enter into the scan box:
    // each scan fills the next empty slot, seat by seat, row by row.
    let scan = client.find(Locator::Css("#scan")).await.unwrap();
    let mut deal = Vec::new();
    for rows in ROWS {
        for row in rows {
            deal.extend(row.split([' ', ',']).filter(|t| !t.is_empty()).map(str::to_string));
        }
    }
    for card in &deal {
        scan.send_keys(&format!("{card}\u{E007}")).await.unwrap();
    }
    // The same card scanned again is flagged and not doubled.
    scan.send_keys("QH\u{E007}").await.unwrap();
    eventually("the double scan flagged", || async {
        text_of(&client, "#scan-note").await.contains("Qh is already on the table")
    })
    .await;
    for (seat, rows) in ROWS.iter().enumerate() {
        for (row, typed) in ["front", "middle", "back"].iter().zip(rows) {
            let input = client
                .find(Locator::Css(&format!(".seat-entry[data-seat='{}'] [data-field={row}]", seat + 1)))
                .await
                .unwrap();
            let value = input.prop("value").await.unwrap().unwrap_or_default();
            let want: Vec<String> = typed
                .split([' ', ','])
                .filter(|t| !t.is_empty())
                .map(|t| pitboss::engine::card::Card::parse(t, 1).unwrap().to_string())
                .collect();
            assert_eq!(value, want.join(" "), "seat {} {row}", seat + 1);
        }
    }
    // Every card of the deck is now used: the whole picker is grey.
    let greyed = client.find_all(Locator::Css("#picker button:disabled")).await.unwrap().len();
    assert_eq!(greyed, 52);
    eventually("the preview (seat 4 fouls as scanned)", || async {
        text_of(&client, ".seat-entry[data-seat='4'] .seat-note").await.contains("Foul: back ace high")
    })
    .await;
    screenshot(&client, "entry-scanned").await;
    client.close().await.unwrap();
}

#[actix_web::test]
async fn cards_posted_by_a_shoe_appear_in_their_rows() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    for (seat, row, card) in [(2, "middle", "6c"), (2, "middle", "7d"), (3, "back", "Th")] {
        let body = format!(r#"{{"seat":{seat},"row":"{row}","card":"{card}"}}"#);
        assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/1/scans", &body).0, 201);
    }
    eventually("the shoe's cards in their rows", || async {
        let middle = client.find(Locator::Css(".seat-entry[data-seat='2'] [data-field=middle]")).await.unwrap();
        let back = client.find(Locator::Css(".seat-entry[data-seat='3'] [data-field=back]")).await.unwrap();
        middle.prop("value").await.unwrap().as_deref() == Some("6c 7d")
            && back.prop("value").await.unwrap().as_deref() == Some("Th")
    })
    .await;
    let greyed = client.find(Locator::Css("#picker button[data-card='Th']")).await.unwrap();
    assert!(greyed.attr("disabled").await.unwrap().is_some());
    client.close().await.unwrap();
}

#[actix_web::test]
async fn pineapple_discards_are_entered_and_checked_for_duplicates() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry_with(port, |app| {
        seated_table(app, r#"{"name":"P","preset":"ofc-pineapple","unit":"1","seat_count":3}"#, 2)
    })
    .await;
    let rows = [
        (1, ["6s 6h 4d", "Ts Th 9d Qs 8h", "3s 3h 3d 2s 2h"], "Kd Kc"),
        (2, ["As Kh Qd", "9s 9h 5d 5c 4h", "Kc Jc 8c 7c 2c"], "7s"),
    ];
    for (seat, cards, discards) in rows {
        for (row, text) in ["front", "middle", "back"].iter().zip(cards) {
            let input = client
                .find(Locator::Css(&format!(".seat-entry[data-seat='{seat}'] [data-field={row}]")))
                .await
                .unwrap();
            input.send_keys(text).await.unwrap();
        }
        let input =
            client.find(Locator::Css(&format!(".seat-entry[data-seat='{seat}'] [data-field=discards]"))).await.unwrap();
        input.send_keys(discards).await.unwrap();
    }
    // Seat 1 discarded Kc, which seat 2 set in its back: named next to a row.
    eventually("the discarded card named twice", || async {
        row_notes(&client).await.iter().any(|n| n.contains("Kc appears twice: seat 1 discards and seat 2 back"))
    })
    .await;
    let discards = client.find(Locator::Css(".seat-entry[data-seat='1'] [data-field=discards]")).await.unwrap();
    discards.clear().await.unwrap();
    discards.send_keys("Kd 6d").await.unwrap();
    eventually("the commit button", || async {
        client.find(Locator::Id("commit")).await.unwrap().attr("aria-disabled").await.unwrap().as_deref()
            == Some("false")
    })
    .await;
    client.find(Locator::Id("commit")).await.unwrap().click().await.unwrap();
    eventually("the settlement sheet", || async { client.current_url().await.unwrap().path().ends_with("/sheet") })
        .await;
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    // the ofc worked example: the second hand pays the first 4 (royalties 7 and 4)
    assert_eq!(hand["result"]["pairs"][0]["main_units"], 4, "{hand}");
    client.close().await.unwrap();
}

/// The bad beat of `tests/back_office.rs`: seat 1 loses all three rows to seat 2.
const BAD_BEAT: &str = r#"{"seats":[
 {"seat":1,"front":"3c 3d 4c","middle":"2h 2d 2c 4h 5d","back":"5s 6s 7s 8s 9s"},
 {"seat":2,"front":"As Ad 8c","middle":"Ks Kd Kc 6h 7h","back":"Th Jh Qh Kh Ah"},
 {"seat":3,"front":"Qs Qd 2s","middle":"Ts Td Tc 3s 4s","back":"4d 6d 7d 8d 9d"},
 {"seat":4,"front":"8h 9h Qc","middle":"Js Jd Jc 3h 5h","back":"5c 6c 7c 9c Ac"}]}"#;

#[actix_web::test]
async fn two_floor_supervisors_approve_and_verify_a_jackpot_hit() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    set_up(&app);
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/1/commit", BAD_BEAT).0, 201);
    app.user("flo", &["floor"], &[]);
    app.user("fred", &["floor"], &[]);
    let base = format!("http://{}", app.base);
    let (profile_a, profile_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let flo = browser(port, profile_a.path()).await;
    let fred = browser(port, profile_b.path()).await;
    sign_in(&flo, &base, "flo").await;
    sign_in(&fred, &base, "fred").await;

    // Flo sees the pending hit with its payout plan and approves it.
    flo.goto(&format!("{base}/floor")).await.unwrap();
    let hit = text_of(&flo, "#hit-1").await;
    assert!(hit.contains("500.40") && hit.contains("pending"), "{hit}");
    assert!(hit.contains("250.20") && hit.contains("125.10") && hit.contains("62.55"), "{hit}");
    screenshot(&flo, "floor-pending").await;
    flo.find(Locator::Css("#hit-1 button.approve")).await.unwrap().click().await.unwrap();
    eventually("the hit approved by flo", || async {
        let hit = text_of(&flo, "#hit-1").await;
        hit.contains("approved") && hit.contains("Approved by flo")
    })
    .await;
    // Flo cannot verify her own approval: no button, and the page says why.
    assert!(flo.find(Locator::Css("#hit-1 button.verify")).await.is_err());
    assert!(text_of(&flo, "#hit-1").await.contains("a second, different floor or admin user verifies it"));
    screenshot(&flo, "floor-approved").await;

    // Fred verifies it: paid, with both names and times on the page.
    fred.goto(&format!("{base}/floor")).await.unwrap();
    fred.find(Locator::Css("#hit-1 button.verify")).await.unwrap().click().await.unwrap();
    eventually("the hit paid", || async { text_of(&fred, "table.grid").await.contains("paid") }).await;
    let decided = text_of(&fred, "table.grid").await;
    assert!(decided.contains("flo") && decided.contains("fred"), "{decided}");
    assert!(text_of(&fred, "#hit-1").await.is_empty(), "no longer waiting");
    screenshot(&fred, "floor-paid").await;
    // The players were paid: seat 1 (Ann, 50 at the start) has her 250.20 share.
    let (_, table) = request(&app, "GET", "/api/v1/tables/1", "");
    let ann: rust_decimal::Decimal = table["seats"][0]["stack"].as_str().unwrap().parse().unwrap();
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    assert_eq!(hand["jackpot_hits"][0]["status"], "paid");
    assert!(ann > rust_decimal::Decimal::from(250), "{ann}");
    flo.close().await.unwrap();
    fred.close().await.unwrap();
}

#[actix_web::test]
async fn the_pit_board_shows_every_table_and_the_floor_closes_one_by_its_form() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    set_up(&app);
    for (name, preset) in [("Table 9", "simple"), ("High limit", "typical"), ("OFC 2", "ofc")] {
        let body = format!(r#"{{"name":"{name}","preset":"{preset}","unit":"25"}}"#);
        assert_eq!(request(&app, "POST", "/api/v1/tables", &body).0, 201);
    }
    // Table 7: a hand committed (the bad beat's hit waits) and the next in progress.
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/1/commit", BAD_BEAT).0, 201);
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    // Table 9: two players, a hand voided, both cashed out.
    for seat in 1..=2 {
        let body = format!(r#"{{"seat":{seat},"player":"Q{seat}","buy_in":"100"}}"#);
        assert_eq!(request(&app, "POST", "/api/v1/tables/2/seats", &body).0, 201);
    }
    assert_eq!(request(&app, "POST", "/api/v1/tables/2/hands", "{}").0, 201);
    assert_eq!(request(&app, "POST", "/api/v1/tables/2/hands/1/void", r#"{"reason":"misdeal","note":"x"}"#).0, 200);
    for seat in 1..=2 {
        assert_eq!(request(&app, "POST", &format!("/api/v1/tables/2/seats/{seat}/cash-out"), "").0, 200);
    }
    app.user("dee", &["dealer"], &[1, 2]);
    app.user("flo", &["floor"], &[]);
    let base = format!("http://{}", app.base);
    let profile = tempfile::tempdir().unwrap();
    let client = browser(port, profile.path()).await;
    sign_in(&client, &base, "flo").await;
    client.goto(&format!("{base}/floor")).await.unwrap();
    client.find(Locator::Css("main a[href='/floor/board']")).await.unwrap().click().await.unwrap();
    eventually("the board", || async { path_of(&client).await == "/floor/board" }).await;

    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&client, width, height).await;
        client.refresh().await.unwrap();
        let t7 = text_of(&client, "#table-1").await;
        assert!(t7.contains("Table 7") && t7.contains("hawaiian-gardens") && t7.contains("open"), "{t7}");
        assert!(t7.contains("4 / 4") && t7.contains("dee") && t7.contains("#2 for"), "{t7}");
        assert!(t7.contains("1 waiting") && t7.contains("ago"), "{t7}");
        let t9 = text_of(&client, "#table-2").await;
        assert!(t9.contains("0 / 4") && t9.contains("#1 misdeal"), "{t9}");
        for id in 3..=4 {
            assert!(!text_of(&client, &format!("#table-{id}")).await.is_empty(), "table {id} on the board");
        }
        let wide = js(&client, "return document.documentElement.scrollWidth <= innerWidth").await;
        assert_eq!(wide, serde_json::json!(true), "the board is wider than {width} px");
        screenshot(&client, &format!("board-{width}x{height}")).await;
    }

    // Table 7 has a hand in progress: no close button, but why.
    assert!(client.find(Locator::Css("#table-1 button.close")).await.is_err(), "no button that would fail");
    assert_eq!(text_of(&client, "#table-1 .cannot-close").await, "Cannot close now: hand 2 in progress.");
    // Table 9 is empty: closed, with a note, by whom on the page.
    let note = client.find(Locator::Css("#table-2 input[name=note]")).await.unwrap();
    note.send_keys("no dealer tonight").await.unwrap();
    client.find(Locator::Css("#table-2 button.close")).await.unwrap().click().await.unwrap();
    eventually("table 9 closed", || async { text_of(&client, "#table-2 .badge").await.contains("closed") }).await;
    assert_eq!(path_of(&client).await, "/floor/board");
    assert!(text_of(&client, "#table-2").await.contains("by flo"));
    assert!(client.find(Locator::Css("#table-2 button.open")).await.is_ok());
    screenshot(&client, "board-closed-1024x768").await;
    let (status, answer) = request(&app, "POST", "/api/v1/tables/2/hands", "{}");
    assert_eq!((status, answer["code"].as_str()), (409, Some("table_closed")));

    // Live: changes made elsewhere show without a reload, and a note being
    // typed stays.
    eventually("the board live", || async {
        js(&client, "return document.getElementById('live').dataset.live").await == serde_json::json!("on")
    })
    .await;
    js(&client, "window.notReloaded = true; return true").await;
    let note = client.find(Locator::Css("#table-3 input[name=note]")).await.unwrap();
    note.send_keys("half typed").await.unwrap();
    // Hand 2 deals in the seats with chips enough (Ann lost hers in hand 1).
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/2", "");
    let dealt: Vec<i64> = hand["seats"].as_array().unwrap().iter().map(|s| s["seat"].as_i64().unwrap()).collect();
    let mut showdown: serde_json::Value = serde_json::from_str(BAD_BEAT).unwrap();
    showdown["seats"].as_array_mut().unwrap().retain(|s| dealt.contains(&s["seat"].as_i64().unwrap()));
    let (status, answer) = request(&app, "POST", "/api/v1/tables/1/hands/2/commit", &showdown.to_string());
    assert_eq!(status, 201, "{answer}");
    let committed = Instant::now();
    eventually("hand 2 committed on the board", || async { text_of(&client, "#table-1 .hand").await == "none" }).await;
    let took = committed.elapsed();
    assert!(took < Duration::from_secs(5), "the commit reached the board after {took:?}");
    assert_eq!(text_of(&client, "#table-1 .cannot-close").await, "Cannot close now: 4 players seated: cash out first.");
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    let void = r#"{"reason":"misdeal","note":"cards exposed"}"#;
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/3/void", void).0, 200);
    eventually("hand 3 voided on the board", || async {
        text_of(&client, "#table-1 .voids").await.contains("#3 misdeal")
    })
    .await;
    assert_eq!(request(&app, "POST", "/api/v1/tables/2/open", "{}").0, 200);
    eventually("table 9 opened on the board", || async { text_of(&client, "#table-2 .badge").await.contains("open") })
        .await;
    assert!(client.find(Locator::Css("#table-2 button.close")).await.is_ok(), "its close form back");
    // dee signs in on a screen of their own: marked signed in at both tables.
    assert!(!text_of(&client, "#table-1 .dealers").await.contains("signed in"));
    let _dee = support::Browser::signed_in(&app, "dee");
    for table in ["#table-1", "#table-2"] {
        eventually("dee signed in on the board", || async {
            text_of(&client, &format!("{table} .dealers")).await == "dee signed in"
        })
        .await;
    }
    assert_eq!(js(&client, "return window.notReloaded === true").await, serde_json::json!(true), "no reload");
    let kept = js(&client, "return document.querySelector('#table-3 input[name=note]').value").await;
    assert_eq!(kept, serde_json::json!("half typed"), "the note being typed stays");
    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&client, width, height).await;
        let wide = js(&client, "return document.documentElement.scrollWidth <= innerWidth").await;
        assert_eq!(wide, serde_json::json!(true), "the live board is wider than {width} px");
        screenshot(&client, &format!("board-live-{width}x{height}")).await;
    }

    // The table page says when a table is closed.
    assert_eq!(request(&app, "POST", "/api/v1/tables/4/close", "{}").0, 200);
    client.goto(&format!("{base}/tables/4")).await.unwrap();
    assert!(text_of(&client, "h1").await.contains("closed"));
    assert!(text_of(&client, "#closed").await.contains("This table is closed"));
    assert!(client.find(Locator::Css("button.start-hand")).await.is_err(), "no hand starts");
    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&client, width, height).await;
        screenshot(&client, &format!("table-closed-{width}x{height}")).await;
    }
    client.close().await.unwrap();
}

#[actix_web::test]
async fn tournament_penalties_are_keyed_in_and_previewed() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry_with(port, |app| {
        seated_table(app, r#"{"name":"Final","preset":"ofc","unit":"1","options":{"tournament":true}}"#, 2)
    })
    .await;
    let rows =
        [(1, ["2s 3h 4d", "5c 6s 7h 8d Tc", "Js 9h 8c 6d 3c"]), (2, ["Ah Ad Kc", "2h 2d 5h 5d 9c", "Qs Qh Qd 4s 4h"])];
    for (seat, cards) in rows {
        for (row, text) in ["front", "middle", "back"].iter().zip(cards) {
            let css = format!(".seat-entry[data-seat='{seat}'] [data-field={row}]");
            client.find(Locator::Css(&css)).await.unwrap().send_keys(text).await.unwrap();
        }
    }
    // The preview of the cards alone first: the count typed after it must
    // check the hand again by itself (it once waited for the field to be
    // left, and this test passed only when its typing beat the first check).
    eventually("the preview without the penalty", || async {
        let text = text_of(&client, "#preview").await;
        text.contains("Final") || text.contains("set") || text.contains("FOUL")
    })
    .await;
    assert!(!text_of(&client, "#preview").await.contains("91.00"));
    // Seat 1 missed a turn: it pays 3 and takes nothing from seat 2; it ends on 91.
    let missed = client.find(Locator::Css(".seat-entry[data-seat='1'] [data-field=missed_turns]")).await.unwrap();
    missed.send_keys("1").await.unwrap();
    eventually("the preview with the penalty", || async { text_of(&client, "#preview").await.contains("91.00") }).await;
    screenshot(&client, "entry-penalties").await;
    client.find(Locator::Id("commit")).await.unwrap().click().await.unwrap();
    eventually("the settlement sheet", || async { client.current_url().await.unwrap().path().ends_with("/sheet") })
        .await;
    let (_, hand) = request(&app, "GET", "/api/v1/tables/1/hands/1", "");
    assert_eq!(hand["result"]["seats"][0]["penalties"], serde_json::json!(["missed-turn"]), "{hand}");
    client.close().await.unwrap();
}

/// A four-seat hand without a foul (`ROWS` with seat 4 set legally).
const CLEAN: [[&str; 3]; 4] = [
    ["qh qd 7c", "js jh jd 2s 2h", "5s 5h 5d 5c ad"],
    ["2c 3d 4h", "6c 7d 8h 9s tc", "ac kc qc jc 9c"],
    ["as ks 3s", "kh kd 8d 8c 3h", "th td ts 4d 4c"],
    ["4s 3c 2d", "6h 6d ah qs 8s", "7h 7s 9h 9d 6s"],
];

/// The cards of a row as a sorted list, whatever the notation.
fn cards(text: &str) -> Vec<String> {
    let mut list: Vec<String> =
        pitboss::engine::parse_cards(&text.replace(',', " ")).unwrap().iter().map(|c| c.to_string()).collect();
    list.sort();
    list
}

async fn wait_for_sheet(client: &Client, number: i32) {
    eventually("the settlement sheet", || async { path_of(client).await.ends_with(&format!("/hands/{number}/sheet")) })
        .await;
}

async fn hand(app: &TestApp, number: i32) -> serde_json::Value {
    request(app, "GET", &format!("/api/v1/tables/1/hands/{number}"), "").1
}

#[actix_web::test]
async fn a_whole_hand_in_compact_text_takes_at_most_110_keystrokes_and_the_last_enter_commits() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    viewport(&client, 1024, 768).await;
    eventually("the first row focused", || async {
        client.active_element().await.unwrap().attr("id").await.unwrap().as_deref() == Some("s1-front")
    })
    .await;
    // Each row's cards with no spaces (`qhqd7c`): a full row moves on by
    // itself. Enter on the last row goes to Commit; Enter commits at once,
    // while the preview may still be on its way.
    let rows: String = CLEAN.iter().flatten().map(|r| r.replace(' ', "")).collect();
    let keystrokes = type_keys(&client, &format!("{rows}\u{E007}\u{E007}")).await;
    wait_for_sheet(&client, 1).await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("keystrokes.txt"), format!("a 4-seat hand keyed in {keystrokes} keystrokes\n")).unwrap();
    eprintln!("a 4-seat hand keyed in {keystrokes} keystrokes");
    assert!(keystrokes <= 110, "{keystrokes} keystrokes");
    let hand = hand(&app, 1).await;
    assert_eq!(hand["status"], "committed");
    for (seat, rows) in CLEAN.iter().enumerate() {
        let stored = &hand["showdown"]["seats"][seat];
        for (row, typed) in ["front", "middle", "back"].iter().zip(rows) {
            assert_eq!(cards(stored[row].as_str().unwrap()), cards(typed), "seat {} {row}", seat + 1);
        }
    }
    client.close().await.unwrap();
}

#[actix_web::test]
async fn the_whole_showdown_fits_one_tablet_screen_and_stays_usable_at_1366_and_on_a_phone() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (_app, _profile, client) = open_entry(port).await;
    viewport(&client, 1024, 768).await;
    screenshot(&client, "entry-empty-1024x768").await;
    // The worst case of a live hand: every row, a foul explained, the preview.
    fill_rows(&client, &ROWS).await;
    eventually("the foul explained and the preview", || async {
        text_of(&client, "#summary").await.contains("a legal setting was")
            && text_of(&client, "#preview").await.contains("139.50")
    })
    .await;
    // Cards in their suit's colour as typed (Qh red, 7c black) and in the preview.
    let colours = js(
        &client,
        "const m = document.getElementById('s1-front').previousElementSibling;
         const c = (e) => e && getComputedStyle(e).color;
         return [m.textContent, c(m.querySelector('.red')), c(m.querySelector('.black')),
                 c(document.querySelector('#preview .c.red')), c(document.querySelector('#preview .c.black'))]",
    )
    .await;
    assert_eq!(
        colours,
        serde_json::json!(["Qh Qd 7c", "rgb(198, 40, 40)", "rgb(17, 17, 17)", "rgb(198, 40, 40)", "rgb(17, 17, 17)"])
    );
    let everything = ".seat-entry, .row input, .options label, #commit, #summary, #preview";
    screenshot(&client, "entry-1024x768").await;
    all_in_view(&client, everything).await.expect("everything on one 1024×768 screen");
    // The picker opens over the screen; the rows stay where they are.
    let front = row_input(&client, 1, "front").await;
    let before = front.rectangle().await.unwrap();
    client.find(Locator::Css("#picker-box summary")).await.unwrap().click().await.unwrap();
    assert!(client.find(Locator::Css("#picker")).await.unwrap().is_displayed().await.unwrap());
    assert_eq!(front.rectangle().await.unwrap(), before, "the picker moved the rows");
    assert!(in_view(&client, "#picker").await);
    screenshot(&client, "entry-picker-1024x768").await;
    client.find(Locator::Css("#picker-box summary")).await.unwrap().click().await.unwrap();

    viewport(&client, 1366, 768).await;
    all_in_view(&client, everything).await.expect("everything on one 1366×768 screen");
    screenshot(&client, "entry-1366x768").await;

    // A phone: one seat under another, nothing wider than the screen, rows
    // wide enough for five cards, and Commit always in reach.
    viewport(&client, 390, 844).await;
    let wide = js(&client, "return document.documentElement.scrollWidth <= innerWidth").await;
    assert_eq!(wide, serde_json::json!(true), "the page is wider than a phone");
    let width = row_input(&client, 1, "middle").await.rectangle().await.unwrap().2;
    assert!(width >= 250.0, "a row is {width} px wide on a phone");
    assert!(in_view(&client, "#commit").await, "Commit is out of reach on a phone");
    screenshot(&client, "entry-phone-390x844").await;
    js(&client, "document.getElementById('s4-back').focus(); return true").await;
    assert!(in_view(&client, "#commit").await && in_view(&client, "#s4-back").await);
    screenshot(&client, "entry-phone-390x844-seat4").await;
    client.close().await.unwrap();
}

#[actix_web::test]
async fn check_and_preview_never_commits_with_javascript() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    fill_rows(&client, &CLEAN).await;
    // The button is for pages without JavaScript; here it is not shown.
    let check = client.find(Locator::Id("preview-button")).await.unwrap();
    assert!(!check.is_displayed().await.unwrap(), "Check and preview shows though the checks are live");
    // Submitting with it (or Enter in a field: the form's first button)
    // only checks.
    js(
        &client,
        "document.getElementById('entry').requestSubmit(document.getElementById('preview-button')); return true",
    )
    .await;
    js(&client, "document.getElementById('entry').requestSubmit(); return true").await;
    eventually("the preview", || async { text_of(&client, "#preview").await.to_lowercase().contains("net") }).await;
    actix_web::rt::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(hand(&app, 1).await["status"], "open", "a check committed the hand");
    assert!(path_of(&client).await.ends_with("/entry"));
    client.close().await.unwrap();
}

#[actix_web::test]
async fn a_correction_after_the_commit_is_refused_in_words_never_dropped() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    viewport(&client, 1024, 768).await;
    fill_rows(&client, &CLEAN).await;
    client.find(Locator::Id("commit")).await.unwrap().click().await.unwrap();
    wait_for_sheet(&client, 1).await;
    // Back: the entry page is not kept by the browser; asked again, the
    // committed hand answers with its sheet.
    // Back: the page comes back (from the browser's cache, or asked again:
    // then the committed hand answers with its sheet) and says at once
    // that the hand is committed.
    client.back().await.unwrap();
    eventually("the hand said to be committed after Back", || async {
        path_of(&client).await.ends_with("/hands/1/sheet")
            || text_of(&client, "#summary").await.contains("Hand #1 is already committed")
    })
    .await;
    if path_of(&client).await.ends_with("/entry") {
        screenshot(&client, "entry-after-back").await;
        // Two cards swapped and committed again: refused, in words.
        let (front1, front2) = (row_input(&client, 1, "front").await, row_input(&client, 2, "front").await);
        front1.clear().await.unwrap();
        front1.send_keys("qh qd 4h").await.unwrap();
        front2.clear().await.unwrap();
        front2.send_keys("2c 3d 7c").await.unwrap();
        client.find(Locator::Id("commit")).await.unwrap().click().await.unwrap();
        eventually("the refusal beside Commit", || async {
            let summary = text_of(&client, "#summary").await;
            summary.contains("is already committed with a different showdown")
                && summary.contains("a floor supervisor can void it")
        })
        .await;
        assert!(in_view(&client, "#summary").await);
        screenshot(&client, "entry-after-back-refused").await;
    }
    let stored = hand(&app, 1).await;
    assert_eq!(cards(stored["showdown"]["seats"][0]["front"].as_str().unwrap()), cards("qh qd 7c"), "unchanged");

    // A page still open from before a commit (another tablet, a page kept
    // open): its commit of other cards is refused, said beside Commit.
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    let base = format!("http://{}", app.base);
    client.goto(&format!("{base}/tables/1/hands/2/entry")).await.unwrap();
    fill_rows(&client, &CLEAN).await;
    eventually("the preview", || async { text_of(&client, "#preview").await.to_lowercase().contains("net") }).await;
    // Meanwhile hand 2 is committed with 7c and 4h the other way round.
    let mut swapped = CLEAN;
    swapped[0][0] = "qh qd 4h";
    swapped[1][0] = "2c 3d 7c";
    let seats: Vec<serde_json::Value> = swapped
        .iter()
        .enumerate()
        .map(|(i, r)| serde_json::json!({"seat": i + 1, "front": r[0], "middle": r[1], "back": r[2]}))
        .collect();
    let body = serde_json::json!({ "seats": seats }).to_string();
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/2/commit", &body).0, 201);
    client.find(Locator::Id("commit")).await.unwrap().click().await.unwrap();
    eventually("the refusal beside Commit", || async {
        let summary = text_of(&client, "#summary").await;
        summary.contains("already committed") && summary.contains("a floor supervisor can void it")
    })
    .await;
    assert!(in_view(&client, "#summary").await);
    let link = client.find(Locator::Css("#summary a")).await.unwrap();
    assert_eq!(link.attr("href").await.unwrap().as_deref(), Some("/tables/1/hands/2/sheet"));
    screenshot(&client, "entry-already-committed").await;
    let stored = hand(&app, 2).await;
    assert_eq!(cards(stored["showdown"]["seats"][0]["front"].as_str().unwrap()), cards("qh qd 4h"), "unchanged");
    client.close().await.unwrap();
}

#[actix_web::test]
async fn short_rows_duplicates_and_bad_text_are_named_as_they_are_typed() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    viewport(&client, 1024, 768).await;
    eventually("the first row focused", || async {
        client.active_element().await.unwrap().attr("id").await.unwrap().as_deref() == Some("s1-front")
    })
    .await;
    // Compact text is read and moves on by itself.
    type_keys(&client, "9c5d2s").await;
    assert_eq!(value_of(&client, 1, "front").await, "9c 5d 2s");
    assert_eq!(client.active_element().await.unwrap().attr("id").await.unwrap().as_deref(), Some("s1-middle"));
    // Four cards, one of them already in the front; Enter moves on anyway.
    type_keys(&client, "jsjhjd2s\u{E007}").await;
    // Text that is not a card.
    type_keys(&client, "5h5x").await;
    let note = |row: &'static str| {
        let client = &client;
        async move { text_of(client, &format!(".seat-entry[data-seat='1'] .row:has([data-field={row}]) .row-note")).await }
    };
    eventually("every problem next to its row", || async {
        note("front").await.contains("2s appears twice: seat 1 front and seat 1 middle")
            && note("middle").await.contains("seat 1 middle has 4 cards; it needs 5")
            && note("middle").await.contains("2s appears twice")
            && note("back").await.contains("\"5h5x\" is not a card")
    })
    .await;
    let summary = text_of(&client, "#summary").await;
    for words in ["2s appears twice", "seat 1 middle has 4 cards; it needs 5", "\"5h5x\" is not a card"] {
        assert!(summary.contains(words), "the summary lacks {words:?}: {summary}");
    }
    screenshot(&client, "entry-problems").await;
    // Commit does not send a hand with problems: it names every row left.
    let commit = client.find(Locator::Id("commit")).await.unwrap();
    assert_eq!(commit.attr("aria-disabled").await.unwrap().as_deref(), Some("true"));
    commit.click().await.unwrap();
    eventually("the empty rows named", || async {
        text_of(&client, "#summary").await.contains("seat 4 back is empty")
    })
    .await;
    assert_eq!(client.active_element().await.unwrap().attr("id").await.unwrap().as_deref(), Some("s1-front"));
    assert_eq!(hand(&app, 1).await["status"], "open");
    client.close().await.unwrap();
}

#[actix_web::test]
async fn a_problem_shows_where_the_dealer_is_looking() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    viewport(&client, 1024, 768).await;
    let mut rows = CLEAN;
    rows[0][0] = "qh qd 7x";
    rows[3][2] = "";
    fill_rows(&client, &rows).await;
    // The dealer is on seat 4's back when seat 1's bad card is found.
    row_input(&client, 4, "back").await.send_keys("7h7s9h9d6s").await.unwrap();
    eventually("seat 1's problem at its row and beside Commit", || async {
        text_of(&client, ".seat-entry[data-seat='1'] .row-note").await.contains("\"7x\" is not a card")
            && text_of(&client, "#summary").await.contains("\"7x\" is not a card")
    })
    .await;
    assert_eq!(client.active_element().await.unwrap().attr("id").await.unwrap().as_deref(), Some("s4-back"));
    assert!(in_view(&client, ".seat-entry[data-seat='1'] .row-note").await);
    assert!(in_view(&client, "#summary").await);
    screenshot(&client, "entry-problem-seat1-focus-seat4").await;

    // The table page: a refused add-on is said in its seat's box.
    let void = r#"{"reason":"misdeal","note":"test"}"#;
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/1/void", void).0, 200);
    let base = format!("http://{}", app.base);
    client.goto(&format!("{base}/tables/1")).await.unwrap();
    client.find(Locator::Css(".seat[data-seat='4'] .seat-actions summary")).await.unwrap().click().await.unwrap();
    let amount =
        client.find(Locator::Css(".seat[data-seat='4'] form[action*='add-on'] input[name=amount]")).await.unwrap();
    amount.send_keys("twenty\u{E007}").await.unwrap();
    eventually("the refusal in seat 4's box", || async {
        text_of(&client, ".seat[data-seat='4'] .seat-problem").await.contains("is not an amount of money")
    })
    .await;
    assert!(in_view(&client, ".seat[data-seat='4'] .seat-problem").await);
    screenshot(&client, "table-seat-problem").await;
    client.close().await.unwrap();
}

#[actix_web::test]
async fn voiding_an_open_hand_lands_on_its_void_sheet_and_a_signed_off_hand_offers_no_void() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    viewport(&client, 1024, 768).await;
    // The floor voids the open hand (a misdeal) from its entry page.
    client.find(Locator::Css(".void-box summary")).await.unwrap().click().await.unwrap();
    client.find(Locator::Css(".void input[name=note]")).await.unwrap().send_keys("cards exposed").await.unwrap();
    client.find(Locator::Css(".void button")).await.unwrap().click().await.unwrap();
    wait_for_sheet(&client, 1).await;
    let stamp = text_of(&client, ".void-stamp").await;
    assert!(stamp.contains("VOID") && stamp.contains("no money moved") && stamp.contains("cards exposed"), "{stamp}");
    assert_eq!(text_of(&client, "h1").await, "Settlement · Table 7 · hand #1");
    assert_eq!(hand(&app, 1).await["status"], "voided");
    screenshot(&client, "sheet-voided-open-hand").await;
    // The next hand starts from the sheet.
    client.find(Locator::Css("button.start-hand")).await.unwrap().click().await.unwrap();
    eventually("hand 2's entry", || async { path_of(&client).await.ends_with("/hands/2/entry") }).await;

    // A bad beat whose hit a floor supervisor approved: the hand can no
    // longer be voided, and its sheet says so instead of offering the form.
    let (status, answer) = request(&app, "POST", "/api/v1/tables/1/hands/2/commit", BAD_BEAT);
    assert_eq!(status, 201, "{answer}");
    let flo = app.person("flo", &["floor"], &[]);
    assert_eq!(request(&flo, "POST", "/api/v1/jackpots/1/approve", "{}").0, 200);
    let base = format!("http://{}", app.base);
    client.goto(&format!("{base}/tables/1/hands/2/sheet")).await.unwrap();
    assert!(client.find(Locator::Css(".void-box")).await.is_err(), "a void form that cannot work");
    assert!(text_of(&client, ".no-void").await.contains("signed off"));
    client.close().await.unwrap();
}

#[actix_web::test]
async fn an_ended_session_keeps_the_typed_hand_through_sign_in_and_reload() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    fill_rows(&client, &CLEAN[..2]).await;
    row_input(&client, 3, "front").await.send_keys("as ks").await.unwrap();
    // A reload keeps every row.
    client.refresh().await.unwrap();
    eventually("the rows restored after a reload", || async { value_of(&client, 3, "front").await == "as ks" }).await;
    assert_eq!(value_of(&client, 2, "middle").await, "6c 7d 8h 9s Tc");
    assert!(
        text_of(&client, "#restored").await.contains("Restored 28 cards"),
        "{}",
        text_of(&client, "#restored").await
    );
    // The session ends mid-hand (it expired, or someone signed out).
    client.delete_cookie("pitboss_session").await.unwrap();
    row_input(&client, 3, "front").await.send_keys(" 3s").await.unwrap();
    eventually("the sign-in page, saying why", || async {
        path_of(&client).await == "/login" && text_of(&client, ".notice").await.contains("session has ended")
    })
    .await;
    let page = client.source().await.unwrap();
    assert!(!page.contains("Bearer"), "API wording on the sign-in page");
    screenshot(&client, "signin-after-expiry").await;
    client.find(Locator::Css("input[name=username]")).await.unwrap().send_keys("boss").await.unwrap();
    let password = client.find(Locator::Css("input[name=password]")).await.unwrap();
    password.send_keys(&format!("{PASSWORD}\u{E007}")).await.unwrap();
    eventually("back at the same hand", || async { path_of(&client).await == "/tables/1/hands/1/entry" }).await;
    eventually("every row typed before", || async { value_of(&client, 3, "front").await == "As Ks 3s" }).await;
    assert_eq!(value_of(&client, 1, "back").await, "5s 5h 5d 5c Ad");
    // Committed: the browser keeps nothing of the hand.
    for (seat, rows) in [(3, CLEAN[2]), (4, CLEAN[3])] {
        for (row, text) in ["middle", "back"].iter().zip(&rows[1..]) {
            row_input(&client, seat, row).await.send_keys(text).await.unwrap();
        }
        if seat == 4 {
            row_input(&client, 4, "front").await.send_keys(rows[0]).await.unwrap();
        }
    }
    let stored = "return Object.keys(localStorage).filter(k => k.startsWith('pitboss.entry.')).length";
    assert_eq!(js(&client, stored).await, serde_json::json!(1));
    client.find(Locator::Id("commit")).await.unwrap().click().await.unwrap();
    wait_for_sheet(&client, 1).await;
    assert_eq!(js(&client, stored).await, serde_json::json!(0), "the hand is still kept after its commit");
    assert_eq!(hand(&app, 1).await["status"], "committed");
    client.close().await.unwrap();
}

#[actix_web::test]
async fn a_bad_beat_shows_in_the_preview_before_the_commit() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    viewport(&client, 1024, 768).await;
    let bad_beat: serde_json::Value = serde_json::from_str(BAD_BEAT).unwrap();
    let rows: Vec<[&str; 3]> = bad_beat["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| [s["front"].as_str().unwrap(), s["middle"].as_str().unwrap(), s["back"].as_str().unwrap()])
        .collect();
    fill_rows(&client, &rows).await;
    eventually("the jackpot in the preview", || async {
        let banner = text_of(&client, "#jackpot").await;
        banner.contains("BAD BEAT JACKPOT")
            && banner.contains("Ann (seat 1) loses to Bo (seat 2)")
            && banner.contains("Bad beat (500")
    })
    .await;
    screenshot(&client, "entry-bad-beat").await;
    assert!(in_view(&client, "#jackpot").await);
    all_in_view(&client, ".row input, #commit, #summary, #jackpot").await.expect("the jackpot on the same screen");
    // Committing it locks the pool: the first press asks for a second.
    let commit = client.find(Locator::Id("commit")).await.unwrap();
    commit.click().await.unwrap();
    eventually("Commit asks again", || async { text_of(&client, "#commit").await.contains("with the jackpot") }).await;
    assert_eq!(hand(&app, 1).await["status"], "open");
    client.find(Locator::Id("commit")).await.unwrap().click().await.unwrap();
    wait_for_sheet(&client, 1).await;
    assert_eq!(hand(&app, 1).await["jackpot_hits"][0]["status"], "pending");
    client.close().await.unwrap();
}

#[actix_web::test]
async fn the_sheet_fits_a_tablet_and_paper_with_names_caps_explained_signatures_and_a_void_stamp() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    // A table on Pacific time; the showdown of `tests/pages.rs` (a capped payment).
    assert_eq!(request(&app, "POST", "/api/v1/pools", r#"{"name":"Bad beat","seed":"500"}"#).0, 201);
    let table = r#"{"name":"Table 7","preset":"hawaiian-gardens","unit":"5","rake_per_seat":"0.50","jackpot_part":"0.10","pool_id":1,"time_zone":"America/Los_Angeles"}"#;
    assert_eq!(request(&app, "POST", "/api/v1/tables", table).0, 201);
    for (seat, player, buy_in) in
        [(1, "Annabelle Longname", "50"), (2, "Bo", "100"), (3, "Cy", "150"), (4, "Dee", "200")]
    {
        let body = format!(r#"{{"seat":{seat},"player":"{player}","buy_in":"{buy_in}"}}"#);
        assert_eq!(request(&app, "POST", "/api/v1/tables/1/seats", &body).0, 201);
    }
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    let seats: Vec<serde_json::Value> = ROWS
        .iter()
        .enumerate()
        .map(|(i, r)| serde_json::json!({"seat": i + 1, "front": r[0], "middle": r[1], "back": r[2].replace(',', " ")}))
        .collect();
    let body = serde_json::json!({ "seats": seats }).to_string();
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/1/commit", &body).0, 201);
    let profile = tempfile::tempdir().unwrap();
    let client = browser(port, profile.path()).await;
    let base = format!("http://{}", app.base);
    sign_in(&client, &base, "boss").await;
    viewport(&client, 1024, 768).await;
    client.goto(&format!("{base}/tables/1/hands/1/sheet")).await.unwrap();
    // Nothing runs off the side at 1024 px: the END column is there.
    let wide = js(&client, "return document.documentElement.scrollWidth <= innerWidth").await;
    assert_eq!(wide, serde_json::json!(true), "the sheet is wider than a tablet");
    let end = js(
        &client,
        "const c = document.querySelector('.sheet-seats td.end').getBoundingClientRect(); return c.right <= innerWidth",
    )
    .await;
    assert_eq!(end, serde_json::json!(true));
    screenshot(&client, "sheet-1024x768").await;
    let page = text_of(&client, "main").await;
    // Names, not seat numbers; the capped payment explained; signatures.
    assert!(page.contains("Annabelle Longname (seat 1)") && page.contains("Bo (seat 2)"), "{page}");
    assert!(
        page.contains("Capped: Annabelle Longname (seat 1) could win only 49.50 more"),
        "the cap is not explained: {page}"
    );
    assert!(page.contains("Dealer (name and signature)") && page.contains("Floor supervisor (name and signature)"));
    // The time in the table's zone (PST or PDT), not UTC.
    let started: chrono::DateTime<chrono::Utc> = hand(&app, 1).await["started_at"].as_str().unwrap().parse().unwrap();
    let local = started.with_timezone(&chrono_tz::America::Los_Angeles).format("%Y-%m-%d %H:%M %Z").to_string();
    assert!(page.contains(&format!("started {local}")), "{local} not in: {page}");
    assert!(!page.contains("UTC"));
    // Cards in their suit's colour.
    let red = js(&client, "return getComputedStyle(document.querySelector('.sheet-seats .c.red')).color").await;
    assert_eq!(red, serde_json::json!("rgb(198, 40, 40)"));
    assert!(client.find(Locator::Css("button.start-hand")).await.is_ok(), "no button to start the next hand");
    viewport(&client, 1024, 1700).await;
    screenshot(&client, "sheet-1024-whole").await;
    // A phone: the page itself never runs wider than the screen (a wide
    // table scrolls on its own).
    viewport(&client, 390, 844).await;
    let wide = js(&client, "return document.documentElement.scrollWidth <= innerWidth").await;
    assert_eq!(wide, serde_json::json!(true), "the sheet is wider than a phone");
    screenshot(&client, "sheet-phone-390x844").await;
    viewport(&client, 1024, 768).await;
    // Paper: the print stylesheet at A4's printable width (186 mm ≈ 703 px;
    // Letter's is wider) fits across, navigation and buttons gone.
    viewport(&client, 703, 1032).await;
    js(&client, "const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = '/static/print.css'; document.head.append(l); return true").await;
    eventually("the print stylesheet", || async {
        js(&client, "return getComputedStyle(document.querySelector('.bar')).display").await
            == serde_json::json!("none")
    })
    .await;
    let fits =
        js(&client, "return [document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight]")
            .await;
    assert!(fits[0].as_i64() <= fits[1].as_i64(), "wider than A4: {fits}");
    eprintln!("the sheet on A4: {fits} (width, printable width, height in px; one page is 1032)");
    screenshot(&client, "sheet-print-a4").await;

    // Voided: a stamp no one can miss, on screen and on paper.
    viewport(&client, 1024, 768).await;
    let void = r#"{"reason":"wrong_cards","note":"seat 4 back was misread"}"#;
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/1/void", void).0, 200);
    client.goto(&format!("{base}/tables/1/hands/1/sheet")).await.unwrap();
    let stamp = client.find(Locator::Css(".void-stamp")).await.unwrap();
    assert!(stamp.is_displayed().await.unwrap());
    assert!(stamp.text().await.unwrap().contains("VOID"));
    assert!(in_view(&client, ".void-stamp").await);
    screenshot(&client, "sheet-voided").await;
    client.close().await.unwrap();
}

#[actix_web::test]
async fn a_cash_out_asks_first_and_gives_a_slip() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    set_up(&app);
    let profile = tempfile::tempdir().unwrap();
    let client = browser(port, profile.path()).await;
    let base = format!("http://{}", app.base);
    sign_in(&client, &base, "boss").await;
    viewport(&client, 390, 844).await;
    client.goto(&format!("{base}/tables/1")).await.unwrap();
    let wide = js(&client, "return document.documentElement.scrollWidth <= innerWidth").await;
    assert_eq!(wide, serde_json::json!(true), "the table page is wider than a phone");
    screenshot(&client, "table-phone-390x844").await;
    viewport(&client, 1024, 768).await;
    client.find(Locator::Css(".seat[data-seat='2'] .seat-actions summary")).await.unwrap().click().await.unwrap();
    // "Add on" is a button, not text on the felt.
    let add_on = client.find(Locator::Css(".seat[data-seat='2'] form[action*='add-on'] button")).await.unwrap();
    let look = js(&client, "const b = getComputedStyle(document.querySelector(\".seat[data-seat='2'] form[action*='add-on'] button\")); return [b.backgroundColor, b.borderTopWidth]").await;
    assert_eq!(look[0], serde_json::json!("rgb(255, 255, 255)"), "{look}");
    assert!(add_on.is_displayed().await.unwrap());
    screenshot(&client, "table-seat-actions").await;
    // One tap asks; nothing is paid yet.
    client
        .find(Locator::Css(".seat[data-seat='2'] form[action*='cash-out'] button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    eventually("the confirmation", || async { text_of(&client, "h1").await == "Cash out Bo?" }).await;
    assert!(text_of(&client, ".confirm").await.contains("100.00"));
    let (_, table) = request(&app, "GET", "/api/v1/tables/1", "");
    assert_eq!(table["seats"].as_array().unwrap().len(), 4, "cashed out before the confirmation");
    screenshot(&client, "cash-out-confirm").await;
    client.find(Locator::Id("confirm-cash-out")).await.unwrap().click().await.unwrap();
    eventually("the slip", || async { text_of(&client, "h1").await == "Cash-out slip" }).await;
    let slip = text_of(&client, "#slip").await;
    assert!(
        slip.contains("Bo") && slip.contains("100.00") && slip.contains("Player") && slip.contains("Dealer"),
        "{slip}"
    );
    let (_, table) = request(&app, "GET", "/api/v1/tables/1", "");
    assert_eq!(table["seats"].as_array().unwrap().len(), 3);
    screenshot(&client, "cash-out-slip").await;

    // Bo comes back: chosen from the open seat's list of returning players.
    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&client, width, height).await;
        client.goto(&format!("{base}/tables/1")).await.unwrap();
        client.find(Locator::Css(".seat[data-seat='2'] .seat-actions summary")).await.unwrap().click().await.unwrap();
        let fits = js(&client, "const f = document.querySelector(\".seat[data-seat='2'] .seat-form\").getBoundingClientRect(); const s = document.querySelector(\".seat[data-seat='2']\").getBoundingClientRect(); return f.right <= s.right + 1 && document.documentElement.scrollWidth <= innerWidth").await;
        assert_eq!(fits, serde_json::json!(true), "the seat form fits its seat at {width}x{height}");
        screenshot(&client, &format!("table-seat-returning-player-{width}x{height}")).await;
    }
    let list = client.find(Locator::Css(".seat[data-seat='2'] select[name=player_id]")).await.unwrap();
    list.select_by_label("Bo").await.unwrap();
    let amount = client.find(Locator::Css(".seat[data-seat='2'] .seat-form input[name=amount]")).await.unwrap();
    amount.send_keys("50\u{E007}").await.unwrap();
    eventually("Bo back in seat 2", || async { text_of(&client, ".seat[data-seat='2'] .player").await == "Bo" }).await;
    let (_, players) = request(&app, "GET", "/api/v1/players?q=bo", "");
    assert_eq!(players.as_array().unwrap().len(), 1, "Bo's record, not a new one: {players}");
    assert_eq!(players[0]["sessions"], 2);
    client.close().await.unwrap();
}

#[actix_web::test]
async fn a_refusal_of_the_service_is_placed_at_the_seat_it_names() {
    let Some((_driver, port)) = chromedriver() else { return };
    let (app, _profile, client) = open_entry(port).await;
    viewport(&client, 1024, 768).await;
    fill_rows(&client, &CLEAN).await;
    eventually("the preview", || async { text_of(&client, "#preview").await.to_lowercase().contains("net") }).await;
    // Seat 2 claims a special its cards do not make: only the engine knows;
    // its answer names seat 2 (`seat` in the JSON error), and the page puts
    // it there, and beside Commit.
    let claim = client.find(Locator::Css(".seat-entry[data-seat='2'] select[data-field=claim]")).await.unwrap();
    claim.select_by_index(1).await.unwrap();
    eventually("the refusal at seat 2", || async {
        let note = text_of(&client, ".seat-entry[data-seat='2'] .seat-note").await;
        note.contains("seat 2 claims") && text_of(&client, "#summary").await.contains("seat 2 claims")
    })
    .await;
    assert!(text_of(&client, ".seat-entry[data-seat='1'] .seat-note").await.is_empty());
    assert!(in_view(&client, ".seat-entry[data-seat='2'] .seat-note").await);
    screenshot(&client, "entry-claim-refused").await;
    assert_eq!(hand(&app, 1).await["status"], "open");
    client.close().await.unwrap();
}

/// Swagger UI works under the Content-Security-Policy (no inline script,
/// styles from the service only) with its files from the binary, and lists
/// every operation of the OpenAPI document.
#[actix_web::test]
async fn swagger_ui_shows_the_api_under_the_content_security_policy() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    let (status, doc) = request(&app, "GET", "/api/openapi.json", "");
    assert_eq!(status, 200);
    let operations: usize =
        doc["paths"].as_object().unwrap().values().map(|item| item.as_object().unwrap().len()).sum();
    let profile = tempfile::tempdir().unwrap();
    let client = browser(port, profile.path()).await;
    client.goto(&format!("http://{}/api/docs", app.base)).await.unwrap();
    eventually("Swagger UI's operations", || async {
        client.find_all(Locator::Css(".opblock")).await.map(|o| o.len()).unwrap_or(0) == operations
    })
    .await;
    assert!(text_of(&client, ".info .title").await.starts_with("pitboss"));
    screenshot(&client, "api-docs").await;
    client.close().await.unwrap();
}

/// Every back-office form page and the players' pages fit 1366×768 and
/// 1024×768 (no sideways scrolling), each with a screenshot to look at; a
/// refused form in the browser keeps what was typed and marks its field.
#[actix_web::test]
async fn the_back_office_forms_and_players_pages_fit_a_laptop_and_a_tablet() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    set_up(&app);
    let member = r#"{"name":"Eve Lam","member_no":"M-77"}"#;
    assert_eq!(request(&app, "POST", "/api/v1/players", member).0, 201);
    let profile = tempfile::tempdir().unwrap();
    let client = browser(port, profile.path()).await;
    let base = format!("http://{}", app.base);
    sign_in(&client, &base, "boss").await;
    let pages = [
        ("/admin/tables/1", "admin-table"),
        ("/tables/1/ruleset", "ruleset"),
        ("/admin/pools/1", "admin-pool"),
        ("/admin/users", "admin-users"),
        ("/players", "players"),
        ("/players/2", "player"),
    ];
    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&client, width, height).await;
        for (path, name) in pages {
            client.goto(&format!("{base}{path}")).await.unwrap();
            let h1 = text_of(&client, "h1").await;
            assert!(!h1.is_empty(), "{path} has a heading");
            let fits = js(&client, "return document.documentElement.scrollWidth <= innerWidth").await;
            assert_eq!(fits, serde_json::json!(true), "{path} is wider than {width}px");
            screenshot(&client, &format!("{name}-{width}x{height}")).await;
        }
    }
    // Bo's page: his session at Table 7 with his buy-in.
    client.goto(&format!("{base}/players/2")).await.unwrap();
    assert_eq!(text_of(&client, "h1").await, "Bo");
    assert!(text_of(&client, "table.report").await.contains("100.00"));
    // A refused seed keeps the amount typed and marks the note.
    client.goto(&format!("{base}/admin/pools/1")).await.unwrap();
    let amount = client.find(Locator::Css("form[action$='/seed'] input[name=amount]")).await.unwrap();
    amount.send_keys("25").await.unwrap();
    // Spaces pass the browser's own check of a required field; the service refuses them.
    let note = client.find(Locator::Css("form[action$='/seed'] input[name=note]")).await.unwrap();
    note.send_keys("   ").await.unwrap();
    client.find(Locator::Css("form[action$='/seed'] button")).await.unwrap().click().await.unwrap();
    eventually("the refused seed", || async {
        js(&client, "const n = document.querySelector(\"form[action$='/seed'] [name=note]\"); return n && n.getAttribute('aria-invalid') === 'true'").await
            == serde_json::json!(true)
    })
    .await;
    let kept = js(&client, "return document.querySelector(\"form[action$='/seed'] input[name=amount]\").value").await;
    assert_eq!(kept, serde_json::json!("25"));
    screenshot(&client, "admin-pool-seed-refused-1024x768").await;
    client.close().await.unwrap();
}

/// A four-seat hand with no jackpot trigger, as the API takes it.
const PLAIN_HAND: &str = r#"{"seats":[
 {"seat":1,"front":"Ah Ad 2c","middle":"Kh Kd Kc 3c 4d","back":"5s 6s 7s 8s 9s"},
 {"seat":2,"front":"Qs Qh 3d","middle":"Ts Th Td 5d 6d","back":"7h 8h 9h Jh 2h"},
 {"seat":3,"front":"Js Jd 4c","middle":"9d 9c 5c 5h 6c","back":"Ac Qc Tc 8c 7c"},
 {"seat":4,"front":"As Ks Qd","middle":"4s 4h 8d Jc 6h","back":"2s 2d 3s 3h 7d"}]}"#;

#[actix_web::test]
async fn the_count_team_counts_and_an_accountant_closes_the_gaming_day() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    set_up(&app);
    // Two hands at Table 7: four seats at 0.50 each, 0.10 of it to the pool:
    // rake 4.00, of which 0.80 the jackpot part.
    for n in 1..=2 {
        assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
        assert_eq!(request(&app, "POST", &format!("/api/v1/tables/1/hands/{n}/commit"), PLAIN_HAND).0, 201);
    }
    let (_, days) = request(&app, "GET", "/api/v1/gaming-days", "");
    let today = days["today"].as_str().unwrap().to_string();
    app.user("cora", &["count"], &[]);
    app.user("abe", &["accountant"], &[]);
    let base = format!("http://{}", app.base);
    let (profile_a, profile_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let cora = browser(port, profile_a.path()).await;
    let abe = browser(port, profile_b.path()).await;
    sign_in(&cora, &base, "cora").await;
    sign_in(&abe, &base, "abe").await;

    // Cora finds the day from the bar and counts Table 7's boxes: 3.10 in
    // the rake box (3.20 expected: 0.10 short) and 0.80 in the jackpot box.
    cora.find(Locator::Css(".bar a[href='/gaming-days']")).await.unwrap().click().await.unwrap();
    eventually("the list of days", || async { path_of(&cora).await == "/gaming-days" }).await;
    assert!(text_of(&cora, &format!("#day-{today}")).await.contains("1 table to count"));
    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&cora, width, height).await;
        screenshot(&cora, &format!("gaming-days-{width}x{height}")).await;
        let wide = js(&cora, "return document.documentElement.scrollWidth <= innerWidth").await;
        assert_eq!(wide, serde_json::json!(true), "the list of days is wider than {width} px");
    }
    cora.find(Locator::Css(&format!("#day-{today} a"))).await.unwrap().click().await.unwrap();
    eventually("the day", || async { path_of(&cora).await == format!("/gaming-days/{today}") }).await;
    // A typing slip first: refused beside the form, what was typed kept.
    let form = cora.find(Locator::Css("#count-1")).await.unwrap();
    form.find(Locator::Css("input[name=rake_drop]")).await.unwrap().send_keys("3,10").await.unwrap();
    form.find(Locator::Css("input[name=jackpot_drop]")).await.unwrap().send_keys("0.80").await.unwrap();
    form.find(Locator::Css("button")).await.unwrap().click().await.unwrap();
    eventually("the refusal", || async { text_of(&cora, "#count-1 .field-problem").await.contains("rake drop") }).await;
    let jackpot = cora.find(Locator::Css("#count-1 input[name=jackpot_drop]")).await.unwrap();
    assert_eq!(jackpot.prop("value").await.unwrap().as_deref(), Some("0.80"));
    let rake = cora.find(Locator::Css("#count-1 input[name=rake_drop]")).await.unwrap();
    rake.clear().await.unwrap();
    rake.send_keys("3.10").await.unwrap();
    cora.find(Locator::Css("#count-1 button")).await.unwrap().click().await.unwrap();
    eventually("the count saved", || async { text_of(&cora, "#notice").await.contains("Count of Table 7 saved") })
        .await;
    let row = text_of(&cora, "#table-1").await;
    assert!(row.contains("4.00") && row.contains("3.20") && row.contains("3.10") && row.contains("-0.10"), "{row}");
    assert!(row.contains("cora"), "{row}");
    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&cora, width, height).await;
        screenshot(&cora, &format!("gaming-day-counted-{width}x{height}")).await;
        let wide = js(&cora, "return document.documentElement.scrollWidth <= innerWidth").await;
        assert_eq!(wide, serde_json::json!(true), "the day is wider than {width} px");
    }
    // Cora signs the count off; she cannot close the day.
    cora.find(Locator::Css("#signoff-count button")).await.unwrap().click().await.unwrap();
    eventually("the count signed off", || async { text_of(&cora, "#day-status").await == "counted" }).await;
    assert!(text_of(&cora, "#signed-count").await.contains("cora"));
    assert!(cora.find(Locator::Css("#signoff-accountant")).await.is_err());
    assert!(cora.find(Locator::Css("#count-forms")).await.is_err(), "no counting after the sign-off");

    // Abe, an accountant, finds the days beside the reports.
    abe.goto(&format!("{base}/reports")).await.unwrap();
    abe.find(Locator::Css(".subnav a[href='/gaming-days']")).await.unwrap().click().await.unwrap();
    eventually("the list of days", || async { path_of(&abe).await == "/gaming-days" }).await;
    assert!(text_of(&abe, &format!("#day-{today}")).await.contains("counted"));
    abe.find(Locator::Css(&format!("#day-{today} a"))).await.unwrap().click().await.unwrap();
    eventually("the day", || async { path_of(&abe).await == format!("/gaming-days/{today}") }).await;
    assert!(abe.find(Locator::Css("#count-forms")).await.is_err(), "accountants do not count");
    abe.find(Locator::Css("#signoff-accountant input[name=note]")).await.unwrap().send_keys("checked").await.unwrap();
    abe.find(Locator::Css("#signoff-accountant button")).await.unwrap().click().await.unwrap();
    eventually("the day closed", || async { text_of(&abe, "#day-status").await == "closed" }).await;
    assert!(text_of(&abe, "#notice").await.contains("is closed"));
    assert!(text_of(&abe, "#signed-accountant").await.contains("abe"));
    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&abe, width, height).await;
        screenshot(&abe, &format!("gaming-day-closed-{width}x{height}")).await;
        let wide = js(&abe, "return document.documentElement.scrollWidth <= innerWidth").await;
        assert_eq!(wide, serde_json::json!(true), "the closed day is wider than {width} px");
    }
    // The end-of-day report on paper: no forms, the signature lines.
    viewport(&abe, 703, 1032).await;
    js(&abe, "const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = '/static/print.css'; document.head.append(l); return true").await;
    eventually("the print stylesheet", || async {
        js(&abe, "return getComputedStyle(document.querySelector('#signoff-forms')).display").await
            == serde_json::json!("none")
    })
    .await;
    assert!(text_of(&abe, ".signatures").await.contains("Accountant (name and signature)"));
    screenshot(&abe, "gaming-day-print-a4").await;
    let (_, day) = request(&app, "GET", &format!("/api/v1/gaming-days/{today}"), "");
    assert_eq!(day["status"], "closed");
    assert_eq!(day["tables"][0]["rake_variance"], "-0.10");
    cora.close().await.unwrap();
    abe.close().await.unwrap();
}

/// Loads the print stylesheet into the page as if printing on A4 (its
/// printable width, 186 mm ≈ 703 px): navigation and buttons gone, nothing
/// wider than the paper.
async fn as_on_a4(client: &Client) -> serde_json::Value {
    viewport(client, 703, 1032).await;
    js(client, "const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = '/static/print.css'; document.head.append(l); return true").await;
    eventually("the print stylesheet", || async {
        js(client, "return getComputedStyle(document.querySelector('.bar')).display").await == serde_json::json!("none")
    })
    .await;
    let fits =
        js(client, "return [document.documentElement.scrollWidth, innerWidth, document.documentElement.scrollHeight]")
            .await;
    assert!(fits[0].as_i64() <= fits[1].as_i64(), "wider than A4: {fits}");
    let hidden = js(
        client,
        "return [...document.querySelectorAll('[data-print], .actions .action')].every(e => e.offsetParent === null)",
    )
    .await;
    assert_eq!(hidden, serde_json::json!(true), "buttons on paper");
    fits
}

/// The page at `width`×`height` never scrolls sideways; a screenshot `name-WxH`.
async fn fits_across(client: &Client, width: i64, height: i64, name: &str) {
    viewport(client, width, height).await;
    let wide = js(client, "return [document.documentElement.scrollWidth, innerWidth]").await;
    assert!(wide[0].as_i64() <= wide[1].as_i64(), "{name} scrolls sideways at {width}×{height}: {wide}");
    screenshot(client, &format!("{name}-{width}x{height}")).await;
}

#[actix_web::test]
async fn the_jackpot_and_cash_out_slips_print_and_the_reports_fit_the_screen() {
    let Some((_driver, port)) = chromedriver() else { return };
    let app = spawn_app("sqlite");
    set_up(&app);
    assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
    let (status, answer) = request(&app, "POST", "/api/v1/tables/1/hands/1/commit", BAD_BEAT);
    assert_eq!(status, 201, "{answer}");
    let flo = app.person("flo", &["floor"], &[]);
    let ada = app.person("ada", &["admin"], &[]);
    assert_eq!(request(&flo, "POST", "/api/v1/jackpots/1/approve", "{}").0, 200);
    let (status, paid) = request(&ada, "POST", "/api/v1/jackpots/1/verify", "{}");
    assert_eq!(status, 200, "{paid}");
    let profile = tempfile::tempdir().unwrap();
    let client = browser(port, profile.path()).await;
    let base = format!("http://{}", app.base);
    sign_in(&client, &base, "boss").await;

    // The floor page after payment: the breakdown, and the slip a click away.
    viewport(&client, 1366, 768).await;
    client.goto(&format!("{base}/floor")).await.unwrap();
    let decided = text_of(&client, "#decided-hit-1 .paid-to").await;
    assert!(decided.contains("seat 1 Ann (loser)") && decided.contains("seat 2 Bo (winner)"), "{decided}");
    fits_across(&client, 1024, 768, "floor-paid").await;
    fits_across(&client, 1366, 768, "floor-paid").await;
    client.find(Locator::Css("#decided-hit-1 a[href='/jackpots/1/slip']")).await.unwrap().click().await.unwrap();
    eventually("the payout slip", || async { text_of(&client, "h1").await.starts_with("Jackpot payout slip") }).await;
    let slip = text_of(&client, "#slip").await;
    for part in ["Table 7", "Ann", "Bo", "Cy", "Dee", "flo", "ada", "Approved by", "Verified by"] {
        assert!(slip.contains(part), "{part} not on the slip: {slip}");
    }
    let lines = client.find_all(Locator::Css(".signature .line")).await.unwrap().len();
    assert_eq!(lines, 6, "four players paid and two signers");
    fits_across(&client, 1366, 768, "jackpot-slip").await;
    fits_across(&client, 1024, 768, "jackpot-slip").await;
    let a4 = as_on_a4(&client).await;
    eprintln!("the payout slip on A4: {a4}");
    screenshot(&client, "jackpot-slip-print-a4").await;

    // A cash-out from the table page, on to its slip at its own address.
    viewport(&client, 1024, 768).await;
    client.goto(&format!("{base}/tables/1")).await.unwrap();
    client.find(Locator::Css(".seat[data-seat='3'] .seat-actions summary")).await.unwrap().click().await.unwrap();
    client
        .find(Locator::Css(".seat[data-seat='3'] form[action*='cash-out'] button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    eventually("the confirmation", || async { text_of(&client, "h1").await == "Cash out Cy?" }).await;
    client.find(Locator::Id("confirm-cash-out")).await.unwrap().click().await.unwrap();
    eventually("the slip", || async { text_of(&client, "h1").await == "Cash-out slip" }).await;
    let path = client.current_url().await.unwrap().path().to_string();
    assert!(path.starts_with("/tables/1/cash-outs/") && path.ends_with("/slip"), "{path}");
    let slip = text_of(&client, "#slip").await;
    assert!(slip.contains("Cy") && slip.contains("150.00") && slip.contains("boss"), "{slip}");
    assert!(text_of(&client, "#notice").await.contains("Cy cashed out"));
    // The address stays: a reload shows the same slip (the notice said once).
    client.refresh().await.unwrap();
    eventually("the slip again", || async { text_of(&client, "#slip").await == slip }).await;
    fits_across(&client, 1366, 768, "cash-out-slip").await;
    fits_across(&client, 1024, 768, "cash-out-slip").await;
    as_on_a4(&client).await;
    screenshot(&client, "cash-out-slip-print-a4").await;

    // The reports: the sessions table fits at 1366 px; at 1024 it scrolls in
    // its own box, never the page. The jackpot chart marks the hit and seeds.
    for (width, height) in [(1366, 768), (1024, 768)] {
        viewport(&client, width, height).await;
        client.goto(&format!("{base}/reports/sessions")).await.unwrap();
        let sizes = js(
            &client,
            "const t = document.querySelector('#sessions-table'); const box = t.parentElement; \
             return [document.documentElement.scrollWidth, innerWidth, t.scrollWidth, box.clientWidth]",
        )
        .await;
        assert!(sizes[0].as_i64() <= sizes[1].as_i64(), "the sessions page scrolls sideways: {sizes}");
        if width == 1366 {
            assert!(sizes[2].as_i64() <= sizes[3].as_i64(), "the sessions table does not fit at 1366: {sizes}");
        }
        screenshot(&client, &format!("report-sessions-{width}x{height}")).await;
        client.goto(&format!("{base}/reports/jackpots")).await.unwrap();
        let marks = client.find_all(Locator::Css("#jackpot-chart-title")).await.unwrap().len();
        assert_eq!(marks, 1);
        assert_eq!(client.find_all(Locator::Css("svg g.mark.hit")).await.unwrap().len(), 1);
        assert_eq!(client.find_all(Locator::Css("svg g.mark.seed")).await.unwrap().len(), 2);
        let wide = js(&client, "return document.documentElement.scrollWidth <= innerWidth").await;
        assert_eq!(wide, serde_json::json!(true), "the jackpots report scrolls sideways at {width}");
        screenshot(&client, &format!("report-jackpots-{width}x{height}")).await;
    }
    client.close().await.unwrap();
}
