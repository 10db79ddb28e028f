//! `POST /api/v1/score` and the service's JSON error shape, through HTTP
//! against the real app on a free port.

use crate::support::{request, spawn_app};

const TYPICAL: &str = r#"{"ruleset":"typical","seats":[
 {"seat":1,"stack":"100","front":"6s 6h 6d","middle":"4s 4h 4d 9s 9h","back":"Ks Kh Kd 8s 8h"},
 {"seat":2,"stack":"100","front":"Qs Qh 7d","middle":"Js Jh Jd 2s 2h","back":"5s 5h 5d 5c Ad"}]}"#;

#[test]
fn scores_a_showdown_like_the_cli() {
    let base = spawn_app("sqlite");
    let (status, body) = request(&base, "POST", "/api/v1/score", TYPICAL);
    assert_eq!(status, 200);
    let cli = serde_json::to_value(pitboss::engine::score_json(TYPICAL).unwrap()).unwrap();
    assert_eq!(body, cli);
    assert_eq!(body["pairs"][0]["main_units"], -3);
    assert_eq!(body["transactions"][0]["payee"], 2);
}

#[test]
fn an_invalid_showdown_is_422_naming_the_problem() {
    let base = spawn_app("sqlite");
    let bad = TYPICAL.replace("Qs Qh 7d", "Qs Qh 6d 6h");
    let (status, body) = request(&base, "POST", "/api/v1/score", &bad);
    assert_eq!(status, 422);
    let message = body["error"].as_str().unwrap();
    assert!(message.contains("seat 2 front has 4 cards"), "{message}");
    let (status, body) = request(&base, "POST", "/api/v1/score", "{not json");
    assert_eq!(status, 422);
    assert!(body["error"].as_str().unwrap().contains("not valid JSON"));
}

#[test]
fn every_other_error_is_json_too() {
    let base = spawn_app("sqlite");
    let (status, body) = request(&base, "GET", "/nowhere", "");
    assert_eq!((status, body["error"].is_string()), (404, true));
    let (status, body) = request(&base, "GET", "/api/v1/score", "");
    assert_eq!((status, body["error"].is_string()), (405, true));
    let huge = " ".repeat(200 * 1024);
    let (status, body) = request(&base, "POST", "/api/v1/score", &huge);
    assert_eq!(status, 413);
    assert!(body["error"].as_str().unwrap().contains("larger than"));
    let (status, body) = request(&base, "GET", "/healthz", "");
    assert_eq!((status, body["status"].as_str()), (200, Some("ok")));
}

#[test]
fn changes_need_a_json_content_type() {
    use std::io::{Read, Write};
    let app = spawn_app("sqlite");
    // A cross-site form could post text/plain; the API refuses it.
    let mut stream = std::net::TcpStream::connect(&app.base).unwrap();
    let body = r#"{"name":"p","seed":"1"}"#;
    write!(
        stream,
        "POST /api/v1/pools HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 415"), "{response}");
    assert!(response.contains("Content-Type: application/json"), "{response}");
    // Nothing was created.
    let (status, _) = request(&app, "GET", "/api/v1/pools/1", "");
    assert_eq!(status, 404);
    // With the JSON content type it works.
    assert_eq!(request(&app, "POST", "/api/v1/pools", body).0, 201);
    // Scoring writes nothing and takes any content type (curl -d sends a form type).
    let mut stream = std::net::TcpStream::connect(&app.base).unwrap();
    write!(
        stream,
        "POST /api/v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{TYPICAL}",
        TYPICAL.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
}

/// Issue 14: the service scores under a named revision and with the table
/// options of any preset, as the CLI does.
#[test]
fn scores_under_a_revision_and_with_options() {
    let base = spawn_app("sqlite");
    let at = |extra: &str| TYPICAL.replacen('{', &format!("{{{extra}"), 1).replace("typical", "singapore");
    // Singapore revision 2: seat 2 wins middle (full house 2) and back (four
    // fives 4), seat 1 the front (three sixes 3): 6 - 3.
    let (status, body) = request(&base, "POST", "/api/v1/score", &at(""));
    assert_eq!((status, body["pairs"][0]["main_units"].as_i64()), (200, Some(-3)));
    let (status, body) = request(&base, "POST", "/api/v1/score", &at(r#""options":{"overall_point":true},"#));
    assert_eq!((status, body["pairs"][0]["main_units"].as_i64()), (200, Some(-4)));
    let (status, body) = request(&base, "POST", "/api/v1/score", &at(r#""ruleset_revision":1,"#));
    assert_eq!((status, body["pairs"][0]["main_units"].as_i64()), (200, Some(-3)));
    let (status, body) = request(&base, "POST", "/api/v1/score", &at(r#""ruleset_revision":9,"#));
    assert_eq!(status, 422);
    assert!(body["error"].as_str().unwrap().contains("no revision 9"), "{body}");
    let (status, body) = request(&base, "POST", "/api/v1/score", &at(r#""options":{"no_pictures":true},"#));
    assert_eq!(status, 422);
    assert!(body["error"].as_str().unwrap().contains("the house must set it"), "{body}");
}
