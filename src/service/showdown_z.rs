//! A committed showdown as stored (`showdowns.showdown_z`): what the dealer
//! entered (each seat's rows and choices, as JSON) and the result as paid
//! (the engine's JSON, verbatim), behind a format byte.
//!
//! - **Format 3**, what the usual hand of one deck is written in: the
//!   seats' count, each seat's number (1 to 63) and two choices in a byte,
//!   the deal (every seat's thirteen cards, front, middle, back) as one
//!   number of each card's place among the cards left (29 bytes for 52
//!   cards, 39 in format 2), then the result compressed with zstd and a
//!   dictionary trained on stored results (`showdown3.dict`, made by
//!   `benches/train_showdown_dict.sh`). Of the zstd frame only what cannot
//!   be told again is kept: its window byte and the content of its one
//!   block. Its magic number and a frame header of no options (no content
//!   size, checksum or dictionary id) are known, and the block's header
//!   follows from its length, so they are put back before it is read. Four
//!   seats take about 120 bytes, the result about 85 of them. It is written
//!   only when both texts read back exactly (checked at each commit);
//!   otherwise format 2, then format 1, as before.
//! - **Format 2**: each seat's number and its two choices (surrender, in
//!   fantasyland) a byte each, its thirteen cards (front, middle, back) six
//!   bits each, then the result deflated with the preset dictionary of
//!   format 1. Four seats take about 160 bytes. It is written only when the
//!   entered text is exactly what format 2 gives back (checked at each
//!   commit); any other showdown (open face, a claim, penalties, a card in
//!   another spelling) is format 1.
//! - **Format 1**: both texts on two lines, deflated with a preset dictionary
//!   of typical showdowns (`showdown.dict`). Four seats take about 210 bytes
//!   instead of about 2 KB of JSON.
//!
//! A stored showdown is read with the format and dictionary it was written
//! with: the dictionaries never change (tests pin their digests), and every
//! format stays readable. A format 3 result never reads back larger than a
//! zstd block (128 KiB), whatever the stored bytes say.

use std::sync::{Mutex, OnceLock, PoisonError};

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};
use zstd::dict::{DecoderDictionary, EncoderDictionary};
use zstd::zstd_safe::CParameter;

use crate::domain::AppError;

/// Format 1: raw deflate with [`DICTIONARY_1`].
const FORMAT_1: u8 = 1;
/// Format 2: seats and cards in bits, the result as format 1 deflates it.
const FORMAT_2: u8 = 2;
/// Format 3: a byte a seat, the deal as one number ([`seats_3`]), the
/// result in zstd with [`DICTIONARY_3`], less what of the frame can be told
/// again.
const FORMAT_3: u8 = 3;
const DICTIONARY_1: &[u8] = include_bytes!("showdown.dict");
const DICTIONARY_3: &[u8] = include_bytes!("showdown3.dict");
/// zstd's level for format 3: on stored results 12 packs about 9 bytes
/// larger than 15 to 22, in about a fifth of 15's time (26-55 µs a result
/// against 140-230 in python-zstandard; the commit runs on SQLite's one
/// writer thread). Any level reads back alike.
const LEVEL_3: i32 = 12;
/// A zstd frame's magic number, then a frame header of no options: no
/// content size, checksum or dictionary id, and not a single segment (so a
/// window byte follows).
const FRAME_START: [u8; 5] = [0x28, 0xb5, 0x2f, 0xfd, 0];
/// A zstd block's header: the last block, compressed, and its size.
const LAST_COMPRESSED_BLOCK: u32 = 1 | 2 << 1;
/// The most a zstd block holds, and so the most a format 3 result reads
/// back to: whatever a damaged or hostile value says, no more is allocated.
const BLOCK_MAX: usize = 128 << 10;

const RANKS: &[u8; 13] = b"23456789TJQKA";
const SUITS: &[u8; 4] = b"cdhs";
/// A seat's rows in format 2: front, middle and back, 3 + 5 + 5 cards.
const ROWS: [(&str, usize); 3] = [("front", 3), ("middle", 5), ("back", 5)];

/// Packs the entered seats (JSON) and the result (JSON) for storage.
pub fn pack(seats_json: &str, result_json: &str) -> Result<Vec<u8>, AppError> {
    if let Some(seats) = usual_seats(seats_json) {
        // Format 3's seats are read back here, its result in zstd_result.
        let seats_3 = seats_3(&seats)
            .filter(|bytes| seats_from_3(bytes).is_some_and(|(text, used)| text == seats_json && used == bytes.len()));
        if let Some((seats_3, result)) = seats_3.zip(zstd_result(result_json)) {
            let mut out = Vec::with_capacity(1 + seats_3.len() + result.len());
            out.push(FORMAT_3);
            out.extend_from_slice(&seats_3);
            out.extend_from_slice(&result);
            return Ok(out);
        }
        let seats = seats_2(&seats);
        let mut out = Vec::with_capacity(1 + seats.len() + result_json.len() / 2);
        out.push(FORMAT_2);
        out.extend_from_slice(&seats);
        return deflate(result_json.as_bytes(), out);
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
            let (seats, used) = seats_from_2(body).ok_or_else(|| broken("its seats are cut short".to_string()))?;
            Ok((seats, inflate(&body[used..])?))
        }
        FORMAT_3 => {
            let (seats, used) = seats_from_3(body).ok_or_else(|| broken("its seats do not read".to_string()))?;
            Ok((seats, unzstd(&body[used..])?))
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

/// [`DICTIONARY_3`] made ready for zstd once; `None` if zstd refuses it
/// (a test sees that it does not).
fn dictionaries_3() -> Option<&'static (EncoderDictionary<'static>, DecoderDictionary<'static>)> {
    static READY: OnceLock<Option<(EncoderDictionary<'static>, DecoderDictionary<'static>)>> = OnceLock::new();
    READY
        .get_or_init(|| {
            let encoder = EncoderDictionary::try_copy(DICTIONARY_3, LEVEL_3).ok()?;
            Some((encoder, DecoderDictionary::try_copy(DICTIONARY_3).ok()?))
        })
        .as_ref()
}

/// zstd contexts for format 3 kept between showdowns, at most
/// [`KEPT_CONTEXTS`] of each kind: as many as pack or read at once (one
/// SQLite writer, a pool's connections on PostgreSQL). A compressor at level
/// 12 is about 64 KB (its context once used, as the test of the kept contexts
/// prints) and a decompressor about 53 KB (heaptrack), made and freed at
/// every commit and read before (issue 17's memory under load). One a
/// thread would keep one for every thread of the blocking pool. The dictionary and
/// the frame's options are set once and stay (zstd's parameters are sticky;
/// each frame starts afresh, whatever the one before did).
static COMPRESSORS: Mutex<Vec<zstd::bulk::Compressor<'static>>> = Mutex::new(Vec::new());
static DECOMPRESSORS: Mutex<Vec<zstd::bulk::Decompressor<'static>>> = Mutex::new(Vec::new());
const KEPT_CONTEXTS: usize = 16;

/// Runs `f` with a kept context (made by `make` when none is free), then
/// keeps it again; `None` if there was none and `make` failed.
fn with_kept<T, R>(kept: &Mutex<Vec<T>>, make: impl FnOnce() -> Option<T>, f: impl FnOnce(&mut T) -> R) -> Option<R> {
    let free = kept.lock().unwrap_or_else(PoisonError::into_inner).pop();
    let mut z = free.or_else(make)?;
    let answer = f(&mut z);
    let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
    if kept.len() < KEPT_CONTEXTS {
        kept.push(z);
    }
    Some(answer)
}

/// Runs `f` with a format 3 compressor; `None` if zstd refuses the
/// dictionary or the frame's options.
fn with_compressor<R>(f: impl FnOnce(&mut zstd::bulk::Compressor<'static>) -> R) -> Option<R> {
    with_kept(&COMPRESSORS, new_compressor, f)
}

/// A new format 3 compressor: the dictionary, and a frame of no options.
fn new_compressor() -> Option<zstd::bulk::Compressor<'static>> {
    let (encoder, _) = dictionaries_3()?;
    let mut z = zstd::bulk::Compressor::with_prepared_dictionary(encoder).ok()?;
    for flag in [CParameter::ContentSizeFlag(false), CParameter::ChecksumFlag(false), CParameter::DictIdFlag(false)] {
        z.set_parameter(flag).ok()?;
    }
    Some(z)
}

/// Runs `f` with a format 3 decompressor.
fn with_decompressor<R>(f: impl FnOnce(&mut zstd::bulk::Decompressor<'static>) -> R) -> Result<R, AppError> {
    let make = || zstd::bulk::Decompressor::with_prepared_dictionary(&dictionaries_3()?.1).ok();
    with_kept(&DECOMPRESSORS, make, f).ok_or_else(|| broken("zstd refuses its dictionary".to_string()))
}

/// Format 3's result part for `text`: the window byte and block content of
/// its zstd frame, if the frame is of the expected shape (one compressed
/// block) and reads back to `text`; else `None` (format 2 keeps it).
fn zstd_result(text: &str) -> Option<Vec<u8>> {
    // More than a block never reads back (and would leave a kept context
    // with a large workspace).
    if text.len() > BLOCK_MAX {
        return None;
    }
    let frame = with_compressor(|z| z.compress(text.as_bytes()).ok())??;
    let (&window, block) = frame.strip_prefix(&FRAME_START)?.split_first()?;
    let (header, content) = block.split_at_checked(3)?;
    if *header != block_header(content.len())? {
        return None;
    }
    let mut out = Vec::with_capacity(1 + content.len());
    out.push(window);
    out.extend_from_slice(content);
    (unzstd(&out).ok()? == text).then_some(out)
}

/// The header of a last, compressed zstd block of `size` bytes.
fn block_header(size: usize) -> Option<[u8; 3]> {
    let size = u32::try_from(size).ok().filter(|&s| s < 1 << 21)?;
    let [a, b, c, _] = (size << 3 | LAST_COMPRESSED_BLOCK).to_le_bytes();
    Some([a, b, c])
}

/// The result of format 3's result part (see [`zstd_result`]).
fn unzstd(body: &[u8]) -> Result<String, AppError> {
    let (&window, content) = body.split_first().ok_or_else(|| broken("its result is cut short".to_string()))?;
    let header = block_header(content.len()).ok_or_else(|| broken("its result is too long".to_string()))?;
    let mut frame = Vec::with_capacity(FRAME_START.len() + 4 + content.len());
    frame.extend_from_slice(&FRAME_START);
    frame.push(window);
    frame.extend_from_slice(&header);
    frame.extend_from_slice(content);
    // A guess at first (a result is about twenty times its stored size),
    // then at most a block: nothing larger is asked for.
    let guess = (content.len() * 32).clamp(4 << 10, BLOCK_MAX);
    let text = with_decompressor(|z| match z.decompress(&frame, guess) {
        Ok(text) => Ok(text),
        Err(_) if guess < BLOCK_MAX => z.decompress(&frame, BLOCK_MAX).map_err(|e| broken(e.to_string())),
        Err(e) => Err(broken(e.to_string())),
    })??;
    String::from_utf8(text).map_err(|e| broken(e.to_string()))
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

/// A seat of the usual shape: its number, its choices (surrender 1, in
/// fantasyland 2) and its thirteen cards (rank * 4 + suit), front first.
type UsualSeat = (u8, u8, [u8; 13]);

/// The seats of `seats_json` if they are of the usual shape and give that
/// very text back ([`seats_text`]); else `None` (format 1 keeps them).
fn usual_seats(seats_json: &str) -> Option<Vec<UsualSeat>> {
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
    Some(seats)
}

/// Format 2's seats (after the format byte): their count, each seat's
/// number and choices a byte each, then every card in six bits.
fn seats_2(seats: &[UsualSeat]) -> Vec<u8> {
    let mut out = Vec::with_capacity(1 + seats.len() * 12);
    out.push(seats.len() as u8);
    for (seat, choices, _) in seats {
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
    out
}

/// The seats' text of a format 2 body and the bytes its seats took.
fn seats_from_2(body: &[u8]) -> Option<(String, usize)> {
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

/// Format 3's seats (after the format byte), if the seats are numbered 1 to
/// 63 and their cards are of one deck (each card once): their count, each
/// seat's number and choices in a byte (`number << 2 | choices`), then the
/// deal as one number ([`deal_to_bytes`]): 29 bytes for 52 cards instead of
/// 39 in six bits each.
fn seats_3(seats: &[UsualSeat]) -> Option<Vec<u8>> {
    if seats.len() > 4 || seats.iter().any(|&(seat, _, _)| seat == 0 || seat > 63) {
        return None;
    }
    let cards: Vec<u8> = seats.iter().flat_map(|s| s.2).collect();
    let mut out = Vec::with_capacity(1 + seats.len() + 29);
    out.push(seats.len() as u8);
    out.extend(seats.iter().map(|&(seat, choices, _)| seat << 2 | choices));
    out.extend_from_slice(&deal_to_bytes(&cards)?);
    Some(out)
}

/// The seats' text of a format 3 body and the bytes its seats took.
fn seats_from_3(body: &[u8]) -> Option<(String, usize)> {
    let count = usize::from(*body.first()?);
    if count == 0 || count > 4 {
        return None;
    }
    let heads = body.get(1..1 + count)?;
    let size = deal_bytes(count * 13);
    let cards = deal_from_bytes(body.get(1 + count..1 + count + size)?, count * 13)?;
    let seats: Vec<UsualSeat> = heads
        .iter()
        .zip(cards.chunks(13))
        .map(|(&head, cards)| Some((head >> 2, head & 3, <[u8; 13]>::try_from(cards).ok()?)))
        .collect::<Option<_>>()?;
    if seats.iter().any(|&(seat, _, _)| seat == 0) {
        return None;
    }
    Some((seats_text(&seats), 1 + count + size))
}

/// The bytes that hold a deal of `count` distinct cards of one deck in
/// order: the fewest that hold 52 * 51 * ... (`count` factors) - 1.
fn deal_bytes(count: usize) -> usize {
    debug_assert!(count <= 52, "a deck holds 52 cards");
    let mut product = vec![1u32];
    for left in (52 - count as u32 + 1..=52).rev() {
        times_plus(&mut product, left, 0);
    }
    // The largest deal's number, the product less one (the product is at
    // least one; a borrow runs up through the zero limbs).
    for limb in product.iter_mut() {
        let (less, borrow) = limb.overflowing_sub(1);
        *limb = less;
        if !borrow {
            break;
        }
    }
    let top = product.iter().rposition(|&l| l != 0).unwrap_or(0);
    let bits = top * 32 + (32 - product[top].leading_zeros() as usize);
    bits.div_ceil(8)
}

/// `n = n * by + add` on a number in 32-bit limbs, the least first.
fn times_plus(n: &mut Vec<u32>, by: u32, add: u32) {
    let mut carry = u64::from(add);
    for limb in n.iter_mut() {
        let v = u64::from(*limb) * u64::from(by) + carry;
        *limb = v as u32;
        carry = v >> 32;
    }
    if carry > 0 {
        n.push(carry as u32);
    }
}

/// `n = n / by`, the remainder returned.
fn divide(n: &mut [u32], by: u32) -> u32 {
    let mut rest = 0u64;
    for limb in n.iter_mut().rev() {
        let v = rest << 32 | u64::from(*limb);
        *limb = (v / u64::from(by)) as u32;
        rest = v % u64::from(by);
    }
    rest as u32
}

/// A deal (distinct cards, 0 to 51, in order) as one number, little end
/// first in [`deal_bytes`] bytes: each card's place among the cards not
/// dealt before it (of 52 for the first, 51 for the next, …), in mixed
/// radix, the first card's place the lowest digit. `None` if a card is
/// dealt twice or is not a card.
fn deal_to_bytes(cards: &[u8]) -> Option<Vec<u8>> {
    let mut left: Vec<u8> = (0..52).collect();
    let mut places = Vec::with_capacity(cards.len());
    for &card in cards {
        let at = left.iter().position(|&c| c == card)?;
        places.push((at as u32, left.len() as u32));
        left.remove(at);
    }
    let mut n = vec![0u32];
    for &(at, of) in places.iter().rev() {
        times_plus(&mut n, of, at);
    }
    let size = deal_bytes(cards.len());
    let mut out: Vec<u8> = n.iter().flat_map(|l| l.to_le_bytes()).collect();
    if out.len() > size && out[size..].iter().any(|&b| b != 0) {
        return None;
    }
    out.resize(size, 0);
    Some(out)
}

/// The deal of `count` cards [`deal_to_bytes`] wrote; `None` if the bytes
/// hold a number past the largest deal.
fn deal_from_bytes(bytes: &[u8], count: usize) -> Option<Vec<u8>> {
    let mut n: Vec<u32> = bytes
        .chunks(4)
        .map(|c| {
            let mut limb = [0u8; 4];
            limb[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(limb)
        })
        .collect();
    let mut left: Vec<u8> = (0..52).collect();
    let mut cards = Vec::with_capacity(count);
    for _ in 0..count {
        let at = divide(&mut n, left.len() as u32);
        cards.push(left.remove(at as usize));
    }
    n.iter().all(|&l| l == 0).then_some(cards)
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
    fn the_dictionary_of_format_3_never_changes() {
        let digest = sha2::Sha256::digest(DICTIONARY_3);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex, "81bc3e2c37c1d6c1a4b54dfd7b796855837efbba1c5d16cc4344622949cf1ee4",
            "stored showdowns need this very dictionary to be read"
        );
        assert!(dictionaries_3().is_some(), "zstd takes it");
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

    /// A result as the service stores it: hand 6 of table 41 of the year's
    /// database (`examples/year.rs`; the dictionary was not trained on table
    /// 41), which format 2 stored in 162 bytes, its result in 113.
    const REAL_RESULT: &str = r#"{"ruleset":"hawaiian-gardens","seats":[{"seat":1,"fouled":false,"surrendered":false,"special":null,"aces":1,"royalties":0,"fantasyland_next":false,"stack_start":"481.50","rake":"0.50","stack_end":"474.00","net":"-7.50","foul_reason":null},{"seat":2,"fouled":false,"surrendered":false,"special":null,"aces":1,"royalties":0,"fantasyland_next":false,"stack_start":"502.50","rake":"0.50","stack_end":"491.00","net":"-11.50","foul_reason":null},{"seat":3,"fouled":false,"surrendered":false,"special":null,"aces":1,"royalties":0,"fantasyland_next":false,"stack_start":"540.50","rake":"0.50","stack_end":"531.00","net":"-9.50","foul_reason":null},{"seat":4,"fouled":false,"surrendered":false,"special":null,"aces":1,"royalties":0,"fantasyland_next":false,"stack_start":"465.50","rake":"0.50","stack_end":"492.00","net":"26.50","foul_reason":null}],"pairs":[{"seats":[2,3],"special_units":0,"main_units":-1},{"seats":[2,4],"special_units":0,"main_units":-9},{"seats":[2,1],"special_units":0,"main_units":-1},{"seats":[3,4],"special_units":0,"main_units":-9},{"seats":[3,1],"special_units":0,"main_units":-1},{"seats":[4,1],"special_units":0,"main_units":9}],"transactions":[{"pass":"main","payer":2,"payee":3,"owed":"1.00","paid":"1.00"},{"pass":"main","payer":2,"payee":4,"owed":"9.00","paid":"9.00"},{"pass":"main","payer":2,"payee":1,"owed":"1.00","paid":"1.00"},{"pass":"main","payer":3,"payee":4,"owed":"9.00","paid":"9.00"},{"pass":"main","payer":3,"payee":1,"owed":"1.00","paid":"1.00"},{"pass":"main","payer":1,"payee":4,"owed":"9.00","paid":"9.00"}],"jackpot_triggers":[],"jackpot_contribution":"0.40"}"#;

    fn four_seats() -> String {
        format!(
            "[{},{},{},{}]",
            seat(1, "TdQsKd", "3h3c9h9cAd", "2s2h2d6s8s", false, false),
            seat(2, "6h9dJc", "3d4h5c6d7h", "4s5sTsJsKs", true, false),
            seat(3, "2c7sKh", "4c5d6c7d8d", "ThJdQdKcAh", false, true),
            seat(6, "3s4d5h", "8hQhQcAsAc", "7c8c9sTcJh", true, true)
        )
    }

    /// Format 2 as written before format 3.
    fn format_2(seats_json: &str, result_json: &str) -> Vec<u8> {
        let mut out = vec![FORMAT_2];
        out.extend_from_slice(&seats_2(&usual_seats(seats_json).unwrap()));
        deflate(result_json.as_bytes(), out).unwrap()
    }

    #[test]
    fn the_usual_hand_is_format_3_and_reads_back_exactly() {
        let seats = four_seats();
        let packed = pack(&seats, RESULT).unwrap();
        assert_eq!(packed[0], FORMAT_3);
        // The count, then a byte a seat: its number times four, plus 1 for
        // a surrender and 2 in fantasyland (seat 6 both: 24 + 3 = 27).
        assert_eq!(&packed[1..6], &[4, 4, 9, 14, 27]);
        // The 52 cards in 29 bytes, then the result.
        let cards: Vec<u8> = usual_seats(&seats).unwrap().iter().flat_map(|s| s.2).collect();
        assert_eq!(&packed[6..35], deal_to_bytes(&cards).unwrap().as_slice());
        assert_eq!(unpack(&packed).unwrap(), (seats.clone(), RESULT.to_string()));
        let format_2 = format_2(&seats, RESULT);
        // Format 2: a byte for the seat's number and one for its choices;
        // the first card, Td: rank 8 (T) * 4 + suit 1 (d) = 33, six bits: 100001.
        assert_eq!(&format_2[1..10], &[4, 1, 0, 2, 1, 3, 2, 6, 3]);
        assert_eq!(format_2[10] >> 2, 33);
        assert_eq!(unpack(&format_2).unwrap(), (seats.clone(), RESULT.to_string()), "format 2 still reads");
        let format_1 = deflate(format!("{seats}\n{RESULT}").as_bytes(), vec![FORMAT_1]).unwrap();
        assert!(format_2.len() + 40 < format_1.len(), "{} bytes, format 1 {}", format_2.len(), format_1.len());
        assert_eq!(unpack(&format_1).unwrap(), (seats, RESULT.to_string()), "format 1 still reads");
    }

    #[test]
    fn format_3_keeps_a_real_result_smaller_than_format_2() {
        let seats = four_seats();
        let packed = pack(&seats, REAL_RESULT).unwrap();
        assert_eq!(packed[0], FORMAT_3);
        assert_eq!(unpack(&packed).unwrap(), (seats.clone(), REAL_RESULT.to_string()));
        let format_2 = format_2(&seats, REAL_RESULT);
        assert_eq!(format_2.len(), 162, "as the year's database holds it");
        // On the 4,000 results of tables the dictionary was not trained on:
        // 112.9 bytes deflated, 83.2 in format 3 (zstd level 12).
        assert!(packed.len() + 30 <= format_2.len(), "{} bytes, format 2 {}", packed.len(), format_2.len());
        // Not a byte of the frame that can be told again: magic, frame header, block header.
        let result = &packed[35..];
        let frame = zstd::bulk::Compressor::with_prepared_dictionary(&dictionaries_3().unwrap().0)
            .unwrap()
            .compress(REAL_RESULT.as_bytes())
            .unwrap();
        assert!(result.len() + 8 <= frame.len(), "{} bytes, a whole frame {}", result.len(), frame.len());
    }

    #[test]
    fn a_result_format_3_cannot_keep_is_format_2() {
        // Past a zstd block (128 KiB): more than one block.
        let long = format!(r#"{{"ruleset":"{}"}}"#, "x".repeat(BLOCK_MAX * 2));
        let packed = pack(&four_seats(), &long).unwrap();
        assert_eq!(packed[0], FORMAT_2);
        assert_eq!(unpack(&packed).unwrap(), (four_seats(), long));
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

    #[test]
    fn a_deal_is_one_number_of_its_cards_places_among_those_left() {
        // Bytes: 52 * 51 * ... less one, in as few bytes as hold it.
        assert_eq!([deal_bytes(1), deal_bytes(2), deal_bytes(13), deal_bytes(39), deal_bytes(52)], [1, 2, 9, 25, 29]);
        // Ac (51) is place 51 of 52; then 2c (0) place 0 of the 51 left: 51.
        assert_eq!(deal_to_bytes(&[51, 0]).unwrap(), [51, 0]);
        // 2c place 0; then Ac place 50 of 51 (2c is gone): 0 + 52 * 50 = 2600.
        assert_eq!(deal_to_bytes(&[0, 51]).unwrap(), 2600u16.to_le_bytes());
        assert_eq!(deal_from_bytes(&2600u16.to_le_bytes(), 2).unwrap(), [0, 51]);
        // The deck in order is 0; backwards, every card the last of those left.
        let deck: Vec<u8> = (0..52).collect();
        assert_eq!(deal_to_bytes(&deck).unwrap(), [0; 29]);
        let backwards: Vec<u8> = (0..52).rev().collect();
        assert_eq!(deal_from_bytes(&deal_to_bytes(&backwards).unwrap(), 52).unwrap(), backwards);
        // A card twice, or not a card: no number.
        assert_eq!(deal_to_bytes(&[7, 7]), None);
        assert_eq!(deal_to_bytes(&[52]), None);
    }

    #[test]
    fn seats_format_3_cannot_keep_are_format_2() {
        let one = |n: u8, back: &str| seat(n, "TdQsKd", "3h3c9h9cAd", back, false, false);
        // A card twice (not of one deck), a seat past 63.
        for seats in [
            format!("[{},{}]", one(1, "2s2h2d6s8s"), one(2, "2s2h2d6s8s").replace("TdQsKd", "4d5d7d")),
            format!("[{}]", one(64, "2s2h2d6s8s")),
        ] {
            let packed = pack(&seats, RESULT).unwrap();
            assert_eq!(packed[0], FORMAT_2, "{seats}");
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
            proptest::prop_assert_eq!(packed[0], FORMAT_3);
            proptest::prop_assert_eq!(unpack(&packed).unwrap(), (seats_json.clone(), RESULT.to_string()));
            let format_2 = format_2(&seats_json, RESULT);
            proptest::prop_assert_eq!(unpack(&format_2).unwrap(), (seats_json, RESULT.to_string()));
        }
    }

    #[test]
    fn contexts_are_kept_for_the_next_and_at_most_sixteen() {
        // Twenty in use at once (each taken inside the one before): twenty
        // made, sixteen kept, and the next twenty make only four more.
        let kept: Mutex<Vec<u32>> = Mutex::new(Vec::new());
        let made = std::cell::Cell::new(0);
        fn nested(kept: &Mutex<Vec<u32>>, made: &std::cell::Cell<u32>, depth: u32) {
            let make = || {
                made.set(made.get() + 1);
                Some(made.get())
            };
            with_kept(kept, make, |_| {
                if depth > 1 {
                    nested(kept, made, depth - 1)
                }
            })
            .unwrap();
        }
        nested(&kept, &made, 20);
        assert_eq!((made.get(), kept.lock().unwrap().len()), (20, KEPT_CONTEXTS));
        nested(&kept, &made, 20);
        assert_eq!((made.get(), kept.lock().unwrap().len()), (24, KEPT_CONTEXTS));
        // None made (zstd refusing): none used, nothing kept.
        let empty: Mutex<Vec<u32>> = Mutex::new(Vec::new());
        assert_eq!(with_kept(&empty, || None, |n| *n), None);
        assert!(empty.lock().unwrap().is_empty());
        // The real pools, from many threads at once: every showdown packs
        // and reads back exactly.
        let usual = format!("[{}]", seat(1, "TdQsKd", "3h3c9h9cAd", "2s2h2d6s8s", false, false));
        let want = pack(&usual, REAL_RESULT).unwrap();
        let start = std::sync::Arc::new(std::sync::Barrier::new(20));
        let threads: Vec<_> = (0..20)
            .map(|_| {
                let (start, usual, want) = (start.clone(), usual.clone(), want.clone());
                std::thread::spawn(move || {
                    start.wait();
                    for _ in 0..5 {
                        assert_eq!(pack(&usual, REAL_RESULT).unwrap(), want);
                        assert_eq!(unpack(&want).unwrap().1, REAL_RESULT);
                    }
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        let size = with_compressor(|z| z.context_mut().sizeof()).unwrap();
        eprintln!("a kept compressor's context: {size} bytes");
    }

    #[test]
    fn a_damaged_showdown_is_an_error_not_a_panic() {
        let packed = pack("[]", "{}").unwrap();
        assert!(unpack(&[]).is_err());
        assert!(unpack(&[9, 1, 2]).is_err());
        assert!(unpack(&packed[..packed.len() - 2]).is_err());
        // Bytes changed anywhere, or cut short: an error or some text, never a panic.
        let usual = format!("[{}]", seat(1, "TdQsKd", "3h3c9h9cAd", "2s2h2d6s8s", false, false));
        let format_2 = format_2(&usual, RESULT);
        let format_3 = pack(&usual, REAL_RESULT).unwrap();
        assert_eq!(format_3[0], FORMAT_3);
        for packed in [packed, format_2.clone(), format_3.clone()] {
            for i in 1..packed.len() {
                for flip in [0xa5, 0x01, 0x80, 0xff] {
                    let mut changed = packed.clone();
                    changed[i] ^= flip;
                    let _ = unpack(&changed);
                }
                let _ = unpack(&packed[..i]);
            }
        }
        // Format 2's seats and cards (14 bytes for one seat), format 3's (12)
        // cut anywhere.
        for i in 0..=14 {
            assert!(unpack(&format_2[..i]).is_err(), "cut at {i}");
        }
        for i in 0..=12 {
            assert!(unpack(&format_3[..i]).is_err(), "cut at {i}");
        }
        assert!(unpack(&format_3[..13]).is_err(), "a window byte, no block");
        assert!(unpack(&[FORMAT_2, 1, 1, 0, 0xff]).is_err(), "cards cut short");
        assert!(unpack(&[FORMAT_2, 1, 1, 7]).is_err(), "an unknown choice");
        // Format 3: seat 0, five seats (more than a deck deals), a deal's
        // number past the largest (nine bytes of 0xff: 2^72 - 1 is more
        // than 52 * 51 * ... * 40 - 1).
        let mut rest = format_3[3..].to_vec();
        for (head, why) in [(vec![FORMAT_3, 1, 3], "seat 0"), (vec![FORMAT_3, 5, 4], "five seats")] {
            assert!(unpack(&[head, rest.clone()].concat()).is_err(), "{why}");
        }
        rest[..9].fill(0xff);
        assert!(unpack(&[vec![FORMAT_3, 1, 4], rest].concat()).is_err(), "a deal past the largest");
        // Whatever follows format 3's seats: an error or at most a block of text.
        let mut noise = 0x2545_f491_4f6c_dd1d_u64;
        for len in (0..300).chain([BLOCK_MAX, 1 << 21, (1 << 21) + 5]) {
            let mut hostile = format_3[..12].to_vec();
            hostile.extend((0..len).map(|_| {
                noise ^= noise << 13;
                noise ^= noise >> 7;
                noise ^= noise << 17;
                noise as u8
            }));
            if let Ok((_, result)) = unpack(&hostile) {
                assert!(result.len() <= BLOCK_MAX);
            }
        }
        // Any window, up to zstd's largest and past it: refused or read as written.
        for window in 0..=u8::MAX {
            let mut changed = format_3.clone();
            changed[12] = window;
            if let Ok((_, result)) = unpack(&changed) {
                assert_eq!(result, REAL_RESULT);
            }
        }
        // The kept contexts, used through all of the above, pack and read
        // as contexts made now do.
        assert_eq!(unpack(&format_3).unwrap(), (usual.clone(), REAL_RESULT.to_string()));
        let result = &format_3[12..];
        let frame = new_compressor().unwrap().compress(REAL_RESULT.as_bytes()).unwrap();
        assert_eq!(
            [&FRAME_START[..], &result[..1], &block_header(result.len() - 1).unwrap(), &result[1..]].concat(),
            frame
        );
        let mut fresh = zstd::bulk::Decompressor::with_prepared_dictionary(&dictionaries_3().unwrap().1).unwrap();
        assert_eq!(fresh.decompress(&frame, BLOCK_MAX).unwrap(), REAL_RESULT.as_bytes());
    }
}
