//! `pitboss analyse` and `POST /api/v1/analyse`: the house-way setting, the
//! specials, and a foul explained with a legal setting.

use std::io::Write;
use std::process::{Command, Stdio};

fn run_analyse(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pitboss"))
        .arg("analyse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_fouled_seat_is_explained_with_a_legal_setting() {
    let (code, out, _) = run_analyse(&[], "Qh Qd 7c / Js Jc 9d 8d 2s / As Ah 8c 4s 3c\n");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rows"]["fouled"], true);
    assert_eq!(v["rows"]["foul"]["reason"], "middle pair of jacks is below front pair of queens");
    assert!(v["rows"]["foul"]["message"].as_str().unwrap().contains("a legal setting was: front 7c 4s 3c"));
    assert_eq!(v["house_setting"]["middle"], "Qh Qd Js Jc 9d");
    assert_eq!(v["house_setting"]["back"], "As Ah 8d 8c 2s");
}

#[test]
fn loose_cards_list_every_special_under_the_preset() {
    let one_suit = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah";
    let (code, out, _) = run_analyse(&["--ruleset", "malayan"], one_suit);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = v["specials"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"one-suit") && names.contains(&"three-straight-flushes"), "{names:?}");
    assert_eq!(v["best_special"], "one-suit");
}

#[test]
fn bad_hands_exit_2_with_one_line_naming_the_problem() {
    for (input, expected) in [
        ("As Ad Qh", "cards has 3 cards; it needs 13"),
        ("As As 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc", "As appears twice"),
        ("Xs Ad 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc", "\"Xs\" (card 1) is not a card"),
    ] {
        let (code, out, err) = run_analyse(&[], input);
        assert_eq!(code, 2, "{input}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1);
        assert!(err.contains(expected), "{err}");
    }
    let (code, _, err) = run_analyse(&["--ruleset", "nope"], "As Ad Qh");
    assert_eq!(code, 2);
    assert!(err.contains("unknown preset \"nope\""), "{err}");
}

#[test]
fn the_endpoint_answers_the_same_json() {
    let app = crate::support::spawn_app("sqlite");
    let body = r#"{"ruleset":"typical","front":"Qh Qd 7c","middle":"Js Jc 9d 8d 2s","back":"As Ah 8c 4s 3c"}"#;
    let (status, v) = crate::support::request(&app, "POST", "/api/v1/analyse", body);
    assert_eq!(status, 200);
    assert_eq!(v["ruleset"], "typical");
    assert_eq!(v["rows"]["fouled"], true);
    let (status, v) = crate::support::request(&app, "POST", "/api/v1/analyse", r#"{"cards":"As Ad"}"#);
    assert_eq!(status, 422);
    assert!(v["error"].as_str().unwrap().contains("it needs 13"));
}
