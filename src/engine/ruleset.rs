//! House rulesets and their presets (RULES §5). Each preset is data: the
//! scoring engine reads these tables and never matches on a preset's name.

use super::eval::Category;
use super::special::SpecialKind;

/// The three rows of a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Row {
    Front = 0,
    Middle = 1,
    Back = 2,
}

impl Row {
    pub const ALL: [Row; 3] = [Row::Front, Row::Middle, Row::Back];

    pub fn name(self) -> &'static str {
        match self {
            Row::Front => "front",
            Row::Middle => "middle",
            Row::Back => "back",
        }
    }
}

/// Units tied to a row's hand: `(row, category, units)`; a royal flush is
/// written as a straight flush unless `royal` gives it its own value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowValue {
    pub row: Row,
    pub category: Category,
    pub units: i64,
}

const fn rv(row: Row, category: Category, units: i64) -> RowValue {
    RowValue { row, category, units }
}

/// How a pair's normal outcome (rows compared, fouls included) is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormalScoring {
    /// `hawaiian-gardens`: 6 for a sweep (9 for a sweep of the table), else 1
    /// to the seat winning more rows; `bonuses` paid on rows won.
    HawaiianGardens { bonuses: &'static [RowValue] },
    /// Per-row points, summed for each side; the pair pays the difference.
    Rows(RowPoints),
    /// `pool`: each row is a pot won by the best row at the table.
    Pool,
    /// `single-winner`: rows scored 1 each; only the seat with the highest
    /// total collects, from each seat it beat.
    SingleWinner,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowPoints {
    /// Points for a row won, by the winning hand (replaces the 1).
    pub row_won: &'static [RowValue],
    /// Extra points for a hand in a row.
    pub extras: &'static [RowValue],
    /// Extras count only on rows won (`false`: whether the row wins or loses).
    pub extras_on_wins_only: bool,
    /// The `ofc` royalty table is added as extras.
    pub royalties: bool,
    /// Added to a side that wins all three rows.
    pub sweep_bonus: i64,
    /// A side winning all three rows has its points multiplied by this.
    pub sweep_multiplier: i64,
    /// One more point to the side with the higher total.
    pub overall_point: bool,
}

const ROWS_PLAIN: RowPoints = RowPoints {
    row_won: &[],
    extras: &[],
    extras_on_wins_only: false,
    royalties: false,
    sweep_bonus: 0,
    sweep_multiplier: 1,
    overall_point: false,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surrender {
    NotAllowed,
    /// The surrendering seat pays this to each opponent that did not surrender.
    Pays(i64),
    /// `ofc`: a surrender is a declared foul.
    DeclaredFoul,
}

/// Special against special.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialVsSpecial {
    /// The lower value pays the difference; equal values push.
    Difference,
    /// The special later in the schedule is paid its own full value; two of
    /// the same name are compared by their cards (RULES §5.3).
    LaterPaysFull,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// Every pair of seats settles.
    AllPairs,
    /// Only dealer–player pairs settle; the dealer (bank) wins equal rows.
    Bank,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FantasylandStay {
    /// `ofc`: front trips, middle full house or better, back quads or better.
    Ofc,
    /// `ofc-pineapple`: front trips or back quads or better.
    Pineapple,
}

/// Ace values for the aces side bet, by number of aces (0..=4).
pub const ACES_VALUES: [i64; 5] = [0, 1, 2, 6, 8];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruleset {
    pub name: &'static str,
    pub summary: &'static str,
    pub normal: NormalScoring,
    pub surrender: Surrender,
    /// In ascending order; `best` prefers the later of equal values.
    pub specials: &'static [(SpecialKind, i64)],
    pub special_vs_special: SpecialVsSpecial,
    pub structure: Structure,
    pub aces_bet: bool,
    /// `hawaiian-gardens`' bad-beat jackpot trigger.
    pub bad_beat: bool,
    pub fantasyland: Option<FantasylandStay>,
    /// `ofc-pineapple`: seats may list discards.
    pub discards: bool,
    /// A sweep of the whole table pays this instead of the sweep (hawaiian-gardens).
    pub table_sweep: Option<i64>,
}

impl Ruleset {
    pub fn special_value(&self, kind: SpecialKind) -> Option<i64> {
        self.specials.iter().find(|s| s.0 == kind).map(|s| s.1)
    }

    pub fn has_royalties(&self) -> bool {
        matches!(self.normal, NormalScoring::Rows(RowPoints { royalties: true, .. }))
    }
}

use Category::*;
use Row::*;

const HG_BONUSES: &[RowValue] = &[
    rv(Front, Trips, 3),
    rv(Middle, FullHouse, 2),
    rv(Middle, Quads, 8),
    rv(Middle, StraightFlush, 10),
    rv(Back, Quads, 4),
    rv(Back, StraightFlush, 5),
];

/// The typical scale: these replace the 1 for a row won.
const TYPICAL_SCALE: &[RowValue] = &[
    rv(Front, Trips, 3),
    rv(Middle, FullHouse, 2),
    rv(Middle, Quads, 4),
    rv(Back, Quads, 4),
    rv(Middle, StraightFlush, 5),
    rv(Back, StraightFlush, 5),
];

/// The same hands as extra points over the row's 1 (two-four, irrespective).
const EXTRAS_2_1_3_4: &[RowValue] = &[
    rv(Front, Trips, 2),
    rv(Middle, FullHouse, 1),
    rv(Middle, Quads, 3),
    rv(Back, Quads, 3),
    rv(Middle, StraightFlush, 4),
    rv(Back, StraightFlush, 4),
];

/// Dobree's Malayan extras, counted whether the row wins or loses.
const MALAYAN_EXTRAS: &[RowValue] = &[
    rv(Front, Trips, 2),
    rv(Middle, FullHouse, 2),
    rv(Middle, Quads, 6),
    rv(Middle, StraightFlush, 8),
    rv(Back, Quads, 4),
    rv(Back, StraightFlush, 6),
];

use SpecialKind as S;

const HG_SPECIALS: &[(SpecialKind, i64)] = &[
    (S::ThreeStraights, 4),
    (S::ThreeFlushes, 4),
    (S::TwelveOneColor, 4),
    (S::SixPairs, 4),
    (S::AllOneColor, 6),
    (S::Dragon, 13),
    (S::OneSuit, 39),
];

const TYPICAL_SPECIALS: &[(SpecialKind, i64)] =
    &[(S::SixPairs, 3), (S::ThreeStraights, 3), (S::ThreeFlushes, 3), (S::Dragon, 13)];

const SINGAPORE_SPECIALS: &[(SpecialKind, i64)] =
    &[(S::SmallCards, 3), (S::SixPairs, 3), (S::ThreeStraights, 3), (S::ThreeFlushes, 3), (S::Dragon, 13)];

const VIETNAMESE_SPECIALS: &[(SpecialKind, i64)] = &[
    (S::ThreeStraights, 6),
    (S::ThreeFlushes, 6),
    (S::SixPairs, 6),
    (S::FivePairsTriple, 6),
    (S::Dragon, 24),
    (S::OneSuit, 26),
];

const MALAYAN_SPECIALS: &[(SpecialKind, i64)] = &[
    (S::ThreeFlushes, 3),
    (S::ThreeStraights, 4),
    (S::SixPairs, 4),
    (S::FivePairsTriple, 5),
    (S::FourTriples, 6),
    (S::AllOneColor, 10),
    (S::AllSmall, 10),
    (S::AllBig, 10),
    (S::ThreeQuads, 16),
    (S::ThreeStraightFlushes, 18),
    (S::TwelvePictures, 18),
    (S::OneSuit, 26),
];

const BASE: Ruleset = Ruleset {
    name: "",
    summary: "",
    normal: NormalScoring::Rows(ROWS_PLAIN),
    surrender: Surrender::Pays(1),
    specials: &[],
    special_vs_special: SpecialVsSpecial::Difference,
    structure: Structure::AllPairs,
    aces_bet: false,
    bad_beat: false,
    fantasyland: None,
    discards: false,
    table_sweep: None,
};

const OFC_ROWS: RowPoints = RowPoints { royalties: true, sweep_bonus: 3, ..ROWS_PLAIN };

/// Every preset, by its exact name (RULES §5).
pub static PRESETS: &[Ruleset] = &[
    Ruleset {
        name: "hawaiian-gardens",
        summary: "The house default: sweep 6 (9 for a sweep of the table), else 1; position bonuses; surrender 3; aces side bet; specials; bad-beat jackpot.",
        normal: NormalScoring::HawaiianGardens { bonuses: HG_BONUSES },
        surrender: Surrender::Pays(3),
        specials: HG_SPECIALS,
        aces_bet: true,
        bad_beat: true,
        table_sweep: Some(9),
        ..BASE
    },
    Ruleset {
        name: "simple",
        summary: "1 per row won; a foul pays 3; surrender pays 1; nothing else.",
        ..BASE
    },
    Ruleset {
        name: "typical",
        summary: "1 per row won, or the typical scale for a row won with a big hand; surrender 1; typical specials.",
        normal: NormalScoring::Rows(RowPoints { row_won: TYPICAL_SCALE, ..ROWS_PLAIN }),
        specials: TYPICAL_SPECIALS,
        special_vs_special: SpecialVsSpecial::LaterPaysFull,
        ..BASE
    },
    Ruleset {
        name: "ofc",
        summary: "Open-face 1-6: 1 per row, 3 for a scoop, royalties; surrender is a declared foul; fantasyland.",
        normal: NormalScoring::Rows(OFC_ROWS),
        surrender: Surrender::DeclaredFoul,
        fantasyland: Some(FantasylandStay::Ofc),
        ..BASE
    },
    Ruleset {
        name: "ofc-pineapple",
        summary: "As ofc, with discards; fantasyland stays only on front trips or back quads or better.",
        normal: NormalScoring::Rows(OFC_ROWS),
        surrender: Surrender::DeclaredFoul,
        fantasyland: Some(FantasylandStay::Pineapple),
        discards: true,
        ..BASE
    },
    Ruleset {
        name: "two-four",
        summary: "2-4 scoring: 1 per row won plus extras on rows won, and the overall point to the higher total; surrender 2.",
        normal: NormalScoring::Rows(RowPoints {
            extras: EXTRAS_2_1_3_4,
            extras_on_wins_only: true,
            overall_point: true,
            ..ROWS_PLAIN
        }),
        surrender: Surrender::Pays(2),
        ..BASE
    },
    Ruleset {
        name: "sweep-bonus",
        summary: "1 per row won plus 3 for a sweep (a sweep is worth 6); surrender 1.",
        normal: NormalScoring::Rows(RowPoints { sweep_bonus: 3, ..ROWS_PLAIN }),
        ..BASE
    },
    Ruleset {
        name: "irrespective",
        summary: "1 per row won; extras counted whether the row wins or loses (front trips 2, middle full house 1, quads 3, straight flush 4); the overall point; surrender 2.",
        normal: NormalScoring::Rows(RowPoints {
            extras: EXTRAS_2_1_3_4,
            overall_point: true,
            ..ROWS_PLAIN
        }),
        surrender: Surrender::Pays(2),
        ..BASE
    },
    Ruleset {
        name: "singapore",
        summary: "The typical scale and specials, plus the small-cards special (no card above ten).",
        normal: NormalScoring::Rows(RowPoints { row_won: TYPICAL_SCALE, ..ROWS_PLAIN }),
        specials: SINGAPORE_SPECIALS,
        special_vs_special: SpecialVsSpecial::LaterPaysFull,
        ..BASE
    },
    Ruleset {
        name: "vietnamese",
        summary: "Mau binh: 1 per row won, doubled for winning all three rows (a foul pays 6); immediate-win specials; no surrender.",
        normal: NormalScoring::Rows(RowPoints { sweep_multiplier: 2, ..ROWS_PLAIN }),
        surrender: Surrender::NotAllowed,
        specials: VIETNAMESE_SPECIALS,
        special_vs_special: SpecialVsSpecial::LaterPaysFull,
        ..BASE
    },
    Ruleset {
        name: "malayan",
        summary: "Three players against the bank (dealer); the bank wins equal rows; Dobree's extras counted whether the row wins or loses; the long special schedule; no surrender.",
        normal: NormalScoring::Rows(RowPoints { extras: MALAYAN_EXTRAS, ..ROWS_PLAIN }),
        surrender: Surrender::NotAllowed,
        specials: MALAYAN_SPECIALS,
        structure: Structure::Bank,
        ..BASE
    },
    Ruleset {
        name: "banker",
        summary: "Players against the dealer; the house wins equal rows; typical scale and specials; surrender 1.",
        normal: NormalScoring::Rows(RowPoints { row_won: TYPICAL_SCALE, ..ROWS_PLAIN }),
        specials: TYPICAL_SPECIALS,
        special_vs_special: SpecialVsSpecial::LaterPaysFull,
        structure: Structure::Bank,
        ..BASE
    },
    Ruleset {
        name: "pool",
        summary: "Each row is a pot: the best row at the table collects 1 from every seat whose row is not best; no surrender.",
        normal: NormalScoring::Pool,
        surrender: Surrender::NotAllowed,
        ..BASE
    },
    Ruleset {
        name: "single-winner",
        summary: "Rows scored 1 each; only the seat with the highest total collects, from each seat it beat; surrender 1.",
        normal: NormalScoring::SingleWinner,
        ..BASE
    },
];

pub const DEFAULT_PRESET: &str = "hawaiian-gardens";

pub fn preset(name: &str) -> Option<&'static Ruleset> {
    PRESETS.iter().find(|r| r.name == name)
}

/// Points a hand scores from a table of row values (`0` when not listed).
pub fn row_value(table: &[RowValue], row: Row, category: Category) -> i64 {
    table.iter().find(|v| v.row == row && v.category == category).map_or(0, |v| v.units)
}

/// `ofc` royalties for one row of a hand that is not fouled.
pub fn royalty(row: Row, category: Category, top_rank: u8, royal: bool) -> i64 {
    match row {
        Row::Front => match category {
            Category::Pair if top_rank >= 4 => top_rank as i64 - 3, // 66 = 1 .. AA = 9
            Category::Trips => 10 + top_rank as i64,                // 222 = 10 .. AAA = 22
            _ => 0,
        },
        Row::Middle => match category {
            Category::Trips => 2,
            Category::Straight => 4,
            Category::Flush => 8,
            Category::FullHouse => 12,
            Category::Quads => 20,
            Category::StraightFlush if royal => 50,
            Category::StraightFlush => 30,
            _ => 0,
        },
        Row::Back => match category {
            Category::Straight => 2,
            Category::Flush => 4,
            Category::FullHouse => 6,
            Category::Quads => 10,
            Category::StraightFlush if royal => 25,
            Category::StraightFlush => 15,
            _ => 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_named_in_the_rules_exists() {
        for name in [
            "hawaiian-gardens",
            "simple",
            "typical",
            "ofc",
            "ofc-pineapple",
            "two-four",
            "sweep-bonus",
            "irrespective",
            "singapore",
            "vietnamese",
            "malayan",
            "banker",
            "pool",
            "single-winner",
        ] {
            assert_eq!(preset(name).map(|r| r.name), Some(name));
        }
        assert_eq!(PRESETS.len(), 14);
        assert!(preset("Simple").is_none());
    }

    #[test]
    fn ofc_royalty_table() {
        assert_eq!(royalty(Row::Front, Category::Pair, 4, false), 1); // 66
        assert_eq!(royalty(Row::Front, Category::Pair, 10, false), 7); // QQ
        assert_eq!(royalty(Row::Front, Category::Pair, 12, false), 9); // AA
        assert_eq!(royalty(Row::Front, Category::Pair, 3, false), 0); // 55
        assert_eq!(royalty(Row::Front, Category::Trips, 0, false), 10); // 222
        assert_eq!(royalty(Row::Front, Category::Trips, 12, false), 22); // AAA
        assert_eq!(royalty(Row::Middle, Category::StraightFlush, 12, true), 50);
        assert_eq!(royalty(Row::Back, Category::Flush, 11, false), 4);
    }
}
