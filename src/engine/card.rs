//! Cards, their notation (RULES §1) and sets of cards.

use std::fmt;

/// Ranks low to high; index 0 is the deuce, 12 the ace.
pub const RANK_CHARS: [char; 13] = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
/// Suits in index order: spades, hearts, diamonds, clubs.
pub const SUIT_CHARS: [char; 4] = ['s', 'h', 'd', 'c'];

pub type Rank = u8;
pub const TEN: Rank = 8;
pub const JACK: Rank = 9;
pub const QUEEN: Rank = 10;
pub const KING: Rank = 11;
pub const ACE: Rank = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Spades = 0,
    Hearts = 1,
    Diamonds = 2,
    Clubs = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }
}

/// One card: `rank * 4 + suit`, always below 52.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    pub fn new(rank: Rank, suit: Suit) -> Card {
        assert!(rank < 13, "rank out of range");
        Card(rank * 4 + suit as u8)
    }

    /// The card with this index (0..52), if it is one.
    pub fn from_index(index: u8) -> Option<Card> {
        (index < 52).then_some(Card(index))
    }

    pub fn index(self) -> u8 {
        self.0
    }

    pub fn rank(self) -> Rank {
        self.0 >> 2
    }

    pub fn suit(self) -> Suit {
        Suit::ALL[(self.0 & 3) as usize]
    }

    pub fn is_red(self) -> bool {
        self.suit().is_red()
    }

    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Every card of the deck, deuces first.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl fmt::Display for Card {
    /// Canonical display: upper-case rank (`T` for ten), lower-case suit letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", RANK_CHARS[self.rank() as usize], SUIT_CHARS[(self.0 & 3) as usize])
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a card token could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{token}\" (card {position}) is not a card: {reason}")]
pub struct CardError {
    /// The token as written.
    pub token: String,
    /// 1-based position of the token in its row or list.
    pub position: usize,
    pub reason: &'static str,
}

const fn ascii_table(pairs: &[(u8, u8)]) -> [u8; 128] {
    let mut t = [255u8; 128];
    let mut i = 0;
    while i < pairs.len() {
        t[pairs[i].0 as usize] = pairs[i].1;
        t[pairs[i].0.to_ascii_lowercase() as usize] = pairs[i].1;
        i += 1;
    }
    t
}

static ASCII_RANKS: [u8; 128] = ascii_table(&[
    (b'2', 0),
    (b'3', 1),
    (b'4', 2),
    (b'5', 3),
    (b'6', 4),
    (b'7', 5),
    (b'8', 6),
    (b'9', 7),
    (b'T', 8),
    (b'J', 9),
    (b'Q', 10),
    (b'K', 11),
    (b'A', 12),
]);
static ASCII_SUITS: [u8; 128] = ascii_table(&[(b'S', 0), (b'H', 1), (b'D', 2), (b'C', 3)]);

fn parse_rank(s: &str) -> Option<Rank> {
    if s == "10" {
        return Some(TEN);
    }
    let mut chars = s.chars();
    let c = chars.next()?.to_ascii_uppercase();
    if chars.next().is_some() {
        return None;
    }
    RANK_CHARS.iter().position(|&r| r == c).map(|i| i as Rank)
}

fn parse_suit(c: char) -> Option<Suit> {
    Some(match c {
        's' | 'S' | '♠' | '♤' => Suit::Spades,
        'h' | 'H' | '♥' | '♡' => Suit::Hearts,
        'd' | 'D' | '♦' | '♢' => Suit::Diamonds,
        'c' | 'C' | '♣' | '♧' => Suit::Clubs,
        _ => return None,
    })
}

impl Card {
    /// Parses one token such as `As`, `as`, `10h`, `Th` or `A♠`.
    pub fn parse(token: &str, position: usize) -> Result<Card, CardError> {
        // Fast path: two ASCII characters.
        if let &[r, s] = token.as_bytes() {
            let rank = ASCII_RANKS[r as usize & 127];
            let suit = ASCII_SUITS[s as usize & 127];
            if r < 128 && s < 128 && rank < 13 && suit < 4 {
                return Ok(Card(rank * 4 + suit));
            }
        }
        Card::parse_slow(token, position)
    }

    fn parse_slow(token: &str, position: usize) -> Result<Card, CardError> {
        let err = |reason| CardError { token: token.to_string(), position, reason };
        let suit_char = token.chars().last().ok_or_else(|| err("empty"))?;
        let rank_part = &token[..token.len() - suit_char.len_utf8()];
        if rank_part.is_empty() {
            return Err(err("a card is a rank followed by a suit, like As or 10h"));
        }
        let suit = parse_suit(suit_char).ok_or_else(|| err("unknown suit (use s, h, d, c or ♠ ♥ ♦ ♣)"))?;
        let rank = parse_rank(rank_part).ok_or_else(|| err("unknown rank (use 2-9, T or 10, J, Q, K, A)"))?;
        Ok(Card::new(rank, suit))
    }
}

/// Splits card text on whitespace and commas and parses every token.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| Card::parse(t, i + 1))
        .collect()
}

/// Canonical text of a list of cards: `Qh Qd 7c`.
pub fn display_cards(cards: &[Card]) -> String {
    let mut s = String::with_capacity(cards.len() * 3);
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&c.to_string());
    }
    s
}

/// A set of cards as a 52-bit mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

impl CardSet {
    pub fn new() -> CardSet {
        CardSet(0)
    }

    pub fn contains(self, card: Card) -> bool {
        self.0 & card.bit() != 0
    }

    /// Adds a card; false when it was already there.
    pub fn insert(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 |= card.bit();
        !had
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn bits(self) -> u64 {
        self.0
    }

    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Card(i))
        })
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut s = CardSet::new();
        for c in iter {
            s.insert(c);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_reads_the_same_card() {
        let ace_spades = Card::new(ACE, Suit::Spades);
        for t in ["As", "as", "AS", "aS", "A♠", "a♠"] {
            assert_eq!(Card::parse(t, 1).unwrap(), ace_spades, "{t}");
        }
        let ten_hearts = Card::new(TEN, Suit::Hearts);
        for t in ["Th", "th", "10h", "10H", "T♥", "10♥"] {
            assert_eq!(Card::parse(t, 1).unwrap(), ten_hearts, "{t}");
        }
    }

    #[test]
    fn separators_are_whitespace_and_commas() {
        let a = parse_cards("Qh Qd 7c").unwrap();
        let b = parse_cards("qh,qd,7c").unwrap();
        let c = parse_cards(" Q♥ , Q♦\t7♣ ").unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(display_cards(&a), "Qh Qd 7c");
    }

    #[test]
    fn display_round_trips_for_the_whole_deck() {
        for card in Card::deck() {
            assert_eq!(Card::parse(&card.to_string(), 1).unwrap(), card);
        }
        assert_eq!(Card::deck().count(), 52);
    }

    #[test]
    fn errors_name_the_token_and_its_position() {
        let e = parse_cards("Qh Qx 7c").unwrap_err();
        assert_eq!(e.token, "Qx");
        assert_eq!(e.position, 2);
        assert!(e.to_string().contains("\"Qx\" (card 2)"), "{e}");
        for bad in ["1h", "11h", "Zs", "A", "♠", "AsKs", "10"] {
            assert!(Card::parse(bad, 1).is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn card_set_counts_and_detects_repeats() {
        let mut set = CardSet::new();
        let c = Card::new(5, Suit::Clubs);
        assert!(set.insert(c));
        assert!(!set.insert(c));
        assert_eq!(set.len(), 1);
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![c]);
    }
}
