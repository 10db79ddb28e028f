//! The showdown as it arrives (CONTRACT.md, JSON) and as the engine scores it:
//! parsed once at the edge, so a `Showdown` is always valid.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

use super::card::{parse_cards, Card, CardError};
use super::options::{Penalty, TableOptions, PINEAPPLE_CARDS, PLACED};
use super::ruleset::{self, Ruleset, Structure, Surrender};
use super::special::{SetRows, SpecialKind};

/// Most seats at one table (one deck, 13 cards each).
pub const MAX_SEATS: usize = 4;
/// Money is given to at most this many decimal places...
pub const MAX_MONEY_SCALE: u32 = 6;
/// ...and is at most this large (a stack, a unit, a rake).
pub const MAX_MONEY: i64 = 1_000_000_000_000;

/// Money as written: a decimal string (`"12.50"`) or a JSON number.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
pub enum MoneyText {
    Text(String),
    Number(serde_json::Number),
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RakeInput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_seat: Option<MoneyText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jackpot: Option<MoneyText>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PairUnitInput {
    #[serde(deserialize_with = "two_seats")]
    pub seats: [u32; 2],
    pub unit: MoneyText,
}

/// A pair's `seats`: exactly two seat numbers, or an error that says so.
fn two_seats<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<[u32; 2], D::Error> {
    let seats = Vec::<u32>::deserialize(deserializer)?;
    match seats.as_slice() {
        [a, b] => Ok([*a, *b]),
        other => {
            let listed: Vec<String> = other.iter().map(u32::to_string).collect();
            Err(serde::de::Error::custom(format!(
                "a pair is two seats, but {} {} named ({}); give one entry per pair of seats",
                other.len(),
                if other.len() == 1 { "is" } else { "are" },
                listed.join(", ")
            )))
        }
    }
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SeatInput {
    pub seat: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack: Option<MoneyText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub front: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub middle: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cards: Option<String>,
    #[serde(default)]
    pub surrender: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aces_bet: Option<bool>,
    #[serde(default)]
    pub in_fantasyland: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discards: Option<String>,
    /// Open-face table play: the most this seat may still win or lose
    /// (RULES §8), carried from the previous hand; default: stack less rake.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exposure: Option<MoneyText>,
    /// Cards the seat was dealt in fantasyland (pineapple 14 to 17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fantasyland_cards: Option<u32>,
    /// Tournament penalties recorded by the floor (`early-card`,
    /// `missed-turn`, `dead-hand`); needs the `tournament` option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalties: Option<Vec<String>>,
    /// `singapore` with `ace_of_spades_deals`: this seat is the dealer
    /// because it held the ace of spades and no one was willing to deal; it
    /// is paid 1 unit by each opponent (seed 004).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ace_of_spades_dealer: bool,
}

/// One showdown as JSON (CONTRACT.md "Showdown (input)").
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ShowdownInput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruleset: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<MoneyText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dealer: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rake: Option<RakeInput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pair_units: Option<Vec<PairUnitInput>>,
    pub seats: Vec<SeatInput>,
    /// The table's options (`options::TableOptions`); an addition to the
    /// contract, absent by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<serde_json::Value>,
    /// The preset's revision to score under (`ruleset::preset_at`); absent:
    /// the current one. A hand is rescored under the revision it was
    /// committed with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset_revision: Option<u32>,
}

/// What a JSON value is, for a message.
fn json_kind(text: &str) -> &'static str {
    match text.trim_start().chars().next() {
        Some('[') => "an array",
        Some('"') => "a string",
        Some('t' | 'f') => "true or false",
        Some('n') => "null",
        Some('-' | '0'..='9') => "a number",
        _ => "not an object",
    }
}

impl ShowdownInput {
    /// Reads the JSON text of one showdown; an error names the field
    /// (`seats[1].stack: …`).
    pub fn from_json(text: &str) -> Result<ShowdownInput, ShowdownError> {
        let mut json = serde_json::Deserializer::from_str(text);
        let input = serde_path_to_error::deserialize(&mut json).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            match path.as_str() {
                _ if inner.is_syntax() || inner.is_eof() => ShowdownError::Json(inner.to_string()),
                _ if !text.trim_start().starts_with('{') => ShowdownError::Json(format!(
                    "a showdown is one JSON object ({{\"ruleset\": ..., \"seats\": [...]}}), not {}",
                    json_kind(text)
                )),
                "." | "" => ShowdownError::Json(inner.to_string()),
                _ => ShowdownError::Json(format!("{path}: {inner}")),
            }
        })?;
        json.end().map_err(|e| ShowdownError::Json(e.to_string()))?;
        Ok(input)
    }
}

/// Anything wrong with a showdown. Each message names the problem; nothing
/// is scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShowdownError {
    #[error("the showdown is not valid JSON of the expected shape: {0}")]
    Json(String),
    /// A hand to analyse that is not 13 distinct cards (`setter::AnalyseInput`).
    #[error("{0}")]
    Hand(String),
    #[error("unknown preset {0:?}; the presets are: {list}", list = preset_list())]
    UnknownPreset(String),
    #[error("preset {preset} has no revision {revision}; its revisions are 1 to {current}")]
    UnknownRevision { preset: String, revision: u32, current: u32 },
    #[error("a showdown needs 2 to {max} seats; this one has {0}", max = MAX_SEATS)]
    SeatCount(usize),
    #[error("seat {0} is listed twice")]
    RepeatedSeat(u32),
    #[error("the dealer, seat {0}, is not one of the seats")]
    DealerNotSeated(u32),
    #[error("{0}")]
    Money(String),
    #[error("seat {0} has no stack")]
    MissingStack(u32),
    #[error("seat {seat}'s stack {stack} is smaller than the rake {rake}")]
    StackBelowRake { seat: u32, stack: Decimal, rake: Decimal },
    #[error("the jackpot part {jackpot} is larger than the rake per seat {rake}")]
    JackpotAboveRake { jackpot: Decimal, rake: Decimal },
    #[error("pair_units: {0}")]
    PairUnits(String),
    #[error("seat {seat} {row}: {error}")]
    Card { seat: u32, row: &'static str, error: CardError },
    #[error("seat {seat} {row} has {found} cards; it needs {needed}")]
    CardCount { seat: u32, row: &'static str, found: usize, needed: usize },
    #[error("{card} appears twice: {first} and {second}")]
    DuplicateCard { card: String, first: String, second: String },
    #[error("seat {0} gives both rows (front, middle, back) and loose cards; give one or the other")]
    RowsAndCards(u32),
    #[error("seat {0} gives no cards: it needs front, middle and back, or 13 loose cards")]
    NoCards(u32),
    #[error("seat {seat} gives {given} but not {missing}: give all three rows")]
    MissingRow { seat: u32, given: &'static str, missing: &'static str },
    #[error("seat {0} gives 13 loose cards, which is allowed only with a surrender or a claim of a special that needs no arrangement")]
    LooseCards(u32),
    #[error("seat {seat} claims {claim:?}, but preset {preset} has no such special (it has: {known})")]
    UnknownSpecial { seat: u32, claim: String, preset: &'static str, known: String },
    #[error("seat {seat} claims {claim}, but its cards do not make it")]
    ClaimNotMade { seat: u32, claim: String },
    #[error("seat {seat} claims {claim:?}, but preset {preset} has no special hands")]
    NoSpecials { seat: u32, claim: String, preset: &'static str },
    #[error("seat {0} both claims a special and surrenders; it can do only one")]
    ClaimAndSurrender(u32),
    #[error("seat {seat} surrenders, but preset {preset} has no surrender")]
    SurrenderNotAllowed { seat: u32, preset: &'static str },
    #[error("seat {seat} lists discards, which only ofc-pineapple allows (the preset is {preset})")]
    DiscardsNotAllowed { seat: u32, preset: &'static str },
    #[error("seat {seat} takes the aces side bet, which preset {preset} does not have")]
    AcesBetNotAllowed { seat: u32, preset: &'static str },
    #[error("seat {seat} is in fantasyland, which only the ofc presets have (the preset is {preset})")]
    FantasylandNotAllowed { seat: u32, preset: &'static str },
    #[error("{card} appears three times, but a double deck has two of each card: {places}")]
    TooManyCopies { card: String, places: String },
    #[error("options: {0}")]
    Options(String),
    #[error("{preset}{with} is played by 2 to {max} players; this showdown has {found}", with = if *with_options { " with these options" } else { "" })]
    PlayerCount { preset: &'static str, max: usize, found: usize, with_options: bool },
    #[error("seat {seat}: {message}")]
    TablePlay { seat: u32, message: String },
}

fn preset_list() -> String {
    ruleset::PRESETS.iter().map(|r| r.name).collect::<Vec<_>>().join(", ")
}

/// How a seat's cards were given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatCards {
    Rows { front: [Card; 3], middle: [Card; 5], back: [Card; 5] },
    Loose([Card; 13]),
}

impl SeatCards {
    pub fn all(&self) -> [Card; 13] {
        match self {
            SeatCards::Rows { front, middle, back } => {
                let mut all = [front[0]; 13];
                all[..3].copy_from_slice(front);
                all[3..8].copy_from_slice(middle);
                all[8..].copy_from_slice(back);
                all
            }
            SeatCards::Loose(cards) => *cards,
        }
    }

    /// The rows with their strengths, when the seat gave rows.
    pub fn set_rows(&self) -> Option<SetRows<'_>> {
        match self {
            SeatCards::Rows { front, middle, back } => Some(SetRows::of(front, middle, back)),
            SeatCards::Loose(_) => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    Best,
    Named(SpecialKind),
}

/// A seat ready to score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub number: u32,
    pub stack: Decimal,
    pub cards: SeatCards,
    pub surrender: bool,
    pub claim: Option<Claim>,
    pub aces_bet: bool,
    pub in_fantasyland: bool,
    pub discards: Vec<Card>,
    /// The exposure this seat starts settlement with (RULES §8), when carried.
    pub exposure: Option<Decimal>,
    pub fantasyland_cards: Option<usize>,
    pub penalties: Vec<Penalty>,
    /// Made to deal by the ace of spades (`singapore` option).
    pub ace_of_spades_dealer: bool,
}

impl Seat {
    pub fn has_penalty(&self, p: Penalty) -> bool {
        self.penalties.contains(&p)
    }
}

/// A valid showdown: seats in clockwise order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Showdown {
    pub ruleset: &'static Ruleset,
    pub unit: Decimal,
    /// Index into `seats` of the dealer.
    pub dealer: usize,
    pub rake_per_seat: Decimal,
    pub jackpot_per_seat: Decimal,
    /// Pair stakes as indexes into `seats`.
    pub pair_units: Vec<(usize, usize, Decimal)>,
    pub seats: Vec<Seat>,
    /// The table's options (the default when the showdown gives none).
    pub options: TableOptions,
    /// The showdown gave `options`: open-face table play reports its fields.
    pub options_given: bool,
    /// The preset's special hands with the options applied (ascending).
    pub specials: Vec<(SpecialKind, i64)>,
}

/// Reads an amount of money; `what` names it in an error.
fn money(value: &MoneyText, what: impl Fn() -> String) -> Result<Decimal, ShowdownError> {
    let number;
    let raw = match value {
        MoneyText::Text(s) => s.as_str(),
        MoneyText::Number(n) => {
            number = n.to_string();
            &number
        }
    };
    let amount = super::money::parse_plain_decimal(raw).map_err(|e| match e {
        super::money::MoneyTextError::TooLong => {
            ShowdownError::Money(format!("{} {raw:?} is too large: larger than {MAX_MONEY}", what()))
        }
        // "1e30": say first that it is too large, which is what matters.
        super::money::MoneyTextError::Exponent if raw.parse::<f64>().is_ok_and(|v| v > MAX_MONEY as f64) => {
            ShowdownError::Money(format!("{} {raw:?} is too large: larger than {MAX_MONEY} (and {e})", what()))
        }
        e => ShowdownError::Money(format!("{} {raw:?} {e}", what())),
    })?;
    let amount = if amount.scale() > MAX_MONEY_SCALE { amount.normalize() } else { amount };
    if amount.scale() > MAX_MONEY_SCALE {
        return Err(ShowdownError::Money(format!("{} {raw} has more than {MAX_MONEY_SCALE} decimal places", what())));
    }
    if amount > Decimal::from(MAX_MONEY) {
        return Err(ShowdownError::Money(format!("{} {raw} is too large: larger than {MAX_MONEY}", what())));
    }
    Ok(amount.normalize_if_needed())
}

trait NormalizeZero {
    fn normalize_if_needed(self) -> Self;
}

impl NormalizeZero for Decimal {
    /// `-0` becomes `0`; the scale is kept (`"12.50"` stays `12.50`).
    fn normalize_if_needed(mut self) -> Self {
        if self.is_zero() {
            self.set_sign_positive(true);
        }
        self
    }
}

fn row_cards<const N: usize>(seat: u32, row: &'static str, text: &str) -> Result<[Card; N], ShowdownError> {
    let cards = parse_cards(text).map_err(|error| ShowdownError::Card { seat, row, error })?;
    let found = cards.len();
    cards.try_into().map_err(|_| ShowdownError::CardCount { seat, row, found, needed: N })
}

impl Showdown {
    /// Parses the JSON text of one showdown.
    pub fn from_json(text: &str) -> Result<Showdown, ShowdownError> {
        Showdown::from_input(&ShowdownInput::from_json(text)?)
    }

    pub fn from_input(input: &ShowdownInput) -> Result<Showdown, ShowdownError> {
        let name = input.ruleset.as_deref().unwrap_or(ruleset::DEFAULT_PRESET);
        let current = ruleset::preset(name).ok_or_else(|| ShowdownError::UnknownPreset(name.to_string()))?;
        let rules = match input.ruleset_revision {
            None => current,
            Some(revision) => ruleset::preset_at(name, revision).ok_or_else(|| ShowdownError::UnknownRevision {
                preset: name.to_string(),
                revision,
                current: current.revision,
            })?,
        };
        let n = input.seats.len();
        let options_given = input.options.is_some();
        let options = TableOptions::from_json(input.options.as_ref().unwrap_or(&serde_json::Value::Null), rules)
            .map_err(ShowdownError::Options)?;
        // Open-face player counts follow from the cards (pineapple: 17 a
        // seat, so 3 from one deck); from revision 2 whether or not the
        // showdown gives options.
        let counted = rules.fantasyland.is_some() && (options_given || rules.open_face_counts_always);
        let max = if counted { options.max_players(rules) } else { MAX_SEATS };
        if !(2..=max).contains(&n) {
            if max == MAX_SEATS && !options_given {
                return Err(ShowdownError::SeatCount(n));
            }
            return Err(ShowdownError::PlayerCount { preset: rules.name, max, found: n, with_options: options_given });
        }
        let specials = options.specials(rules);
        let surrender_rule = options.surrender(rules);
        let copies = options.copies();
        for (i, s) in input.seats.iter().enumerate() {
            if input.seats[..i].iter().any(|t| t.seat == s.seat) {
                return Err(ShowdownError::RepeatedSeat(s.seat));
            }
        }
        let index_of = |seat: u32| input.seats.iter().position(|s| s.seat == seat);
        let dealer = match input.dealer {
            None => 0,
            Some(d) => index_of(d).ok_or(ShowdownError::DealerNotSeated(d))?,
        };
        let unit = match &input.unit {
            None => Decimal::ONE,
            Some(u) => money(u, || "unit".to_string())?,
        };
        let rake = input.rake.clone().unwrap_or_default();
        let rake_per_seat = match &rake.per_seat {
            None => Decimal::ZERO,
            Some(r) => money(r, || "rake per_seat".to_string())?,
        };
        let jackpot_per_seat = match &rake.jackpot {
            None => Decimal::ZERO,
            Some(j) => money(j, || "rake jackpot".to_string())?,
        };
        if jackpot_per_seat > rake_per_seat {
            return Err(ShowdownError::JackpotAboveRake { jackpot: jackpot_per_seat, rake: rake_per_seat });
        }

        let mut pair_units = Vec::new();
        for p in input.pair_units.iter().flatten() {
            let [a, b] = p.seats;
            let ia =
                index_of(a).ok_or_else(|| ShowdownError::PairUnits(format!("seat {a} is not one of the seats")))?;
            let ib =
                index_of(b).ok_or_else(|| ShowdownError::PairUnits(format!("seat {b} is not one of the seats")))?;
            if ia == ib {
                return Err(ShowdownError::PairUnits(format!("seat {a} is paired with itself")));
            }
            let key = (ia.min(ib), ia.max(ib));
            if pair_units.iter().any(|&(x, y, _)| (x, y) == key) {
                return Err(ShowdownError::PairUnits(format!("the pair of seats {a} and {b} is given twice")));
            }
            let unit = money(&p.unit, || format!("pair_units unit for seats {a} and {b}"))?;
            pair_units.push((key.0, key.1, unit));
        }

        // Where each card was seen: (seat, row), formatted only for an error.
        // One deck has one of each card; a double deck two.
        let mut where_seen: Vec<Vec<(u32, &'static str)>> = vec![Vec::new(); 52];
        let mut note = |card: Card, seat: u32, row: &'static str| -> Result<(), ShowdownError> {
            let seen = &mut where_seen[card.index() as usize];
            if seen.len() >= copies as usize {
                let places = |list: &[(u32, &'static str)]| {
                    list.iter().map(|(s, r)| format!("seat {s} {r}")).collect::<Vec<_>>().join(", ")
                };
                if copies > 1 {
                    return Err(ShowdownError::TooManyCopies {
                        card: card.to_string(),
                        places: format!("{} and seat {seat} {row}", places(seen)),
                    });
                }
                return Err(ShowdownError::DuplicateCard {
                    card: card.to_string(),
                    first: places(seen),
                    second: format!("seat {seat} {row}"),
                });
            }
            seen.push((seat, row));
            Ok(())
        };

        let mut seats = Vec::with_capacity(n);
        for s in &input.seats {
            let number = s.seat;
            let stack =
                money(s.stack.as_ref().ok_or(ShowdownError::MissingStack(number))?, || format!("seat {number} stack"))?;
            if stack < rake_per_seat {
                return Err(ShowdownError::StackBelowRake { seat: number, stack, rake: rake_per_seat });
            }
            let claim = match s.claim.as_deref() {
                None => None,
                Some(name) if specials.is_empty() => {
                    return Err(ShowdownError::NoSpecials { seat: number, claim: name.to_string(), preset: rules.name })
                }
                Some("best") => Some(Claim::Best),
                Some(name) => match SpecialKind::from_name_in(name, &specials) {
                    Some(kind) => Some(Claim::Named(kind)),
                    None => {
                        return Err(ShowdownError::UnknownSpecial {
                            seat: number,
                            claim: name.to_string(),
                            preset: rules.name,
                            known: specials.iter().map(|(k, _)| k.name()).collect::<Vec<_>>().join(", "),
                        })
                    }
                },
            };
            if claim.is_some() && s.surrender {
                return Err(ShowdownError::ClaimAndSurrender(number));
            }
            if s.surrender && surrender_rule == Surrender::NotAllowed {
                return Err(ShowdownError::SurrenderNotAllowed { seat: number, preset: rules.name });
            }
            if s.ace_of_spades_dealer {
                if !options.ace_of_spades_deals {
                    return Err(ShowdownError::TablePlay {
                        seat: number,
                        message: format!(
                            "ace_of_spades_dealer needs the option ace_of_spades_deals (singapore); the preset is {}",
                            rules.name
                        ),
                    });
                }
                if input.dealer.map_or(input.seats[0].seat, |d| d) != number {
                    return Err(ShowdownError::TablePlay {
                        seat: number,
                        message: "ace_of_spades_dealer is given, but the seat is not the dealer".to_string(),
                    });
                }
            }
            if s.aces_bet == Some(true) && !rules.aces_bet {
                return Err(ShowdownError::AcesBetNotAllowed { seat: number, preset: rules.name });
            }
            if s.in_fantasyland && rules.fantasyland.is_none() {
                return Err(ShowdownError::FantasylandNotAllowed { seat: number, preset: rules.name });
            }
            let mut penalties = Vec::new();
            for name in s.penalties.iter().flatten() {
                let p = Penalty::from_name(name).ok_or_else(|| ShowdownError::TablePlay {
                    seat: number,
                    message: format!("unknown penalty {name:?}; the penalties are early-card, missed-turn, dead-hand"),
                })?;
                if !options.tournament {
                    return Err(ShowdownError::TablePlay {
                        seat: number,
                        message: format!("penalty {name} needs the tournament option"),
                    });
                }
                if p == Penalty::DeadHand && penalties.contains(&p) {
                    return Err(ShowdownError::TablePlay {
                        seat: number,
                        message: "the hand is declared dead twice".to_string(),
                    });
                }
                penalties.push(p);
            }
            let dead = penalties.contains(&Penalty::DeadHand);
            let rows = [("front", &s.front), ("middle", &s.middle), ("back", &s.back)];
            let given: Vec<&'static str> = rows.iter().filter(|r| r.1.is_some()).map(|r| r.0).collect();
            let cards = match (&s.cards, given.len()) {
                (Some(_), 1..) => return Err(ShowdownError::RowsAndCards(number)),
                (None, 0) => return Err(ShowdownError::NoCards(number)),
                (None, 1 | 2) => {
                    let missing = rows.iter().find(|r| r.1.is_none()).map(|r| r.0).unwrap_or("front");
                    return Err(ShowdownError::MissingRow { seat: number, given: given[0], missing });
                }
                (Some(text), _) => {
                    let loose = row_cards::<13>(number, "cards", text)?;
                    let arrangement_free = match claim {
                        Some(Claim::Named(kind)) => !kind.needs_rows(),
                        Some(Claim::Best) => true,
                        None => false,
                    };
                    if !s.surrender && !arrangement_free && !dead {
                        return Err(ShowdownError::LooseCards(number));
                    }
                    SeatCards::Loose(loose)
                }
                (None, _) => SeatCards::Rows {
                    front: row_cards::<3>(number, "front", s.front.as_deref().unwrap_or_default())?,
                    middle: row_cards::<5>(number, "middle", s.middle.as_deref().unwrap_or_default())?,
                    back: row_cards::<5>(number, "back", s.back.as_deref().unwrap_or_default())?,
                },
            };
            match &cards {
                SeatCards::Rows { front, middle, back } => {
                    for (row, list) in [("front", &front[..]), ("middle", &middle[..]), ("back", &back[..])] {
                        for &c in list {
                            note(c, number, row)?;
                        }
                    }
                }
                SeatCards::Loose(list) => {
                    for &c in list {
                        note(c, number, "cards")?;
                    }
                }
            }
            let discards = match &s.discards {
                None => Vec::new(),
                Some(_) if !rules.discards => {
                    return Err(ShowdownError::DiscardsNotAllowed { seat: number, preset: rules.name })
                }
                Some(text) => {
                    let list = parse_cards(text).map_err(|error| ShowdownError::Card {
                        seat: number,
                        row: "discards",
                        error,
                    })?;
                    for &c in &list {
                        note(c, number, "discards")?;
                    }
                    list
                }
            };
            let exposure = match &s.exposure {
                None => None,
                Some(e) => {
                    let e = money(e, || format!("seat {number} exposure"))?;
                    if e > stack - rake_per_seat {
                        return Err(ShowdownError::TablePlay {
                            seat: number,
                            message: format!(
                                "exposure {e} is larger than the stack {stack} less the rake {rake_per_seat}"
                            ),
                        });
                    }
                    Some(e)
                }
            };
            let fantasyland_cards = match s.fantasyland_cards {
                None => None,
                Some(_) if !s.in_fantasyland => {
                    return Err(ShowdownError::TablePlay {
                        seat: number,
                        message: "fantasyland_cards is given, but the seat is not in fantasyland".to_string(),
                    })
                }
                Some(c) => {
                    let c = c as usize;
                    let range = if rules.discards { 14..=17 } else { 13..=13 };
                    if !range.contains(&c) {
                        return Err(ShowdownError::TablePlay {
                            seat: number,
                            message: format!(
                                "fantasyland_cards {c}: in {} a fantasyland seat gets {} to {} cards",
                                rules.name,
                                range.start(),
                                range.end()
                            ),
                        });
                    }
                    Some(c)
                }
            };
            // Pineapple: 13 placed, the rest discarded. A fantasyland seat
            // discards exactly what it was dealt beyond 13 (a dead or
            // surrendered hand at most that); other seats at most 4.
            if rules.discards && (counted || fantasyland_cards.is_some()) {
                let most = fantasyland_cards.unwrap_or(PINEAPPLE_CARDS) - PLACED;
                let exact = fantasyland_cards.is_some() && !dead && !s.surrender;
                let found = discards.len();
                if found > most || (exact && found != most) {
                    let dealt = most + PLACED;
                    return Err(ShowdownError::TablePlay {
                        seat: number,
                        message: format!(
                            "lists {found} discards; {} {dealt} cards it discards {}{most}",
                            if fantasyland_cards.is_some() { "dealt in fantasyland" } else { "dealt" },
                            if exact { "" } else { "at most " },
                        ),
                    });
                }
            }
            seats.push(Seat {
                number,
                stack,
                cards,
                surrender: s.surrender,
                claim,
                aces_bet: rules.aces_bet && s.aces_bet.unwrap_or(true),
                in_fantasyland: s.in_fantasyland,
                discards,
                exposure,
                fantasyland_cards,
                penalties,
                ace_of_spades_dealer: s.ace_of_spades_dealer,
            });
        }
        Ok(Showdown {
            ruleset: rules,
            unit,
            dealer,
            rake_per_seat,
            jackpot_per_seat,
            pair_units,
            seats,
            options,
            options_given,
            specials,
        })
    }

    /// Seat indexes in settlement order: the dealer first, then clockwise;
    /// under tournament rules in seat order from position 1 (the first seat
    /// listed).
    pub fn settlement_order(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.seats.len();
        let first = if self.tournament() { 0 } else { self.dealer };
        (0..n).map(move |k| (first + k) % n)
    }

    pub fn tournament(&self) -> bool {
        self.options.tournament
    }

    /// Open-face table play (issue 8) is reported: an open-face preset and
    /// the showdown gave `options`.
    pub fn table_play(&self) -> bool {
        self.options_given && self.ruleset.fantasyland.is_some()
    }

    /// Whether this pair settles at all under the preset's structure.
    pub fn pair_plays(&self, a: usize, b: usize) -> bool {
        match self.ruleset.structure {
            Structure::AllPairs => true,
            Structure::Bank => a == self.dealer || b == self.dealer,
        }
    }

    /// The money value of one unit between seats `a` and `b` (indexes).
    pub fn unit_for(&self, a: usize, b: usize) -> Decimal {
        let key = (a.min(b), a.max(b));
        self.pair_units.iter().find(|&&(x, y, _)| (x, y) == key).map_or(self.unit, |p| p.2)
    }
}

impl FromStr for Showdown {
    type Err = ShowdownError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Showdown::from_json(s)
    }
}
