//! A committed showdown as stored (`showdowns.showdown_z`): what the dealer
//! entered (each seat's rows and choices, as JSON) and the result as paid
//! (the engine's JSON, verbatim), behind a format byte.
//!
//! - **Format 2**, the usual four-seat thirteen-card hand: each seat's number
//!   and its two choices (surrender, in fantasyland) a byte each, its
//!   thirteen cards (front, middle, back) six bits each, then the result
//!   deflated with the preset dictionary of format 1. Four seats take about
//!   150 bytes. It is written only when the entered text is exactly what
//!   format 2 gives back (checked at each commit); any other showdown (open
//!   face, a claim, penalties, a card in another spelling) is format 1.
//! - **Format 1**: both texts on two lines, deflated with a preset dictionary
//!   of typical showdowns (`showdown.dict`). Four seats take about 210 bytes
//!   instead of about 2 KB of JSON.
//!
//! A stored showdown is read with the format and dictionary it was written
//! with: the dictionary never changes (a test pins its digest), and both
//! formats stay readable.

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

use crate::domain::AppError;

/// Format 1: raw deflate with [`DICTIONARY_1`].
const FORMAT_1: u8 = 1;
/// Format 2: seats and cards in bits, the result as format 1 deflates it.
const FORMAT_2: u8 = 2;
const DICTIONARY_1: &[u8] = include_bytes!("showdown.dict");

const RANKS: &[u8; 13] = b"23456789TJQKA";
const SUITS: &[u8; 4] = b"cdhs";
/// A seat's rows in format 2: front, middle and back, 3 + 5 + 5 cards.
const ROWS: [(&str, usize); 3] = [("front", 3), ("middle", 5), ("back", 5)];

/// Packs the entered seats (JSON) and the result (JSON) for storage.
pub fn pack(seats_json: &str, result_json: &str) -> Result<Vec<u8>, AppError> {
    if let Some(mut out) = seats_in_bits(seats_json) {
        let result = deflate(result_json.as_bytes(), Vec::with_capacity(out.len() + result_json.len() / 2))?;
        out.extend_from_slice(&result);
        return Ok(out);
    }
    let mut out = Vec::with_capacity(seats_json.len() / 2 + 64);
    out.push(FORMAT_1);
    deflate(format!("{seats_json}\n{result_json}").as_bytes(), out)
}

/// Appends `text` deflated with [`DICTIONARY_1`] to `out`.
fn deflate(text: &[u8], mut out: Vec<u8>) -> Result<Vec<u8>, AppError> {
    let mut z = Compress::new(Compression::best(), false);
    z.set_dictionary(DICTIONARY_1).map_err(AppError::internal)?;
    // Room to start: the loop grows a full buffer by its capacity.
    out.reserve(64);
    loop {
        let consumed = z.total_in() as usize;
        if out.len() == out.capacity() {
            out.reserve(out.capacity());
        }
        match z.compress_vec(&text[consumed..], &mut out, FlushCompress::Finish) {
            Ok(Status::StreamEnd) => return Ok(out),
            Ok(_) => continue,
            Err(e) => return Err(AppError::internal(format!("a showdown does not deflate: {e}"))),
        }
    }
}

/// The entered seats (JSON) and the result (JSON) of a stored showdown.
pub fn unpack(stored: &[u8]) -> Result<(String, String), AppError> {
    let (format, body) = stored.split_first().ok_or_else(|| broken("it is empty".to_string()))?;
    match *format {
        FORMAT_1 => {
            let text = inflate(body)?;
            let (seats, result) = text.split_once('\n').ok_or_else(|| broken("it has no result".to_string()))?;
            Ok((seats.to_string(), result.to_string()))
        }
        FORMAT_2 => {
            let (seats, used) = seats_from_bits(body).ok_or_else(|| broken("its seats are cut short".to_string()))?;
            Ok((seats, inflate(&body[used..])?))
        }
        other => Err(broken(format!("format {other} is unknown"))),
    }
}

fn broken(why: String) -> AppError {
    AppError::internal(format!("a stored showdown does not read back: {why}"))
}

/// Text deflated with [`DICTIONARY_1`].
fn inflate(body: &[u8]) -> Result<String, AppError> {
    let mut z = Decompress::new(false);
    z.set_dictionary(DICTIONARY_1).map_err(|e| broken(e.to_string()))?;
    let mut out = Vec::with_capacity(body.len() * 8 + 256);
    loop {
        let consumed = z.total_in() as usize;
        if out.len() == out.capacity() {
            out.reserve(out.capacity());
        }
        match z.decompress_vec(&body[consumed..], &mut out, FlushDecompress::Finish) {
            Ok(Status::StreamEnd) => break,
            Ok(_) if z.total_in() as usize == body.len() && out.len() < out.capacity() => {
                return Err(broken("it ends early".to_string()))
            }
            Ok(_) => continue,
            Err(e) => return Err(broken(e.to_string())),
        }
    }
    String::from_utf8(out).map_err(|e| broken(e.to_string()))
}

/// The seats' text as format 2 writes it back: each seat's number, rows and
/// two choices, in this order and spelling.
fn seats_text(seats: &[(u8, u8, [u8; 13])]) -> String {
    let seats: Vec<String> = seats
        .iter()
        .map(|(seat, choices, c)| {
            format!(
                r#"{{"seat":{seat},"front":"{}","middle":"{}","back":"{}","surrender":{},"in_fantasyland":{}}}"#,
                cards_text(&c[..3]),
                cards_text(&c[3..8]),
                cards_text(&c[8..]),
                choices & 1 != 0,
                choices & 2 != 0
            )
        })
        .collect();
    format!("[{}]", seats.join(","))
}

/// Cards (rank * 4 + suit) as the service spells them: `TdQsKd`.
fn cards_text(cards: &[u8]) -> String {
    cards.iter().flat_map(|&c| [RANKS[usize::from(c / 4)] as char, SUITS[usize::from(c % 4)] as char]).collect()
}

/// Format 2's head and seats for `seats_json`, if it gives that very text
/// back; else `None` (format 1 keeps it).
fn seats_in_bits(seats_json: &str) -> Option<Vec<u8>> {
    let value: serde_json::Value = serde_json::from_str(seats_json).ok()?;
    let mut seats = Vec::new();
    for seat in value.as_array()? {
        let number = u8::try_from(seat.get("seat")?.as_u64()?).ok()?;
        let mut cards = [0u8; 13];
        let mut at = 0;
        for (row, count) in ROWS {
            let text = seat.get(row)?.as_str()?.as_bytes();
            if text.len() != count * 2 {
                return None;
            }
            for pair in text.chunks(2) {
                let rank = RANKS.iter().position(|&r| r == pair[0])?;
                let suit = SUITS.iter().position(|&s| s == pair[1])?;
                cards[at] = u8::try_from(rank * 4 + suit).ok()?;
                at += 1;
            }
        }
        let choice = |name: &str| seat.get(name).and_then(serde_json::Value::as_bool);
        let choices = u8::from(choice("surrender")?) | u8::from(choice("in_fantasyland")?) << 1;
        seats.push((number, choices, cards));
    }
    if seats.is_empty() || seats.len() > usize::from(u8::MAX) || seats_text(&seats) != seats_json {
        return None;
    }
    let mut out = Vec::with_capacity(2 + seats.len() * 12);
    out.push(FORMAT_2);
    out.push(seats.len() as u8);
    for (seat, choices, _) in &seats {
        out.extend_from_slice(&[*seat, *choices]);
    }
    let (mut bits, mut held) = (0u32, 0u32);
    for card in seats.iter().flat_map(|s| s.2) {
        bits = bits << 6 | u32::from(card);
        held += 6;
        while held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
        }
    }
    if held > 0 {
        out.push((bits << (8 - held)) as u8);
    }
    Some(out)
}

/// The seats' text of a format 2 body and the bytes its seats took.
fn seats_from_bits(body: &[u8]) -> Option<(String, usize)> {
    let count = usize::from(*body.first()?);
    let heads = body.get(1..1 + count * 2)?;
    let card_bytes = (count * 13 * 6).div_ceil(8);
    let packed = body.get(1 + count * 2..1 + count * 2 + card_bytes)?;
    let (mut bits, mut held, mut bytes) = (0u32, 0u32, packed.iter());
    let mut seats = Vec::with_capacity(count);
    for head in heads.chunks(2) {
        let mut cards = [0u8; 13];
        for card in &mut cards {
            while held < 6 {
                bits = bits << 8 | u32::from(*bytes.next()?);
                held += 8;
            }
            held -= 6;
            *card = ((bits >> held) & 63) as u8;
            if *card >= 52 {
                return None;
            }
        }
        if head[1] > 3 {
            return None;
        }
        seats.push((head[0], head[1], cards));
    }
    Some((seats_text(&seats), 1 + count * 2 + card_bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;
    use sha2::Digest;

    #[test]
    fn the_dictionary_of_format_1_never_changes() {
        let digest = sha2::Sha256::digest(DICTIONARY_1);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex, "363bae5ae06cdc19b3785eb5acc3c7567e110ac7594dc174a9efa74e3e6211b7",
            "stored showdowns need this very dictionary to be read"
        );
    }

    #[test]
    fn a_showdown_packs_small_and_reads_back_exactly() {
        let seats = r#"[{"seat":1,"front":"2cAhAd","middle":"3c4dKhKdKc","back":"5s6s7s8s9s","surrender":false,"in_fantasyland":false},{"seat":2,"front":"3dQsQh","middle":"5d6dTsThTd","back":"2h7h8h9hJh","surrender":false,"in_fantasyland":false}]"#;
        let result = r#"{"ruleset":"hawaiian-gardens","seats":[],"pairs":[],"transactions":[{"pass":"main","payer":1,"payee":2,"owed":"2.00","paid":"2.00"}],"jackpot_triggers":[],"jackpot_contribution":"0.40"}"#;
        let packed = pack(seats, result).unwrap();
        assert!(packed.len() < 120, "{} bytes", packed.len());
        assert_eq!(unpack(&packed).unwrap(), (seats.to_string(), result.to_string()));
        // Long text (past any guess at the output's size) too.
        let long = "x".repeat(100_000);
        assert_eq!(unpack(&pack(&long, &long).unwrap()).unwrap(), (long.clone(), long));
    }

    /// A seat of the usual shape, as the service writes it.
    fn seat(n: u8, front: &str, middle: &str, back: &str, surrender: bool, fl: bool) -> String {
        format!(
            r#"{{"seat":{n},"front":"{front}","middle":"{middle}","back":"{back}","surrender":{surrender},"in_fantasyland":{fl}}}"#
        )
    }

    const RESULT: &str = r#"{"ruleset":"hawaiian-gardens","seats":[],"pairs":[],"transactions":[],"jackpot_triggers":[],"jackpot_contribution":"0.00"}"#;

    #[test]
    fn the_usual_hand_is_format_2_and_reads_back_exactly() {
        let seats = format!(
            "[{},{},{},{}]",
            seat(1, "TdQsKd", "3h3c9h9cAd", "2s2h2d6s8s", false, false),
            seat(2, "6h9dJc", "3d4h5c6d7h", "4s5sTsJsKs", true, false),
            seat(3, "2c7sKh", "4c5d6c7d8d", "ThJdQdKcAh", false, true),
            seat(6, "3s4d5h", "8hQhQcAsAc", "7c8c9sTcJh", true, true)
        );
        let packed = pack(&seats, RESULT).unwrap();
        assert_eq!(packed[0], FORMAT_2);
        // 2 bytes of head, 2 a seat, 52 cards of 6 bits (39 bytes), the result.
        assert_eq!(&packed[1..10], &[4, 1, 0, 2, 1, 3, 2, 6, 3]);
        assert_eq!(unpack(&packed).unwrap(), (seats.clone(), RESULT.to_string()));
        let format_1 = deflate(format!("{seats}\n{RESULT}").as_bytes(), vec![FORMAT_1]).unwrap();
        assert!(packed.len() + 40 < format_1.len(), "{} bytes, format 1 {}", packed.len(), format_1.len());
        assert_eq!(unpack(&format_1).unwrap(), (seats, RESULT.to_string()), "format 1 still reads");
        // The first card, Td: rank 8 (T) * 4 + suit 1 (d) = 33, six bits: 100001.
        assert_eq!(packed[10] >> 2, 33);
    }

    #[test]
    fn any_other_showdown_is_format_1_and_reads_back_exactly() {
        let usual = seat(1, "TdQsKd", "3h3c9h9cAd", "2s2h2d6s8s", false, false);
        let others = [
            // Spaces, another spelling of a card, a row short, a claim, penalties, open face.
            format!("[{}]", seat(1, "Td Qs Kd", "3h3c9h9cAd", "2s2h2d6s8s", false, false)),
            format!("[{}]", seat(1, "tdQsKd", "3h3c9h9cAd", "2s2h2d6s8s", false, false)),
            format!("[{}]", seat(1, "TdQs", "3h3c9h9cAd", "2s2h2d6s8s", false, false)),
            format!("[{}]", usual.replace(r#","surrender""#, r#","claim":"six-pairs","surrender""#)),
            format!("[{}]", usual.replace('}', r#","penalties":["dead-hand"]}"#)),
            r#"[{"seat":1,"front":"","middle":"","back":"","cards":"2c3c4c5c6c7c8c9cTcJcQcKcAc","surrender":false,"in_fantasyland":false}]"#.to_string(),
            format!("[{}]", usual.replace(r#""seat":1"#, r#""seat":300"#)),
            format!("[ {usual}]"),
            "[]".to_string(),
        ];
        for seats in others {
            let packed = pack(&seats, RESULT).unwrap();
            assert_eq!(packed[0], FORMAT_1, "{seats}");
            assert_eq!(unpack(&packed).unwrap(), (seats, RESULT.to_string()));
        }
    }

    proptest::proptest! {
        #[test]
        fn any_deal_of_the_usual_shape_reads_back_exactly(
            deck in proptest::strategy::Just((0u8..52).collect::<Vec<_>>()).prop_shuffle(),
            seats in proptest::collection::vec((1u8..=10, 0u8..4), 1..=4),
        ) {
            let all: Vec<String> = seats
                .iter()
                .enumerate()
                .map(|(i, (n, choices))| {
                    let c = &deck[i * 13..i * 13 + 13];
                    seat(*n, &cards_text(&c[..3]), &cards_text(&c[3..8]), &cards_text(&c[8..]), choices & 1 != 0, choices & 2 != 0)
                })
                .collect();
            let seats_json = format!("[{}]", all.join(","));
            let packed = pack(&seats_json, RESULT).unwrap();
            proptest::prop_assert_eq!(packed[0], FORMAT_2);
            proptest::prop_assert_eq!(unpack(&packed).unwrap(), (seats_json, RESULT.to_string()));
        }
    }

    #[test]
    fn a_damaged_showdown_is_an_error_not_a_panic() {
        let packed = pack("[]", "{}").unwrap();
        assert!(unpack(&[]).is_err());
        assert!(unpack(&[9, 1, 2]).is_err());
        assert!(unpack(&packed[..packed.len() - 2]).is_err());
        // Bytes changed anywhere, or cut short: an error or some text, never a panic.
        let usual = format!("[{}]", seat(1, "TdQsKd", "3h3c9h9cAd", "2s2h2d6s8s", false, false));
        let format_2 = pack(&usual, RESULT).unwrap();
        assert_eq!(format_2[0], FORMAT_2);
        for packed in [packed, format_2.clone()] {
            for i in 1..packed.len() {
                let mut changed = packed.clone();
                changed[i] ^= 0xa5;
                let _ = unpack(&changed);
                let _ = unpack(&packed[..i]);
            }
        }
        // Format 2's seats and cards (14 bytes for one seat) cut anywhere.
        for i in 0..=14 {
            assert!(unpack(&format_2[..i]).is_err(), "cut at {i}");
        }
        assert!(unpack(&[FORMAT_2, 1, 1, 0, 0xff]).is_err(), "cards cut short");
        assert!(unpack(&[FORMAT_2, 1, 1, 7]).is_err(), "an unknown choice");
    }
}
