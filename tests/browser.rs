//! The dealer screen in headless Chromium (Debian's `chromium` and
//! `chromium-driver`, installed by `.ci/run`): key in a four-seat showdown,
//! see the foul, correct it, commit, and read the settlement sheet.
//! Screenshots go to `target/screenshots/`.
//!
//! Outside CI the test is skipped when chromedriver is not installed; in CI
//! (`CI` set) a missing browser is a failure.

mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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
async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(10);
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

    // Key in every row with Enter between rows, starting from the focused front of seat 1.
    for rows in ROWS {
        for row in rows {
            let active = client.active_element().await.unwrap();
            active.send_keys(row).await.unwrap();
            active.send_keys("\u{E007}").await.unwrap(); // Enter
        }
    }
    eventually("the foul warning with a legal setting", || async {
        let note = text_of(&client, ".seat-entry[data-seat='4'] .seat-note").await;
        note.contains("back ace high is below middle two pair") && note.contains("a legal setting was: front")
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
    assert_eq!(commit.attr("disabled").await.unwrap().as_deref(), Some("true"));
    middle1.clear().await.unwrap();
    middle1.send_keys("js jh jd 2s 2h").await.unwrap();

    // Correct the foul: two pair in back, a pair of sixes in the middle, a low front.
    for (row, cards) in [("front", "4s 3c 2d"), ("middle", "6h 6d ah qs 8s"), ("back", "7h 7s 9h 9d 6s")] {
        let input = client.find(Locator::Css(&format!(".seat-entry[data-seat='4'] [data-field={row}]"))).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(cards).await.unwrap();
    }
    eventually("the commit button, with no foul left", || async {
        client.find(Locator::Id("commit")).await.unwrap().attr("disabled").await.unwrap().is_none()
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
        client.find(Locator::Id("commit")).await.unwrap().attr("disabled").await.unwrap().is_none()
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
