//! Special 13-card hands (RULES §6): what each one is and whether a seat's
//! cards make it.

use super::card::{Card, Rank, ACE, JACK, KING, QUEEN, TEN};
use super::eval::{Category, Strength3, Strength5};

/// Every special hand any preset uses. Names are the wire names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpecialKind {
    ThreeStraights,
    ThreeFlushes,
    ThreeStraightFlushes,
    TwelveOneColor,
    AllOneColor,
    SixPairs,
    FivePairsTriple,
    FourTriples,
    ThreeQuads,
    Dragon,
    OneSuit,
    AllSmall,
    AllBig,
    TwelvePictures,
    /// `singapore` revision 1: every card 2 to ten.
    SmallCardsToTen,
    /// `singapore` from revision 2 (seed 004): every card 2 to 9.
    SmallCardsToNine,
    /// The `no_pictures` option (seed 004): no jack, queen or king.
    NoPictures,
}

impl SpecialKind {
    pub const ALL: [SpecialKind; 17] = [
        SpecialKind::ThreeStraights,
        SpecialKind::ThreeFlushes,
        SpecialKind::ThreeStraightFlushes,
        SpecialKind::TwelveOneColor,
        SpecialKind::AllOneColor,
        SpecialKind::SixPairs,
        SpecialKind::FivePairsTriple,
        SpecialKind::FourTriples,
        SpecialKind::ThreeQuads,
        SpecialKind::Dragon,
        SpecialKind::OneSuit,
        SpecialKind::AllSmall,
        SpecialKind::AllBig,
        SpecialKind::TwelvePictures,
        SpecialKind::SmallCardsToNine,
        SpecialKind::SmallCardsToTen,
        SpecialKind::NoPictures,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SpecialKind::ThreeStraights => "three-straights",
            SpecialKind::ThreeFlushes => "three-flushes",
            SpecialKind::ThreeStraightFlushes => "three-straight-flushes",
            SpecialKind::TwelveOneColor => "twelve-one-color",
            SpecialKind::AllOneColor => "all-one-color",
            SpecialKind::SixPairs => "six-pairs",
            SpecialKind::FivePairsTriple => "five-pairs-triple",
            SpecialKind::FourTriples => "four-triples",
            SpecialKind::ThreeQuads => "three-quads",
            SpecialKind::Dragon => "dragon",
            SpecialKind::OneSuit => "one-suit",
            SpecialKind::AllSmall => "all-small",
            SpecialKind::AllBig => "all-big",
            SpecialKind::TwelvePictures => "twelve-pictures",
            SpecialKind::SmallCardsToTen | SpecialKind::SmallCardsToNine => "small-cards",
            SpecialKind::NoPictures => "no-pictures",
        }
    }

    /// The special of this name in `table` (two kinds share the name
    /// `small-cards`: the table decides which one a preset plays).
    pub fn from_name_in(name: &str, table: &[(SpecialKind, i64)]) -> Option<SpecialKind> {
        table.iter().map(|s| s.0).find(|k| k.name() == name)
    }

    /// Whether any preset has a special of this name.
    pub fn is_name(name: &str) -> bool {
        SpecialKind::ALL.iter().any(|k| k.name() == name)
    }

    /// What the hand is, in words (for the rules page and errors).
    pub fn description(self) -> &'static str {
        match self {
            SpecialKind::ThreeStraights => "back and middle are straights, front is a three-card straight",
            SpecialKind::ThreeFlushes => "back and middle are flushes, front is three cards of one suit",
            SpecialKind::ThreeStraightFlushes => "all three rows are straight flushes",
            SpecialKind::TwelveOneColor => "12 cards of one colour and 1 of the other",
            SpecialKind::AllOneColor => "all 13 cards red or all 13 black",
            SpecialKind::SixPairs => "six pairs and one odd card",
            SpecialKind::FivePairsTriple => "five pairs and a three of a kind",
            SpecialKind::FourTriples => "four threes of a kind and one odd card",
            SpecialKind::ThreeQuads => "three fours of a kind and one odd card",
            SpecialKind::Dragon => "one card of each rank",
            SpecialKind::OneSuit => "all 13 cards of one suit",
            SpecialKind::AllSmall => "every card 2 to 8",
            SpecialKind::AllBig => "every card 8 to ace",
            SpecialKind::TwelvePictures => "all 12 picture cards and any 13th card",
            SpecialKind::SmallCardsToTen => "every card 2 to ten (no picture cards, no aces)",
            SpecialKind::SmallCardsToNine => "every card 2 to 9",
            SpecialKind::NoPictures => "no picture card (no jack, queen or king)",
        }
    }

    /// Specials that depend on how the rows are set.
    pub fn needs_rows(self) -> bool {
        matches!(self, SpecialKind::ThreeStraights | SpecialKind::ThreeFlushes | SpecialKind::ThreeStraightFlushes)
    }
}

/// A seat's rows, evaluated.
#[derive(Clone, Copy, Debug)]
pub struct SetRows<'a> {
    pub front: &'a [Card; 3],
    pub middle: &'a [Card; 5],
    pub back: &'a [Card; 5],
    pub front_strength: Strength3,
    pub middle_strength: Strength5,
    pub back_strength: Strength5,
}

impl<'a> SetRows<'a> {
    pub fn of(front: &'a [Card; 3], middle: &'a [Card; 5], back: &'a [Card; 5]) -> SetRows<'a> {
        SetRows {
            front,
            middle,
            back,
            front_strength: super::eval::eval3(front),
            middle_strength: super::eval::eval5_multi(middle),
            back_strength: super::eval::eval5_multi(back),
        }
    }
}

fn rank_counts(cards: &[Card]) -> [u8; 13] {
    let mut counts = [0u8; 13];
    for c in cards {
        counts[c.rank() as usize] += 1;
    }
    counts
}

/// Top rank of a three-card straight (`A 2 3` tops at 3, `Q K A` at the ace).
pub fn three_card_straight_top(front: &[Card; 3]) -> Option<Rank> {
    let mut r = front.map(|c| c.rank());
    r.sort_unstable();
    if r[0] + 1 == r[1] && r[1] + 1 == r[2] {
        Some(r[2])
    } else if r == [0, 1, ACE] {
        Some(1)
    } else {
        None
    }
}

fn is_straight(s: Strength5) -> bool {
    matches!(s.category(), Category::Straight | Category::StraightFlush)
}

fn is_flush(s: Strength5) -> bool {
    matches!(s.category(), Category::Flush | Category::StraightFlush)
}

fn front_suited(front: &[Card; 3]) -> bool {
    front[0].suit() == front[1].suit() && front[1].suit() == front[2].suit()
}

/// Whether the 13 cards (and, for arrangement specials, the rows) make `kind`.
pub fn qualifies(kind: SpecialKind, cards: &[Card; 13], rows: Option<&SetRows>) -> bool {
    let counts = rank_counts(cards);
    let reds = cards.iter().filter(|c| c.is_red()).count();
    match kind {
        SpecialKind::ThreeStraights => rows.is_some_and(|r| {
            is_straight(r.middle_strength) && is_straight(r.back_strength) && three_card_straight_top(r.front).is_some()
        }),
        SpecialKind::ThreeFlushes => {
            rows.is_some_and(|r| is_flush(r.middle_strength) && is_flush(r.back_strength) && front_suited(r.front))
        }
        SpecialKind::ThreeStraightFlushes => rows.is_some_and(|r| {
            r.middle_strength.category() == Category::StraightFlush
                && r.back_strength.category() == Category::StraightFlush
                && front_suited(r.front)
                && three_card_straight_top(r.front).is_some()
        }),
        SpecialKind::TwelveOneColor => reds == 12 || reds == 1,
        SpecialKind::AllOneColor => reds == 13 || reds == 0,
        SpecialKind::SixPairs => counts.iter().map(|&c| c / 2).sum::<u8>() == 6,
        SpecialKind::FivePairsTriple => {
            let odd: Vec<u8> = counts.iter().copied().filter(|c| c % 2 == 1).collect();
            odd == [3]
        }
        SpecialKind::FourTriples => counts.iter().filter(|&&c| c >= 3).count() == 4,
        SpecialKind::ThreeQuads => counts.iter().filter(|&&c| c == 4).count() == 3,
        SpecialKind::Dragon => counts.iter().all(|&c| c == 1),
        SpecialKind::OneSuit => cards.iter().all(|c| c.suit() == cards[0].suit()),
        SpecialKind::AllSmall => cards.iter().all(|c| c.rank() <= 6),
        SpecialKind::AllBig => cards.iter().all(|c| c.rank() >= 6),
        SpecialKind::TwelvePictures => [JACK, QUEEN, KING].iter().all(|&r| counts[r as usize] == 4),
        SpecialKind::SmallCardsToTen => cards.iter().all(|c| c.rank() <= TEN),
        SpecialKind::SmallCardsToNine => cards.iter().all(|c| c.rank() < TEN),
        SpecialKind::NoPictures => cards.iter().all(|c| !matches!(c.rank(), JACK | QUEEN | KING)),
    }
}

/// Tie-break key between two specials of the same name (`typical` and the
/// presets that compare like it): larger is better, equal pushes.
pub fn same_name_key(kind: SpecialKind, cards: &[Card; 13], rows: Option<&SetRows>) -> Vec<u32> {
    match kind {
        SpecialKind::SixPairs => {
            let counts = rank_counts(cards);
            let mut key: Vec<u32> = Vec::with_capacity(7);
            for r in (0..13).rev() {
                for _ in 0..counts[r] / 2 {
                    key.push(r as u32);
                }
            }
            let odd = (0..13).rev().find(|&r| counts[r] % 2 == 1).unwrap_or(0);
            key.push(odd as u32);
            key
        }
        SpecialKind::ThreeStraights | SpecialKind::ThreeFlushes | SpecialKind::ThreeStraightFlushes => {
            let Some(r) = rows else { return Vec::new() };
            let (hi, lo) = if r.back_strength >= r.middle_strength {
                (r.back_strength, r.middle_strength)
            } else {
                (r.middle_strength, r.back_strength)
            };
            let front = if kind == SpecialKind::ThreeFlushes {
                r.front_strength.0 as u32
            } else {
                three_card_straight_top(r.front).unwrap_or(0) as u32
            };
            vec![hi.0 as u32, lo.0 as u32, front]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::card::parse_cards;

    fn thirteen(s: &str) -> [Card; 13] {
        parse_cards(s).unwrap().try_into().unwrap()
    }

    #[test]
    fn card_only_specials() {
        let dragon = thirteen("2c 3d 4h 5s 6c 7d 8h 9s Tc Jc Qs Kd Ac");
        assert!(qualifies(SpecialKind::Dragon, &dragon, None));
        assert!(!qualifies(SpecialKind::SixPairs, &dragon, None));
        let six = thirteen("2c 2d 4h 4s 6c 6d 8h 8s Tc Td Qs Qd Ac");
        assert!(qualifies(SpecialKind::SixPairs, &six, None));
        let quads_as_pairs = thirteen("2c 2d 2h 2s 6c 6d 8h 8s Tc Td Qs Qd Ac");
        assert!(qualifies(SpecialKind::SixPairs, &quads_as_pairs, None));
        let five_and_trip = thirteen("2c 2d 2h 4s 4c 6d 6h 8s 8c Td Ts Qd Qc");
        assert!(qualifies(SpecialKind::FivePairsTriple, &five_and_trip, None));
        // three of a kind counts as one pair and the odd card (RULES §6)
        assert!(qualifies(SpecialKind::SixPairs, &five_and_trip, None));
        let one_suit = thirteen("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah");
        for k in [SpecialKind::OneSuit, SpecialKind::Dragon, SpecialKind::AllOneColor] {
            assert!(qualifies(k, &one_suit, None), "{k:?}");
        }
        let pictures = thirteen("Jh Jd Jc Js Qh Qd Qc Qs Kh Kd Kc Ks 2c");
        assert!(qualifies(SpecialKind::TwelvePictures, &pictures, None));
        assert!(qualifies(SpecialKind::ThreeQuads, &pictures, None));
        assert!(qualifies(SpecialKind::FourTriples, &thirteen("2h 2d 2c 5s 5h 5d 9c 9s 9h Kd Kc Ks Ah"), None));
        assert!(qualifies(SpecialKind::AllSmall, &thirteen("2h 2d 2c 3s 3h 4d 4c 5s 6h 7d 7c 8s 8h"), None));
        assert!(qualifies(SpecialKind::AllBig, &thirteen("8h 8d 9c 9s Th Td Jc Js Qh Kd Kc As Ah"), None));
        assert!(qualifies(SpecialKind::TwelveOneColor, &thirteen("2h 3h 4h 5h 6h 7h 8d 9d Td Jd Qd Kd As"), None));
        // seed 004, Singapore: "all 13 cards must be in the range 2 to 9 (or
        // according to some players 2 to 10)"
        let to_nine = thirteen("2h 3h 4h 5h 6h 7h 8h 9h 2c 3c 4c 5c 9d");
        let with_ten = thirteen("2h 3h 4h 5h 6h 7h 8h 9h 2c 3c 4c 5c Td");
        assert!(qualifies(SpecialKind::SmallCardsToNine, &to_nine, None));
        assert!(!qualifies(SpecialKind::SmallCardsToNine, &with_ten, None));
        assert!(qualifies(SpecialKind::SmallCardsToTen, &with_ten, None));
        // "a hand containing no pictures": aces and tens are not pictures
        assert!(qualifies(SpecialKind::NoPictures, &thirteen("Ah As Ad Ac Th Ts 2d 3c 4h 5s 6d 7c 8h"), None));
        assert!(!qualifies(SpecialKind::NoPictures, &thirteen("Ah As Ad Ac Th Ts 2d 3c 4h 5s 6d 7c Jh"), None));
    }

    #[test]
    fn three_card_straights_include_the_wheel_and_the_top() {
        let f = |s: &str| -> [Card; 3] { parse_cards(s).unwrap().try_into().unwrap() };
        assert_eq!(three_card_straight_top(&f("Ah 2d 3c")), Some(1));
        assert_eq!(three_card_straight_top(&f("Qh Kd Ac")), Some(ACE));
        assert_eq!(three_card_straight_top(&f("Kh Ad 2c")), None);
    }
}
