//! What the dealer's pages need besides the service: card text as it is typed
//! at a live table (`qh qd 7c`, `10h`, `Q♥`, and compact `qhqd7c`), the
//! problems of each row found before anything reaches the engine (each one
//! placed at its seat and row), cards shown in their suit's colour, capped
//! payments explained, and times in the table's time zone.
//!
//! The same reading runs in `static/dealer.js` while the dealer types; this
//! one serves the page without JavaScript and normalises what is sent.

use std::collections::BTreeMap;

use crate::domain::Money;
use crate::engine::card::{Card, Suit};

/// A card as shown on a page: rank and suit symbol, red or black.
pub struct CardText {
    pub text: String,
    pub red: bool,
}

impl CardText {
    pub fn of(card: Card) -> CardText {
        let rank = card.to_string().chars().next().unwrap_or('?');
        let symbol = match card.suit() {
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
        };
        CardText { text: format!("{rank}{symbol}"), red: card.is_red() }
    }
}

/// Cards as shown: each token that reads as a card coloured by its suit;
/// anything else as it was written (black).
pub fn card_texts(text: &str) -> Vec<CardText> {
    card_tokens(text)
        .into_iter()
        .map(|t| match Card::parse(&t, 1) {
            Ok(card) => CardText::of(card),
            Err(_) => CardText { text: t, red: false },
        })
        .collect()
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

fn is_rank(c: char) -> bool {
    "23456789TJQKAtjqka".contains(c)
}

fn is_suit(c: char) -> bool {
    "shdcSHDC♠♥♦♣♤♡♢♧".contains(c)
}

/// A run without separators split into its cards (`qhqd7c`, `10h9s`), or
/// `None` when it does not read as cards from end to end.
fn split_run(run: &str) -> Option<Vec<String>> {
    let chars: Vec<char> = run.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let rank_len = if chars[i] == '1' && chars.get(i + 1) == Some(&'0') {
            2
        } else if is_rank(chars[i]) {
            1
        } else {
            return None;
        };
        let suit = *chars.get(i + rank_len)?;
        if !is_suit(suit) {
            return None;
        }
        out.push(chars[i..=i + rank_len].iter().collect());
        i += rank_len + 1;
    }
    Some(out)
}

/// Typed card text as tokens: spaces and commas separate; a run such as
/// `qhqd7c` is split into its cards. A run that does not read as cards
/// stays whole, so a problem names exactly what was typed.
pub fn card_tokens(text: &str) -> Vec<String> {
    text.split(is_separator)
        .filter(|t| !t.is_empty())
        .flat_map(|run| match Card::parse(run, 1) {
            Ok(_) => vec![run.to_string()],
            Err(_) => split_run(run).unwrap_or_else(|| vec![run.to_string()]),
        })
        .collect()
}

/// Typed card text with one space between cards, as the engine reads it.
pub fn spaced(text: &str) -> String {
    card_tokens(text).join(" ")
}

/// One row of the entry form as typed.
pub struct TypedRow<'a> {
    pub seat: u32,
    /// `front`, `middle`, `back` or `discards`.
    pub row: &'static str,
    pub text: &'a str,
    /// Cards the row needs; 0 for any number (discards).
    pub count: usize,
}

/// A problem of the typed rows, with the rows it concerns.
#[derive(Debug, PartialEq, Eq)]
pub struct Problem {
    pub text: String,
    /// (seat, row) of every row it concerns; empty for the whole hand.
    pub at: Vec<(u32, &'static str)>,
}

/// The problems of the typed rows, in seat and row order: text that is not
/// a card, a row with the wrong number of cards, a card used more often than
/// the deck has it (`copies`: 2 with a double deck). The words are the
/// engine's own.
pub fn row_problems(rows: &[TypedRow], copies: usize) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut places: BTreeMap<Card, Vec<(u32, &'static str)>> = BTreeMap::new();
    let mut order: Vec<Card> = Vec::new();
    for r in rows {
        let tokens = card_tokens(r.text);
        for (i, token) in tokens.iter().enumerate() {
            match Card::parse(token, i + 1) {
                Ok(card) => {
                    let list = places.entry(card).or_default();
                    if list.is_empty() {
                        order.push(card);
                    }
                    list.push((r.seat, r.row));
                }
                Err(e) => problems
                    .push(Problem { text: format!("seat {} {}: {e}", r.seat, r.row), at: vec![(r.seat, r.row)] }),
            }
        }
        if r.count > 0 && tokens.len() != r.count {
            let text = if tokens.is_empty() {
                format!("seat {} {} is empty; it needs {} cards", r.seat, r.row, r.count)
            } else {
                format!("seat {} {} has {} cards; it needs {}", r.seat, r.row, tokens.len(), r.count)
            };
            problems.push(Problem { text, at: vec![(r.seat, r.row)] });
        }
    }
    for card in order {
        let list = &places[&card];
        if list.len() <= copies {
            continue;
        }
        let named: Vec<String> = list.iter().map(|(s, r)| format!("seat {s} {r}")).collect();
        let text = if copies == 1 {
            format!("{card} appears twice: {} and {}", named[0], named[1..].join(" and "))
        } else {
            format!("{card} appears three times, but a double deck has two of each card: {}", named.join(", "))
        };
        let mut at = list.clone();
        at.dedup();
        problems.push(Problem { text, at });
    }
    problems
}

/// A payment between two seats as the sheet explains it.
pub struct Payment {
    pub payer: u32,
    pub payee: u32,
    pub owed: Money,
    pub paid: Money,
}

/// Why each payment was cut by the chip bound (RULES §8), in words, or
/// `None` where it was paid in full. `exposure` is what each seat could win
/// or lose at the start of the settlement (its stack less rake, or what a
/// fantasyland hand carried over); `name` names a seat.
pub fn cap_reasons(
    exposure: &[(u32, Money)],
    payments: &[Payment],
    name: impl Fn(u32) -> String,
) -> Vec<Option<String>> {
    let mut left: BTreeMap<u32, Money> = exposure.iter().copied().collect();
    payments
        .iter()
        .map(|p| {
            let payer_left = left.get(&p.payer).copied();
            let payee_left = left.get(&p.payee).copied();
            for (seat, by) in [(p.payer, p.paid), (p.payee, p.paid)] {
                if let Some(v) = left.get_mut(&seat) {
                    *v = (*v - by).max(Money::ZERO);
                }
            }
            if p.paid >= p.owed {
                return None;
            }
            Some(match (payer_left, payee_left) {
                (Some(l), _) if l == p.paid && l.is_zero() => {
                    format!("{} had nothing left to pay with (a player loses at most their chips)", name(p.payer))
                }
                (Some(l), _) if l == p.paid => {
                    format!("{} had only {} left to pay with (a player loses at most their chips)", name(p.payer), l)
                }
                (_, Some(l)) if l == p.paid && l.is_zero() => {
                    format!("{} could win nothing more (a player wins at most the chips they had)", name(p.payee))
                }
                (_, Some(l)) if l == p.paid => {
                    format!("{} could win only {} more (a player wins at most the chips they had)", name(p.payee), l)
                }
                _ => "cut by the chip bound (RULES §8)".to_string(),
            })
        })
        .collect()
}

/// A stored UTC time in the table's time zone (`America/Los_Angeles`;
/// UTC when the name is not known).
pub fn local_time(at: chrono::DateTime<chrono::Utc>, time_zone: &str) -> String {
    let tz: chrono_tz::Tz = time_zone.parse().unwrap_or(chrono_tz::UTC);
    at.with_timezone(&tz).format("%Y-%m-%d %H:%M %Z").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_text_splits_into_cards() {
        assert_eq!(card_tokens("qhqd7c"), ["qh", "qd", "7c"]);
        assert_eq!(card_tokens("10h9s, Q♥ js"), ["10h", "9s", "Q♥", "js"]);
        assert_eq!(card_tokens("9c5d2s"), ["9c", "5d", "2s"]);
        assert_eq!(card_tokens("qhqx"), ["qhqx"], "a run that is not all cards stays whole");
        assert_eq!(spaced(" as,ks   3s"), "as ks 3s");
    }

    #[test]
    fn problems_name_their_rows() {
        let rows = [
            TypedRow { seat: 1, row: "front", text: "qhqd7c", count: 3 },
            TypedRow { seat: 1, row: "back", text: "2s 3s 4s 5s", count: 5 },
            TypedRow { seat: 2, row: "front", text: "9x qh", count: 3 },
        ];
        let problems = row_problems(&rows, 1);
        let texts: Vec<&str> = problems.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "seat 1 back has 4 cards; it needs 5",
                "seat 2 front: \"9x\" (card 1) is not a card: unknown suit (use s, h, d, c or ♠ ♥ ♦ ♣)",
                "seat 2 front has 2 cards; it needs 3",
                "Qh appears twice: seat 1 front and seat 2 front",
            ]
        );
        assert_eq!(problems[3].at, [(1, "front"), (2, "front")]);
        assert!(row_problems(&rows[..1], 1).is_empty());
    }

    #[test]
    fn capped_payments_are_explained() {
        let d = |s: &str| Money::from_decimal(s.parse().unwrap()).unwrap();
        let payments = [
            Payment { payer: 1, payee: 2, owed: d("75"), paid: d("49.5") },
            Payment { payer: 1, payee: 3, owed: d("10"), paid: d("0") },
            Payment { payer: 4, payee: 2, owed: d("200"), paid: d("50.5") },
        ];
        let reasons = cap_reasons(&[(1, d("49.5")), (2, d("100")), (3, d("150")), (4, d("200"))], &payments, |s| {
            format!("seat {s}")
        });
        assert_eq!(
            reasons[0].as_deref(),
            Some("seat 1 had only 49.50 left to pay with (a player loses at most their chips)")
        );
        assert!(reasons[1].as_deref().unwrap().starts_with("seat 1 had nothing left"));
        assert_eq!(
            reasons[2].as_deref(),
            Some("seat 2 could win only 50.50 more (a player wins at most the chips they had)")
        );
    }
}
