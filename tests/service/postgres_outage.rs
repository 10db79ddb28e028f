//! PostgreSQL stopped while the service runs: requests get a clear 503 (not a
//! 500), nothing half-written, and the service recovers by itself when the
//! database is back. The outage is a TCP proxy in front of PostgreSQL that the
//! test cuts and restores. And requests take turns at PostgreSQL, in the order
//! they came. The PostgreSQL parts run when `PITBOSS_TEST_POSTGRES_URL` is
//! set.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::{request, TestApp};
use diesel::connection::SimpleConnection;
use diesel::Connection;

/// Forwards 127.0.0.1:port to PostgreSQL until cut.
struct Proxy {
    port: u16,
    open: Arc<AtomicBool>,
    streams: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(port: u16, target: (String, u16)) -> Proxy {
        let listener = TcpListener::bind(("127.0.0.1", port)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(AtomicBool::new(true));
        let streams: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (open2, streams2) = (open.clone(), streams.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                if !open2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect((target.0.as_str(), target.1)) else { continue };
                streams2.lock().unwrap().extend([client.try_clone().unwrap(), server.try_clone().unwrap()]);
                for (mut from, mut to) in [(client.try_clone().unwrap(), server.try_clone().unwrap()), (server, client)]
                {
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 16384];
                        while let Ok(n) = from.read(&mut buf) {
                            if n == 0 || to.write_all(&buf[..n]).is_err() {
                                break;
                            }
                        }
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Proxy { port, open, streams }
    }

    /// PostgreSQL "stops": every connection is cut and no new one is accepted.
    fn cut(self) -> u16 {
        self.open.store(false, Ordering::SeqCst);
        for s in self.streams.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
        let _ = TcpStream::connect(("127.0.0.1", self.port)); // wake the accept loop so it ends
        self.port
    }
}

#[test]
fn postgres_outage_answers_503_and_recovers_by_itself() {
    let _ = env_logger::builder().is_test(true).try_init();
    let Ok(admin) = std::env::var("PITBOSS_TEST_POSTGRES_URL") else {
        eprintln!("skipping: PITBOSS_TEST_POSTGRES_URL is not set");
        return;
    };
    let name = format!("pitboss_outage_{}", std::process::id());
    let mut c = diesel::pg::PgConnection::establish(&admin).unwrap();
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).unwrap();
    c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    let (prefix, _) = admin.rsplit_once('/').unwrap();
    let (before_host, hostport) = prefix.rsplit_once('@').unwrap();
    let (host, port) = hostport
        .split_once(':')
        .map(|(h, p)| (h.to_string(), p.parse().unwrap()))
        .unwrap_or((hostport.to_string(), 5432));
    let proxy = Proxy::start(0, (host.clone(), port));
    let url = format!("{before_host}@127.0.0.1:{}/{name}", proxy.port);

    let db = pitboss::db::connect(&url, 4).expect("database through the proxy");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("127.0.0.1:{}", listener.local_addr().unwrap().port());
    let token = crate::support::make_user(&db, "boss", &["admin", "floor", "dealer"], &[]);
    let mut app = TestApp::at(&base).with_token(&token);
    crate::support::serve(&mut app, pitboss::web::run(listener, db).unwrap());
    assert_eq!(request(&app, "POST", "/api/v1/tables", r#"{"name":"T","preset":"simple","unit":"1"}"#).0, 201);
    assert_eq!(request(&app, "GET", "/readyz", "").0, 200);

    let port = proxy.cut();
    let deadline = Instant::now() + Duration::from_secs(30);
    for (method, path, body) in [
        ("GET", "/readyz", ""),
        ("GET", "/api/v1/tables/1", ""),
        ("POST", "/api/v1/tables/1/seats", r#"{"seat":1,"player":"A","buy_in":"10"}"#),
    ] {
        let started = Instant::now();
        let (status, answer) = request(&app, method, path, body);
        assert_eq!(status, 503, "{method} {path} during the outage: {answer}");
        assert!(answer["error"].as_str().unwrap_or("").contains("database"), "{answer}");
        assert!(started.elapsed() < Duration::from_secs(10), "{method} {path} took {:?}", started.elapsed());
    }
    // Scoring needs no database and goes on.
    let score = r#"{"ruleset":"simple","seats":[{"seat":1,"stack":"9","cards":"2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac","surrender":true},
        {"seat":2,"stack":"9","front":"2s 3s 4s","middle":"5h 6h 7h 8d 9d","back":"Th Jh Qh Kh Ah"}]}"#;
    assert_eq!(request(&app, "POST", "/api/v1/score", score).0, 200);

    // PostgreSQL comes back on the same address: the service recovers by itself.
    let _proxy = Proxy::start(port, (host, port_of(&admin)));
    loop {
        let (status, _) = request(&app, "GET", "/api/v1/tables/1", "");
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the service did not recover ({status})");
        std::thread::sleep(Duration::from_millis(200));
    }
    let (status, body) = request(&app, "POST", "/api/v1/tables/1/seats", r#"{"seat":1,"player":"A","buy_in":"10"}"#);
    assert_eq!(status, 201, "{body}");
    let (_, table) = request(&app, "GET", "/api/v1/tables/1", "");
    assert_eq!(table["seats"].as_array().unwrap().len(), 1, "the refused seat was not half-written");
    let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
}

fn port_of(url: &str) -> u16 {
    let (prefix, _) = url.rsplit_once('/').unwrap();
    let hostport = prefix.rsplit_once('@').map(|x| x.1).unwrap_or(prefix);
    hostport.split_once(':').and_then(|(_, p)| p.parse().ok()).unwrap_or(5432)
}

/// Polls `future` once, with a waker that does nothing.
fn poll_once<F: std::future::Future + Unpin>(future: &mut F) -> std::task::Poll<F::Output> {
    std::pin::Pin::new(future).poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
}

/// At most as many requests are at PostgreSQL at once as the pool has
/// connections, and a turn given back goes to the request that has waited
/// longest (`Database::turn`); a request waits for its turn, then answers,
/// or is answered 503 when no turn comes in time. SQLite has no turns (its
/// writes queue at its one writer).
#[test]
fn requests_take_turns_at_postgresql_in_the_order_they_came() {
    use std::task::Poll;
    let sqlite = crate::support::fresh_database("sqlite");
    let db = pitboss::db::connect(&sqlite.database_url, 2).unwrap();
    assert!(matches!(poll_once(&mut Box::pin(db.turn())), Poll::Ready(Ok(None))), "SQLite: no turns");
    if std::env::var("PITBOSS_TEST_POSTGRES_URL").is_err() {
        eprintln!("skipping the PostgreSQL part: PITBOSS_TEST_POSTGRES_URL is not set");
        return;
    }
    let mut app = crate::support::fresh_database("postgres");
    let db = pitboss::db::connect(&app.database_url, 2).unwrap();
    let token = crate::support::make_user(&db, "boss", &["admin", "floor", "dealer"], &[]);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = listener.local_addr().unwrap().to_string();
    crate::support::serve(&mut app, pitboss::web::run(listener, db.clone()).unwrap());
    let client = TestApp::at(&base).with_token(&token);
    assert_eq!(request(&client, "GET", "/api/v1/tables", "").0, 200);

    // (A turn waited for is timed: its timer needs a runtime to be made in.)
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let _inside = runtime.enter();
    let turn = || Box::pin(db.turn());
    let taken = |poll: Poll<Result<Option<_>, _>>| match poll {
        Poll::Ready(Ok(Some(t))) => t,
        Poll::Ready(Ok(None)) => panic!("PostgreSQL has turns"),
        Poll::Ready(Err(e)) => panic!("{e:?}"),
        Poll::Pending => panic!("a turn was free"),
    };
    let (first, second) = (taken(poll_once(&mut turn())), taken(poll_once(&mut turn())));
    let (mut third, mut fourth) = (turn(), turn());
    assert!(poll_once(&mut third).is_pending(), "two connections, two turns");
    assert!(poll_once(&mut fourth).is_pending());
    drop(first);
    assert!(poll_once(&mut fourth).is_pending(), "the turn given back is the third's: it asked first");
    let third = taken(poll_once(&mut third));
    drop(second);
    let fourth = taken(poll_once(&mut fourth));

    // A request waits while every turn is taken (signing in included), and
    // answers once one is given back.
    let client = Arc::new(client);
    let ask = |client: &Arc<TestApp>| {
        let client = client.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let _ = tx.send(request(&client, "GET", "/api/v1/tables", ""));
        });
        (rx, thread)
    };
    let (answer, thread) = ask(&client);
    assert!(answer.recv_timeout(Duration::from_millis(300)).is_err(), "a request went ahead of its turn");
    drop(third);
    let (status, body) = answer.recv_timeout(Duration::from_secs(30)).expect("the request answers in its turn");
    assert_eq!(status, 200, "{body}");
    thread.join().unwrap();
    // No turn within the time a connection is waited for: 503, saying why;
    // then, with the turns given back, the next request answers.
    let again = taken(poll_once(&mut turn()));
    let started = Instant::now();
    let (answer, thread) = ask(&client);
    let (status, body) = answer.recv_timeout(Duration::from_secs(30)).expect("a request waits for its turn in bounds");
    thread.join().unwrap();
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["code"], "database_unavailable", "{body}");
    assert!(body["error"].as_str().unwrap().contains("no turn"), "{body}");
    assert!(started.elapsed() >= Duration::from_secs(4), "it waited for a turn");
    drop((again, fourth));
    assert_eq!(request(&client, "GET", "/api/v1/tables", "").0, 200);
}
