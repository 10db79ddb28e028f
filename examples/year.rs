//! A year-scale database, and what every report and page costs on it
//! (issue 17; figures in docs/benchmarks.md).
//!
//! `cargo run --release --example year -- DATABASE_URL CHECKPOINT…`
//!
//! Plays a room of 50 four-seat tables (hawaiian-gardens, unit 1.00, rake
//! 0.50 a seat with 0.10 to one shared jackpot pool, Los Angeles time, 06:00
//! cutoff) through the service's own use cases, in process: start and commit
//! (cards dealt at random and set the house way), players leaving and new
//! ones sitting down (one seat in 150 a hand, `PITBOSS_YEAR_LEAVE_ONE_IN`),
//! add-ons when a stack runs low,
//! and a misdeal voided now and then (one hand in 1,000). The process clock
//! is moved gaming day by gaming day (`db::set_clock_offset`): 40,000 hands
//! a day (`PITBOSS_YEAR_HANDS_PER_DAY`), the last day ending today.
//!
//! At each checkpoint (hands committed: `100000 500000 2000000`) it prints
//! the database's size per hand, the start-and-commit latency of the day
//! just played, and the time of every report and page through HTTP on
//! loopback (the release server in this process, a bearer token; the median
//! and the slowest of 5 after one warm-up, and the median time to the
//! answer's head, which for a CSV file streamed in parts comes once its first
//! part is read), as markdown rows.
//!
//! The database must be new (an empty SQLite file path, or an empty
//! PostgreSQL database). Nothing but the given database and loopback is used.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chrono::{NaiveDate, NaiveTime, TimeZone, Utc};
use diesel::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;

use pitboss::db::{Database, DbConnection};
use pitboss::domain::{Actor, HandNumber, Money, TableId};
use pitboss::engine::card::{display_cards, Card};
use pitboss::service::hands::{self, ShowdownRequest, StartHandRequest, VoidRequest};
use pitboss::service::{tables, users};

/// The allocator of the `pitboss` binary, set as src/main.rs sets it (the
/// two must stay the same), so that the server in this process is the one
/// that is deployed.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const TABLES: usize = 50;
const SEATS: i32 = 4;
const ZONE: &str = "America/Los_Angeles";
const BUY_IN: &str = "500";

fn hands_per_day() -> u64 {
    std::env::var("PITBOSS_YEAR_HANDS_PER_DAY").ok().and_then(|v| v.parse().ok()).unwrap_or(40_000)
}

/// A seat's player leaves after a hand with a chance of one in this many
/// (`PITBOSS_YEAR_LEAVE_ONE_IN`, default 150: about 1,070 sessions a gaming
/// day at 40,000 hands). A year's sessions with fewer hands a day: 4,000
/// hands a day and 15 make as many sessions a day as the full room.
fn leave_one_in() -> u32 {
    std::env::var("PITBOSS_YEAR_LEAVE_ONE_IN").ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(150)
}

struct Room {
    db: Database,
    url: String,
    actor: Actor,
    token: String,
    tables: Vec<TableId>,
    /// Players seated so far (for new names).
    players: AtomicU64,
}

fn main() {
    pitboss::allocator::configure();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((url, checkpoints)) = args.split_first() else {
        eprintln!("usage: year DATABASE_URL CHECKPOINT… (hands committed, e.g. 100000 500000 2000000)");
        std::process::exit(2);
    };
    if checkpoints == ["again"] {
        return Room::again(url);
    }
    let mut checkpoints: Vec<u64> = checkpoints.iter().map(|c| c.parse().expect("a checkpoint is a number")).collect();
    checkpoints.sort_unstable();
    let last = *checkpoints.last().expect("at least one checkpoint");
    let per_day = hands_per_day();
    let days = last.div_ceil(per_day);
    let room = Room::open(url);
    let zone: chrono_tz::Tz = ZONE.parse().unwrap();
    let today = Utc::now().with_timezone(&zone).date_naive();
    let first_day = today - chrono::Duration::days(days as i64 - 1);
    println!("# {} : {TABLES} tables, {per_day} hands a gaming day, {days} days from {first_day}", redact(url));
    let server = room.serve();
    let mut played = 0u64;
    let mut next = checkpoints.iter().copied().peekable();
    for d in 0..days {
        let day = first_day + chrono::Duration::days(d as i64);
        // 07:00 in the casino: well inside the gaming day that starts 06:00.
        let start = zone.from_local_datetime(&day.and_time(NaiveTime::from_hms_opt(7, 0, 0).unwrap())).unwrap();
        pitboss::db::set_clock_offset(start.with_timezone(&Utc) - Utc::now());
        // A checkpoint may fall within the day: the day goes on after it.
        let day_ends = (played + per_day).min(last);
        let mut part = 0;
        let mut checked_at_end = false;
        while played < day_ends {
            let want = next.peek().copied().unwrap_or(last).min(day_ends) - played;
            let started = Instant::now();
            // Each part of a day deals its own cards.
            let latencies = room.play_day(want, d * 16 + part);
            part += 1;
            played += want;
            eprintln!(
                "day {day}: {want} hands in {:.1} s ({:.0}/s); {played} in all",
                started.elapsed().as_secs_f64(),
                want as f64 / started.elapsed().as_secs_f64()
            );
            if next.peek() == Some(&played) {
                next.next();
                room.checkpoint(&server, played, day, first_day, latencies);
                // A checkpoint vacuums the whole database (`size`).
                checked_at_end = played == day_ends;
            }
        }
        if !checked_at_end {
            room.vacuum_rollups();
        }
    }
    pitboss::db::set_clock_offset(chrono::Duration::zero());
}

fn redact(url: &str) -> String {
    url.split('?').next().unwrap_or(url).to_string()
}

impl Room {
    /// `year DATABASE_URL again`: times every report and page again on a
    /// database this tool built (with this build's code), playing nothing.
    fn again(url: &str) {
        use pitboss::db::schema::{casino_tables, hands, users as user_rows};
        let db = pitboss::db::connect(url, 24).expect("open the database");
        let mut conn = db.conn().expect("a connection");
        let played: i64 = hands::table.count().get_result(&mut **conn).expect("count hands");
        let builder: pitboss::domain::UserId = user_rows::table
            .filter(user_rows::username.eq("builder"))
            .select(user_rows::id)
            .first(&mut **conn)
            .expect("a database this tool built");
        let ids: Vec<TableId> =
            casino_tables::table.order(casino_tables::id).select(casino_tables::id).load(&mut **conn).unwrap();
        let days: Vec<String> = pitboss::db::schema::table_days::table
            .select(pitboss::db::schema::table_days::gaming_day)
            .distinct()
            .order(pitboss::db::schema::table_days::gaming_day)
            .load(&mut **conn)
            .unwrap();
        drop(conn);
        let day = |t: &String| NaiveDate::parse_from_str(t, "%Y-%m-%d").unwrap();
        let (first, today) = (day(days.first().unwrap()), day(days.last().unwrap()));
        let setup = Actor::command_line();
        let token = users::create_token(
            &db,
            &setup,
            builder,
            users::NewTokenRequest { label: "year builder again".to_string(), ..Default::default() },
        )
        .expect("make a token")
        .token;
        let actor =
            Actor { user_id: Some(builder), username: "builder".to_string(), ip: "year".to_string(), token_id: None };
        println!("# {} again: {played} hands, {first} to {today}", redact(url));
        let room = Room { db, url: url.to_string(), actor, token, tables: ids, players: AtomicU64::new(0) };
        let server = room.serve();
        room.checkpoint(&server, played as u64, today, first, Vec::new());
    }

    fn open(url: &str) -> Room {
        // A connection for every table's worker and a few for the
        // checkpoints' server: a worker never waits for one, so a slow
        // machine cannot time a worker out of the pool (`database_unavailable`
        // stopped a build at 1,118,469 hands when it shared the cores).
        let db = pitboss::db::connect(url, TABLES as u32 + 4).expect("open the database");
        let mut conn = db.conn().expect("a connection");
        let hands: i64 = pitboss::db::schema::hands::table.count().get_result(&mut **conn).expect("count hands");
        assert_eq!(hands, 0, "the database must be new");
        drop(conn);
        let setup = Actor::command_line();
        let user = users::create_user(
            &db,
            &setup,
            users::NewUserRequest {
                username: "builder".to_string(),
                display_name: Some("Year builder".to_string()),
                roles: ["admin", "floor", "accountant", "dealer"].map(String::from).to_vec(),
                password: format!("builder-{}", users::random_hex(8)),
                tables: Vec::new(),
            },
            false,
        )
        .expect("make the builder's user");
        let token = users::create_token(
            &db,
            &setup,
            user.id,
            users::NewTokenRequest { label: "year builder".to_string(), ..Default::default() },
        )
        .expect("make a token")
        .token;
        let actor = Actor {
            user_id: Some(user.id),
            username: "builder".to_string(),
            ip: "year builder".to_string(),
            token_id: None,
        };
        let pool = tables::create_pool(
            &db,
            &actor,
            tables::NewPool {
                name: "Bad beat".to_string(),
                seed: Money::parse("1000", "seed").unwrap(),
                shares: None,
                time_zone: Some(ZONE.to_string()),
                gaming_day_cutoff: Some("06:00".to_string()),
            },
        )
        .expect("make the pool");
        let mut ids = Vec::new();
        for t in 1..=TABLES {
            let body: pitboss::web::bodies::NewTableBody = serde_json::from_value(json!({
                "name": format!("Table {t:02}"), "seat_count": SEATS, "pool_id": pool.id, "time_zone": ZONE,
                "gaming_day_cutoff": "06:00", "preset": "hawaiian-gardens", "unit": "1", "rake_per_seat": "0.50",
                "jackpot_part": "0.10",
            }))
            .unwrap();
            let table = tables::create_table(&db, &actor, body.parse().unwrap()).expect("make a table");
            ids.push(table.id);
        }
        let room = Room { db, url: url.to_string(), actor, token, tables: ids, players: AtomicU64::new(0) };
        for &table in &room.tables {
            for seat in 1..=SEATS {
                room.sit(table, seat);
            }
        }
        room
    }

    fn sit(&self, table: TableId, seat: i32) {
        let n = self.players.fetch_add(1, Ordering::Relaxed) + 1;
        tables::seat_player(
            &self.db,
            &self.actor,
            table,
            tables::SeatPlayer {
                seat,
                player: pitboss::service::players::PlayerChoice {
                    name: Some(format!("Player {n}")),
                    ..Default::default()
                },
                buy_in: Money::parse(BUY_IN, "buy_in").unwrap(),
            },
        )
        .expect("seat a player");
    }

    /// Tops up every stack below 100.00 (an add-on of 500.00).
    fn top_up(&self, table: TableId) {
        let view = tables::get_table(&mut self.db.conn().expect("a connection"), table).expect("the table");
        for s in view.seats {
            if s.stack < Money::parse("100", "x").unwrap() {
                tables::add_on(&self.db, &self.actor, table, s.seat, Money::parse(BUY_IN, "x").unwrap())
                    .expect("an add-on");
            }
        }
    }

    /// Plays `hands` hands over the tables at once; the start-and-commit
    /// latencies.
    fn play_day(&self, hands: u64, day: u64) -> Vec<Duration> {
        let per_table = hands / TABLES as u64;
        let extra = hands % TABLES as u64;
        std::thread::scope(|scope| {
            let workers: Vec<_> = self
                .tables
                .iter()
                .enumerate()
                .map(|(i, &table)| {
                    let n = per_table + u64::from((i as u64) < extra);
                    scope.spawn(move || self.play_table(table, n, day * 1_000 + i as u64))
                })
                .collect();
            workers.into_iter().flat_map(|w| w.join().expect("a table's worker")).collect()
        })
    }

    fn play_table(&self, table: TableId, hands: u64, seed: u64) -> Vec<Duration> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let rules = pitboss::engine::ruleset::preset("hawaiian-gardens").expect("the preset");
        let mut latencies = Vec::with_capacity(hands as usize);
        let mut played = 0;
        let leave = leave_one_in();
        while played < hands {
            let t0 = Instant::now();
            let hand = match hands::start_hand(&self.db, &self.actor, table, StartHandRequest { seats: None }) {
                Ok(h) => h,
                Err(e) if e.code == "too_few_seats" => {
                    self.top_up(table);
                    continue;
                }
                Err(e) => panic!("table {table}: start: {e}"),
            };
            let mut deck: Vec<Card> = Card::deck().collect();
            deck.shuffle(&mut rng);
            let seats: Vec<serde_json::Value> = hand
                .seats
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let cards: [Card; 13] = deck[k * 13..k * 13 + 13].try_into().unwrap();
                    let set = pitboss::engine::setter::house_set(&cards, rules);
                    json!({"seat": s.seat, "front": display_cards(&set.front), "middle": display_cards(&set.middle),
                           "back": display_cards(&set.back)})
                })
                .collect();
            let req: ShowdownRequest = serde_json::from_value(json!({ "seats": seats })).unwrap();
            let committed = hands::commit(&self.db, &self.actor, table, hand.number, req, None);
            latencies.push(t0.elapsed());
            if let Err(e) = committed {
                panic!("table {table}: commit hand {}: {e}", hand.number);
            }
            played += 1;
            if rng.random_range(0..1_000) == 0 {
                let void = VoidRequest {
                    reason: serde_json::from_value(json!("misdeal")).unwrap(),
                    note: "year builder: a misdeal".to_string(),
                };
                // Refused when a jackpot hit of the hand stands in the way:
                // then it stays committed.
                let _ = hands::void(&self.db, &self.actor, table, hand.number, void);
            }
            for s in &hand.seats {
                if rng.random_range(0..leave) == 0 && tables::cash_out(&self.db, &self.actor, table, s.seat).is_ok() {
                    self.sit(table, s.seat.get());
                }
            }
            if played % 25 == 0 {
                self.top_up(table);
            }
        }
        latencies
    }

    /// The release server on this database, in this process: its address.
    fn serve(&self) -> String {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let server = pitboss::web::run(listener, self.db.clone()).expect("start the server");
        std::thread::spawn(move || actix_web::rt::System::new().block_on(server));
        base
    }

    fn checkpoint(&self, base: &str, hands: u64, today: NaiveDate, first: NaiveDate, latencies: Vec<Duration>) {
        let (bytes, biggest) = self.size();
        println!("\n## {hands} hands ({} gaming days)\n", (today - first).num_days() + 1);
        println!("database: {:.1} MB, **{:.0} bytes per hand**", bytes as f64 / 1e6, bytes as f64 / hands as f64);
        for (name, size) in biggest {
            println!("- {name}: {:.1} MB ({:.0} bytes per hand)", size as f64 / 1e6, size as f64 / hands as f64);
        }
        let mut sorted = latencies;
        sorted.sort_unstable();
        let pct = |p: f64| sorted[((sorted.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3;
        if !sorted.is_empty() {
            println!(
                "start + commit in process, the last day ({} hands, 50 tables at once): p50 {:.1} ms, p99 {:.1} ms\n",
                sorted.len(),
                pct(0.5),
                pct(0.99)
            );
        }
        let last_hand: i64 = {
            let mut conn = self.db.conn().unwrap();
            pitboss::db::schema::hands::table
                .filter(pitboss::db::schema::hands::table_id.eq(self.tables[0]))
                .select(diesel::dsl::max(pitboss::db::schema::hands::number))
                .first::<Option<HandNumber>>(&mut **conn)
                .unwrap()
                .map_or(1, |n| i64::from(n.get()))
        };
        let t = self.tables[0];
        let week = format!("from={}&to={today}", today - chrono::Duration::days(6));
        let month = format!("from={}&to={today}", today - chrono::Duration::days(29));
        let year = format!("from={}&to={today}", (today - chrono::Duration::days(365)).max(first));
        let mut paths: Vec<String> = Vec::new();
        for report in ["rake", "jackpots", "sessions"] {
            for range in [&week, &month, &year] {
                paths.push(format!("/reports/{report}.json?{range}"));
            }
            paths.push(format!("/reports/{report}.csv?{month}"));
            paths.push(format!("/reports/{report}?{month}"));
        }
        // The sessions report deep into a year's range: the page after the
        // middle seating, and the whole year's CSV file (a download).
        let middle: i64 = {
            let mut conn = self.db.conn().unwrap();
            pitboss::db::schema::seatings::table
                .select(diesel::dsl::max(pitboss::db::schema::seatings::id))
                .first::<Option<pitboss::domain::SeatingId>>(&mut **conn)
                .unwrap()
                .map_or(1, |s| s.get() / 2)
        };
        paths.push(format!("/reports/sessions.json?{year}&after={middle}"));
        paths.push(format!("/reports/sessions.csv?{year}"));
        // A table's ledger, a page of 1,000 rows: the first, one from the
        // middle of the ledger, and the newest rows.
        let last_entry: i64 = {
            let mut conn = self.db.conn().unwrap();
            pitboss::db::schema::ledger_entries::table
                .select(diesel::dsl::max(pitboss::db::schema::ledger_entries::id))
                .first::<Option<pitboss::domain::EntryId>>(&mut **conn)
                .unwrap()
                .map_or(0, |e| e.get())
        };
        paths.push(format!("/api/v1/tables/{t}/ledger"));
        paths.push(format!("/api/v1/tables/{t}/ledger?after={}", last_entry / 2));
        paths.push(format!("/api/v1/tables/{t}/ledger?after={}", (last_entry - 20_000).max(0)));
        paths.extend([
            "/".to_string(),
            "/floor".to_string(),
            "/display".to_string(),
            "/exceptions".to_string(),
            "/audit".to_string(),
            "/admin/tables".to_string(),
            format!("/tables/{t}"),
            format!("/tables/{t}/hands/{last_hand}/sheet"),
            format!("/api/v1/tables/{t}"),
            format!("/api/v1/tables/{t}/hands/{last_hand}"),
            "/api/v1/pools/1".to_string(),
            "/api/v1/jackpots".to_string(),
            "/api/v1/audit".to_string(),
            "/api/v1/exceptions".to_string(),
        ]);
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        // The answer's head (status and headers: a CSV file's first part is
        // read before them) and the whole answer, read as it comes.
        let time = |path: &str| {
            let t0 = Instant::now();
            let answer = agent
                .get(format!("{base}{path}"))
                .header("Authorization", format!("Bearer {}", self.token))
                .header("Accept", "text/html,application/json")
                .call()
                .expect("an answer");
            let head = t0.elapsed();
            let status = answer.status().as_u16();
            // Read as it comes, as a browser saves a download (not held whole).
            let mut body = answer.into_body();
            let size = std::io::copy(&mut body.as_reader(), &mut std::io::sink()).unwrap_or_default();
            (head, t0.elapsed(), status, size as usize)
        };
        // The sessions file of the year before its groups are kept (a
        // database from before they were, or a server whose keeper has not
        // looked yet), then kept as the server's keeper keeps them: every
        // table's gaming day that has ended (`web::sessions_file`).
        let year_file = format!("/reports/sessions.csv?{year}");
        let _ = time(&year_file);
        let (_, read, _, size) = time(&year_file);
        let started = Instant::now();
        let mut kept = 0;
        loop {
            let (n, more) = pitboss::web::sessions_file::keep(&self.db, chrono_tz::UTC, pitboss::db::now(), 1_000)
                .expect("keep the sessions file's groups");
            kept += n;
            if !more {
                break;
            }
        }
        let (groups, packed) = self.kept_size();
        println!(
            "the year's sessions file before the keeper's look: {:.1} ms ({size} bytes); then {kept} groups kept in \
             {:.1} s, {groups} kept in all ({:.1} MB, {:.1} bytes per hand)\n",
            read.as_secs_f64() * 1e3,
            started.elapsed().as_secs_f64(),
            packed as f64 / 1e6,
            packed as f64 / hands as f64
        );
        // Each the median of 5.
        println!("| {hands} hands | head, median | whole, median | whole, slowest | bytes |\n|---|---|---|---|---|");
        for path in paths {
            let mut heads = Vec::new();
            let mut times = Vec::new();
            let mut size = 0;
            let mut status = 0;
            for _ in 0..6 {
                let (head, whole, answered, bytes) = time(&path);
                heads.push(head);
                times.push(whole);
                status = answered;
                size = bytes;
            }
            // The first is a warm-up.
            heads.remove(0);
            times.remove(0);
            heads.sort_unstable();
            times.sort_unstable();
            let flag = if status == 200 { String::new() } else { format!(" (status {status})") };
            println!(
                "| `{path}`{flag} | {:.1} ms | {:.1} ms | {:.1} ms | {size} |",
                heads[2].as_secs_f64() * 1e3,
                times[2].as_secs_f64() * 1e3,
                times[4].as_secs_f64() * 1e3
            );
        }
    }

    /// Part of what autovacuum does on a running server, for the rollups
    /// updated at every hand (a row a seating, a table's day, a pool): their
    /// dead rows given back for reuse, once a gaming day (autovacuum would
    /// come more often). Without it (this kind of machine runs PostgreSQL
    /// with autovacuum off) they grew to 80 bytes a hand and more by two
    /// million hands, for some 110,000 rows in all.
    fn vacuum_rollups(&self) {
        if pitboss::db::is_postgres(&self.url) {
            use diesel::connection::SimpleConnection;
            let started = Instant::now();
            let mut conn = DbConnection::establish(&self.url).expect("a connection");
            conn.batch_execute(
                "VACUUM seating_totals, seating_stacks, session_days, table_days, pool_balances, pool_days, open_seatings",
            )
            .unwrap();
            eprintln!("  the rollups vacuumed in {:.1} s", started.elapsed().as_secs_f64());
        }
    }

    /// The sessions file's groups kept, and their rows' bytes.
    fn kept_size(&self) -> (i64, i64) {
        #[derive(QueryableByName)]
        struct Kept {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            groups: i64,
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            bytes: i64,
        }
        let mut conn = DbConnection::establish(&self.url).expect("a connection");
        let k: Kept = diesel::sql_query(
            "SELECT COUNT(*) AS groups, CAST(COALESCE(SUM(LENGTH(rows_lz4)), 0) AS BIGINT) AS bytes FROM session_files",
        )
        .get_result(&mut conn)
        .unwrap();
        (k.groups, k.bytes)
    }

    /// The database's size in bytes, and its biggest tables and indexes.
    fn size(&self) -> (u64, Vec<(String, u64)>) {
        #[derive(QueryableByName)]
        struct Sized {
            #[diesel(sql_type = diesel::sql_types::Text)]
            name: String,
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            bytes: i64,
        }
        let mut conn = DbConnection::establish(&self.url).expect("a connection");
        if pitboss::db::is_postgres(&self.url) {
            // What autovacuum does on a running server (a server with it off
            // would not keep the planner's statistics, the ledger's
            // block-range summaries or the rollups' dead rows): done here, so
            // that the sizes and the times below are those of a kept database.
            use diesel::connection::SimpleConnection;
            conn.batch_execute("VACUUM (ANALYZE)").unwrap();
            let total: Vec<Sized> =
                diesel::sql_query("SELECT 'all' AS name, pg_database_size(current_database()) AS bytes")
                    .load(&mut conn)
                    .unwrap();
            let parts: Vec<Sized> = diesel::sql_query(
                "SELECT relname::text AS name, pg_total_relation_size(oid) AS bytes FROM pg_class \
                 WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY 2 DESC LIMIT 8",
            )
            .load(&mut conn)
            .unwrap();
            (total[0].bytes as u64, parts.into_iter().map(|p| (p.name, p.bytes as u64)).collect())
        } else {
            use diesel::connection::SimpleConnection;
            conn.batch_execute("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
            let total: Vec<Sized> = diesel::sql_query(
                "SELECT 'all' AS name, (SELECT page_count FROM pragma_page_count()) * \
                 (SELECT page_size FROM pragma_page_size()) AS bytes",
            )
            .load(&mut conn)
            .unwrap();
            // Table by table where SQLite was built with the dbstat table.
            let parts: Vec<Sized> = diesel::sql_query(
                "SELECT name, CAST(SUM(pgsize) AS BIGINT) AS bytes FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 12",
            )
            .load(&mut conn)
            .unwrap_or_default();
            (total[0].bytes as u64, parts.into_iter().map(|p| (p.name, p.bytes as u64)).collect())
        }
    }
}
