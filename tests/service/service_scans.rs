//! The scan endpoint for card-reading shoes and RFID tables: each card fills
//! its seat and row once; a card scanned twice is refused, never doubled.

use crate::support::{backends, request, spawn_app};
use serde_json::json;

#[test]
fn scans_fill_rows_once_and_refuse_doubles() {
    for backend in backends() {
        let app = spawn_app(backend);
        assert_eq!(request(&app, "POST", "/api/v1/tables", r#"{"name":"S","preset":"simple","unit":"1"}"#).0, 201);
        for seat in 1..=2 {
            let body = json!({"seat": seat, "player": format!("P{seat}"), "buy_in": "50"}).to_string();
            assert_eq!(request(&app, "POST", "/api/v1/tables/1/seats", &body).0, 201);
        }
        let scans = "/api/v1/tables/1/hands/1/scans";
        assert_eq!(request(&app, "POST", scans, r#"{"seat":1,"row":"front","card":"Qh"}"#).0, 404, "no hand yet");
        assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands", "{}").0, 201);
        let (status, list) = request(&app, "POST", scans, r#"{"seat":1,"row":"front","card":"q♥"}"#);
        assert_eq!(status, 201);
        assert_eq!(list, json!([{"seat": 1, "row": "front", "card": "Qh"}]));
        // The same card again, anywhere: refused and not doubled.
        let (status, body) = request(&app, "POST", scans, r#"{"seat":2,"row":"back","card":"QH"}"#);
        assert_eq!(status, 409);
        assert!(body["error"].as_str().unwrap().contains("Qh was already scanned, into seat 1 front"), "{body}");
        // A full row, a seat not dealt in, a bad row, a bad card.
        for card in ["2h", "3h"] {
            let body = json!({"seat": 1, "row": "front", "card": card}).to_string();
            assert_eq!(request(&app, "POST", scans, &body).0, 201);
        }
        let (status, body) = request(&app, "POST", scans, r#"{"seat":1,"row":"front","card":"4h"}"#);
        assert_eq!((status, body["error"].as_str().unwrap()), (409, "seat 1 front already has its 3 cards"));
        let (status, body) = request(&app, "POST", scans, r#"{"seat":3,"row":"front","card":"4h"}"#);
        assert_eq!(status, 422);
        assert!(body["error"].as_str().unwrap().contains("seat 3 is not dealt in"));
        assert_eq!(request(&app, "POST", scans, r#"{"seat":1,"row":"side","card":"4h"}"#).0, 422);
        let (status, body) = request(&app, "POST", scans, r#"{"seat":2,"row":"back","card":"Xx"}"#);
        assert_eq!(status, 422);
        assert!(body["error"].as_str().unwrap().contains("seat 2 back: \"Xx\""), "{body}");
        let (_, list) = request(&app, "GET", scans, "");
        assert_eq!(list.as_array().unwrap().len(), 3);
        // A committed hand takes no more scans.
        let showdown = json!({"seats": [
            {"seat": 1, "front": "Qh 2h 3h", "middle": "4h 5h 6h 7h 9h", "back": "Ts Js Qs Ks As"},
            {"seat": 2, "front": "2c 3c 4c", "middle": "5c 6c 7c 8c Tc", "back": "2d 3d 4d 5d 6d"}]});
        assert_eq!(request(&app, "POST", "/api/v1/tables/1/hands/1/commit", &showdown.to_string()).0, 201);
        assert_eq!(request(&app, "POST", scans, r#"{"seat":2,"row":"back","card":"9d"}"#).0, 409);
    }
}
