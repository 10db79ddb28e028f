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
    /// `pool` revision 1: each row is a pot; every seat tied for the best
    /// row collects 1 from each seat that is not.
    PoolTiesCollect,
    /// `pool` from revision 2 (seed 004): each row is a third of the pool,
    /// collected by the one seat with the best row (1 from every other
    /// seat); when seats tie for the best, no one collects it.
    Pool,
    /// `single-winner` revision 1: rows scored 1 each; only the seat with the
    /// highest total collects, from each seat it beat.
    SingleWinnerTopTotal,
    /// `single-winner` from revision 2 (seed 004): a seat that beats each
    /// other seat on at least two of the three rows is the one winner and
    /// collects the house's `winner_units` from each; otherwise no one wins.
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
    /// A side winning all three rows has its points multiplied by this
    /// (`vietnamese` revision 1).
    pub sweep_multiplier: i64,
    /// One more point to the side with the higher total.
    pub overall_point: bool,
    /// A row won in the middle with four of a kind or a straight flush is
    /// worth one more (the `higher_middle_payment` option).
    pub higher_middle_payment: bool,
}

const ROWS_PLAIN: RowPoints = RowPoints {
    row_won: &[],
    extras: &[],
    extras_on_wins_only: false,
    royalties: false,
    sweep_bonus: 0,
    sweep_multiplier: 1,
    overall_point: false,
    higher_middle_payment: false,
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
    /// `singapore` (seed 004): a dragon beats any other special and is paid
    /// its full value; otherwise the higher value is paid its full value and
    /// equal values (two 3-point specials, or two of one name) pay nothing.
    DragonBeatsAll,
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

/// Which open-face royalty table a table plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RoyaltyTable {
    /// RULES §5.4 (the table of seeds 002 and 003).
    #[default]
    Standard,
    /// Seed 001's table: front three of a kind 20 whatever the rank, no
    /// middle three-of-a-kind royalty, and no separate middle royal flush.
    FrontTrips20,
}

impl RoyaltyTable {
    pub const ALL: [RoyaltyTable; 2] = [RoyaltyTable::Standard, RoyaltyTable::FrontTrips20];

    pub fn name(self) -> &'static str {
        match self {
            RoyaltyTable::Standard => "standard",
            RoyaltyTable::FrontTrips20 => "front-trips-20",
        }
    }

    pub fn from_name(name: &str) -> Option<RoyaltyTable> {
        RoyaltyTable::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(name))
    }
}

/// Every option a ruleset may have, by the name it has in the `options`
/// JSON (`options::TableOptions` holds the values). Which ones a preset
/// takes is data on the preset (`Ruleset::options`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionKind {
    FantasylandEntry,
    ProgressiveFantasyland,
    DoubleDeck,
    ShootTheMoon,
    Tournament,
    FinalTable,
    RoyaltyTable,
    SweepBonus,
    OverallPoint,
    HigherMiddlePayment,
    Surrender,
    PoolSweep,
    NoPictures,
    SweepDoubleTriple,
    Dragon26,
    SmallCardsToTen,
    SweepAllDouble,
    AceOfSpadesDeals,
    WinnerUnits,
}

impl OptionKind {
    pub const ALL: [OptionKind; 19] = [
        OptionKind::FantasylandEntry,
        OptionKind::ProgressiveFantasyland,
        OptionKind::DoubleDeck,
        OptionKind::ShootTheMoon,
        OptionKind::Tournament,
        OptionKind::FinalTable,
        OptionKind::RoyaltyTable,
        OptionKind::SweepBonus,
        OptionKind::OverallPoint,
        OptionKind::HigherMiddlePayment,
        OptionKind::Surrender,
        OptionKind::PoolSweep,
        OptionKind::NoPictures,
        OptionKind::SweepDoubleTriple,
        OptionKind::Dragon26,
        OptionKind::SmallCardsToTen,
        OptionKind::SweepAllDouble,
        OptionKind::AceOfSpadesDeals,
        OptionKind::WinnerUnits,
    ];

    /// The option's name in the `options` JSON.
    pub fn name(self) -> &'static str {
        match self {
            OptionKind::FantasylandEntry => "fantasyland_entry",
            OptionKind::ProgressiveFantasyland => "progressive_fantasyland",
            OptionKind::DoubleDeck => "double_deck",
            OptionKind::ShootTheMoon => "shoot_the_moon",
            OptionKind::Tournament => "tournament",
            OptionKind::FinalTable => "final_table",
            OptionKind::RoyaltyTable => "royalty_table",
            OptionKind::SweepBonus => "sweep_bonus",
            OptionKind::OverallPoint => "overall_point",
            OptionKind::HigherMiddlePayment => "higher_middle_payment",
            OptionKind::Surrender => "surrender",
            OptionKind::PoolSweep => "pool_sweep",
            OptionKind::NoPictures => "no_pictures",
            OptionKind::SweepDoubleTriple => "sweep_double_triple",
            OptionKind::Dragon26 => "dragon_26",
            OptionKind::SmallCardsToTen => "small_cards_to_ten",
            OptionKind::SweepAllDouble => "sweep_all_double",
            OptionKind::AceOfSpadesDeals => "ace_of_spades_deals",
            OptionKind::WinnerUnits => "winner_units",
        }
    }

    pub fn from_name(name: &str) -> Option<OptionKind> {
        OptionKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The option in words, as a form shows it (docs/rules.md has the rule
    /// and its source).
    pub fn label(self) -> &'static str {
        match self {
            OptionKind::FantasylandEntry => "Lowest front pair entering fantasyland",
            OptionKind::ProgressiveFantasyland => "Progressive fantasyland (QQ 14 cards, KK 15, AA 16, trips 17)",
            OptionKind::DoubleDeck => "Two decks (five of a kind)",
            OptionKind::ShootTheMoon => "Shooting the moon (a jack-high back collects 20 from every seat)",
            OptionKind::Tournament => "Tournament rules (penalties, bust-out settlement)",
            OptionKind::FinalTable => "Final table of five (the button does not play)",
            OptionKind::RoyaltyTable => "Royalty table",
            OptionKind::SweepBonus => "Extra units for a sweep of three rows",
            OptionKind::OverallPoint => "Overall point (the net winner of a pair wins one more unit)",
            OptionKind::HigherMiddlePayment => "Four of a kind or straight flush in the middle is worth one more",
            OptionKind::Surrender => "Surrender allowed",
            OptionKind::PoolSweep => "A sweep also collects 3 from each other seat",
            OptionKind::NoPictures => "Units for a hand with no picture card (the house's number)",
            OptionKind::SweepDoubleTriple => "A sweep is paid double, a sweep of every opponent triple",
            OptionKind::Dragon26 => "The dragon wins 26",
            OptionKind::SmallCardsToTen => "Small cards are 2 to 10",
            OptionKind::SweepAllDouble => "A sweep of every opponent is paid double",
            OptionKind::AceOfSpadesDeals => "A dealer made to deal by the ace of spades is paid 1 by each opponent",
            OptionKind::WinnerUnits => "Units the one winner collects from each seat (the house's number)",
        }
    }

    /// What kind of value the option takes, for a form.
    pub fn input(self, rules: &Ruleset) -> OptionInput {
        match self {
            OptionKind::FantasylandEntry if rules.fantasyland_entry_aa => OptionInput::Choice(&["QQ", "KK", "AA"]),
            OptionKind::FantasylandEntry => OptionInput::Choice(&["QQ", "KK"]),
            OptionKind::RoyaltyTable => OptionInput::Choice(&["standard", "front-trips-20"]),
            OptionKind::SweepBonus => OptionInput::Choice(&["", "1", "3"]),
            OptionKind::NoPictures | OptionKind::WinnerUnits => OptionInput::Units,
            _ => OptionInput::Flag,
        }
    }
}

/// The value an option takes, as a form asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionInput {
    /// On or off.
    Flag,
    /// One of these names (the empty one: off).
    Choice(&'static [&'static str]),
    /// A whole number of units set by the house (empty: off).
    Units,
}

/// Ace values for the aces side bet, by number of aces (0..=4).
pub const ACES_VALUES: [i64; 5] = [0, 1, 2, 6, 8];

/// One preset at one revision. A preset's numbers never change in place: a
/// change is a new revision, and the superseded one stays here as data so a
/// hand committed under it rescores to what was paid (`preset_at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruleset {
    pub name: &'static str,
    /// 1 for the definitions of before issue 14; each change adds one.
    pub revision: u32,
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
    /// The options a table playing this preset may set (`options`).
    pub options: &'static [OptionKind],
    /// Options without which the preset cannot be played (a number the
    /// seed does not give, which the house must set).
    pub required_options: &'static [OptionKind],
    /// Tournament rules bound what a seat wins as well as what it pays
    /// (seed 001: "players can only win or lose the chips they had").
    pub tournament_bounds_winnings: bool,
    /// Open-face player counts and discards are checked whether or not the
    /// showdown gives `options`.
    pub open_face_counts_always: bool,
    /// `fantasyland_entry` may be `"AA"` (seed 003: pineapple, double deck).
    pub fantasyland_entry_aa: bool,
}

impl Ruleset {
    pub fn special_value(&self, kind: SpecialKind) -> Option<i64> {
        self.specials.iter().find(|s| s.0 == kind).map(|s| s.1)
    }

    pub fn has_royalties(&self) -> bool {
        matches!(self.normal, NormalScoring::Rows(RowPoints { royalties: true, .. }))
    }

    /// Whether a table playing this preset may set `option`.
    pub fn takes(&self, option: OptionKind) -> bool {
        self.options.contains(&option)
    }

    /// The preset counts the overall point itself (`two-four`, `irrespective`).
    pub fn has_overall_point(&self) -> bool {
        matches!(self.normal, NormalScoring::Rows(RowPoints { overall_point: true, .. }))
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

/// The typical scale (seed 004, "Special Hands"): these replace the 1 for a
/// row won.
const TYPICAL_SCALE: &[RowValue] = &[
    rv(Front, Trips, 3),
    rv(Middle, FullHouse, 2),
    rv(Middle, Quads, 4),
    rv(Back, Quads, 4),
    rv(Middle, StraightFlush, 5),
    rv(Back, StraightFlush, 5),
];

/// The same hands as extra points over the row's 1 (two-four on rows won,
/// which is the typical scale; irrespective whether won or lost).
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

/// Seed 004, "Vietnamese Version": these replace the 1 for a row won.
const VIETNAMESE_SCALE: &[RowValue] = &[
    rv(Front, Trips, 3),
    rv(Middle, FullHouse, 2),
    rv(Back, Quads, 4),
    rv(Middle, Quads, 8),
    rv(Back, StraightFlush, 5),
    rv(Middle, StraightFlush, 10),
];

/// Seed 004, "Singapore Version": these replace the 1 for a row won.
const SINGAPORE_SCALE: &[RowValue] = &[
    rv(Front, Trips, 3),
    rv(Middle, FullHouse, 2),
    rv(Back, Quads, 4),
    rv(Middle, Quads, 8),
    rv(Back, StraightFlush, 7),
    rv(Middle, StraightFlush, 14),
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

const SINGAPORE_SPECIALS_1: &[(SpecialKind, i64)] =
    &[(S::SmallCardsToTen, 3), (S::SixPairs, 3), (S::ThreeStraights, 3), (S::ThreeFlushes, 3), (S::Dragon, 13)];

/// Seed 004: "Six and a half pairs, three straights, or three flushes each
/// worth 3 units as usual ... "small cards" ... 2 to 9 ... also wins 3 units".
const SINGAPORE_SPECIALS_2: &[(SpecialKind, i64)] =
    &[(S::SixPairs, 3), (S::ThreeStraights, 3), (S::ThreeFlushes, 3), (S::SmallCardsToNine, 3), (S::Dragon, 13)];

const VIETNAMESE_SPECIALS_1: &[(SpecialKind, i64)] = &[
    (S::ThreeStraights, 6),
    (S::ThreeFlushes, 6),
    (S::SixPairs, 6),
    (S::FivePairsTriple, 6),
    (S::Dragon, 24),
    (S::OneSuit, 26),
];

/// Seed 004, "Vietnamese Version", in the seed's order.
const VIETNAMESE_SPECIALS_2: &[(SpecialKind, i64)] = &[
    (S::ThreeStraights, 3),
    (S::ThreeFlushes, 3),
    (S::SixPairs, 3),
    (S::FivePairsTriple, 6),
    (S::Dragon, 13),
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

use OptionKind as O;

/// The open-face options of revision 1 (issue 8).
const OFC_OPTIONS_1: &[OptionKind] =
    &[O::FantasylandEntry, O::DoubleDeck, O::ShootTheMoon, O::Tournament, O::FinalTable];
const PINEAPPLE_OPTIONS_1: &[OptionKind] =
    &[O::FantasylandEntry, O::ProgressiveFantasyland, O::DoubleDeck, O::ShootTheMoon, O::Tournament, O::FinalTable];
const OFC_OPTIONS: &[OptionKind] =
    &[O::FantasylandEntry, O::DoubleDeck, O::ShootTheMoon, O::Tournament, O::FinalTable, O::RoyaltyTable];
const PINEAPPLE_OPTIONS: &[OptionKind] = &[
    O::FantasylandEntry,
    O::ProgressiveFantasyland,
    O::DoubleDeck,
    O::ShootTheMoon,
    O::Tournament,
    O::FinalTable,
    O::RoyaltyTable,
];

const BASE: Ruleset = Ruleset {
    name: "",
    revision: 1,
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
    options: &[],
    required_options: &[],
    tournament_bounds_winnings: false,
    open_face_counts_always: false,
    fantasyland_entry_aa: false,
};

const OFC_ROWS: RowPoints = RowPoints { royalties: true, sweep_bonus: 3, ..ROWS_PLAIN };

/// Every preset at its current revision, by its exact name (RULES §5).
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
        options: &[O::NoPictures],
        ..BASE
    },
    Ruleset {
        name: "simple",
        summary: "1 per row won; a foul pays 3; surrender pays 1; nothing else.",
        options: &[O::SweepBonus, O::OverallPoint, O::NoPictures],
        ..BASE
    },
    Ruleset {
        name: "typical",
        summary: "1 per row won, or the typical scale for a row won with a big hand; surrender 1; typical specials.",
        normal: NormalScoring::Rows(RowPoints { row_won: TYPICAL_SCALE, ..ROWS_PLAIN }),
        specials: TYPICAL_SPECIALS,
        special_vs_special: SpecialVsSpecial::LaterPaysFull,
        options: &[O::SweepBonus, O::OverallPoint, O::HigherMiddlePayment, O::NoPictures],
        ..BASE
    },
    Ruleset {
        name: "ofc",
        revision: 2,
        summary: "Open-face 1-6: 1 per row, 3 for a scoop, royalties; surrender is a declared foul; fantasyland.",
        normal: NormalScoring::Rows(OFC_ROWS),
        surrender: Surrender::DeclaredFoul,
        fantasyland: Some(FantasylandStay::Ofc),
        options: OFC_OPTIONS,
        tournament_bounds_winnings: true,
        open_face_counts_always: true,
        fantasyland_entry_aa: true,
        ..BASE
    },
    Ruleset {
        name: "ofc-pineapple",
        revision: 2,
        summary: "As ofc, for at most 3 players, with discards; fantasyland stays only on front trips or back quads or better.",
        normal: NormalScoring::Rows(OFC_ROWS),
        surrender: Surrender::DeclaredFoul,
        fantasyland: Some(FantasylandStay::Pineapple),
        discards: true,
        options: PINEAPPLE_OPTIONS,
        tournament_bounds_winnings: true,
        open_face_counts_always: true,
        fantasyland_entry_aa: true,
        ..BASE
    },
    Ruleset {
        name: "two-four",
        revision: 2,
        summary: "1 per row won, the typical scale for rows won with big hands, and the overall point to the higher total.",
        normal: NormalScoring::Rows(RowPoints {
            extras: EXTRAS_2_1_3_4,
            extras_on_wins_only: true,
            overall_point: true,
            ..ROWS_PLAIN
        }),
        surrender: Surrender::NotAllowed,
        options: &[O::SweepBonus, O::HigherMiddlePayment, O::Surrender, O::NoPictures],
        ..BASE
    },
    Ruleset {
        name: "sweep-bonus",
        revision: 2,
        summary: "1 per row won plus 3 for a sweep (a sweep is worth 6).",
        normal: NormalScoring::Rows(RowPoints { sweep_bonus: 3, ..ROWS_PLAIN }),
        surrender: Surrender::NotAllowed,
        options: &[O::OverallPoint, O::Surrender, O::NoPictures],
        ..BASE
    },
    Ruleset {
        name: "irrespective",
        revision: 2,
        summary: "1 per row won; extras counted whether the row wins or loses (front trips 2, middle full house 1, quads 3, straight flush 4); the overall point.",
        normal: NormalScoring::Rows(RowPoints {
            extras: EXTRAS_2_1_3_4,
            overall_point: true,
            ..ROWS_PLAIN
        }),
        surrender: Surrender::NotAllowed,
        options: &[O::SweepBonus, O::Surrender, O::NoPictures],
        ..BASE
    },
    Ruleset {
        name: "singapore",
        revision: 2,
        summary: "Singapore scale (front trips 3, middle full house 2, quads 4 back / 8 middle, straight flush 7 back / 14 middle); claims 3 each, small cards 2 to 9, dragon 13 beats any other.",
        normal: NormalScoring::Rows(RowPoints { row_won: SINGAPORE_SCALE, ..ROWS_PLAIN }),
        surrender: Surrender::NotAllowed,
        specials: SINGAPORE_SPECIALS_2,
        special_vs_special: SpecialVsSpecial::DragonBeatsAll,
        options: &[
            O::SweepBonus,
            O::OverallPoint,
            O::Surrender,
            O::NoPictures,
            O::Dragon26,
            O::SmallCardsToTen,
            O::SweepAllDouble,
            O::AceOfSpadesDeals,
        ],
        ..BASE
    },
    Ruleset {
        name: "vietnamese",
        revision: 2,
        summary: "Vietnamese scale (front trips 3, middle full house 2, quads 4 back / 8 middle, straight flush 5 back / 10 middle); specials 3, 3, 3, 6, 13, 26.",
        normal: NormalScoring::Rows(RowPoints { row_won: VIETNAMESE_SCALE, ..ROWS_PLAIN }),
        surrender: Surrender::NotAllowed,
        specials: VIETNAMESE_SPECIALS_2,
        special_vs_special: SpecialVsSpecial::LaterPaysFull,
        options: &[O::SweepBonus, O::OverallPoint, O::Surrender, O::NoPictures, O::SweepDoubleTriple],
        ..BASE
    },
    Ruleset {
        name: "malayan",
        summary: "Three players against the bank (dealer); the bank wins equal rows; Dobree's extras counted whether the row wins or loses; the long special schedule; no surrender.",
        normal: NormalScoring::Rows(RowPoints { extras: MALAYAN_EXTRAS, ..ROWS_PLAIN }),
        surrender: Surrender::NotAllowed,
        specials: MALAYAN_SPECIALS,
        structure: Structure::Bank,
        options: &[O::SweepBonus, O::OverallPoint, O::Surrender, O::NoPictures],
        ..BASE
    },
    Ruleset {
        name: "banker",
        revision: 2,
        summary: "Players against the dealer (the house): 1 per row won, the house wins equal rows.",
        surrender: Surrender::NotAllowed,
        structure: Structure::Bank,
        options: &[O::SweepBonus, O::OverallPoint, O::Surrender, O::NoPictures],
        ..BASE
    },
    Ruleset {
        name: "pool",
        revision: 2,
        summary: "Each seat puts 3 in a pool; the one best front, middle and back each collect a third (1 from every seat); a row tied for the best pays nothing.",
        normal: NormalScoring::Pool,
        surrender: Surrender::NotAllowed,
        options: &[O::PoolSweep],
        ..BASE
    },
    Ruleset {
        name: "single-winner",
        revision: 2,
        summary: "One winner: a seat that beats each other seat on at least two rows collects the house's winner_units from each; otherwise no one wins.",
        normal: NormalScoring::SingleWinner,
        surrender: Surrender::NotAllowed,
        options: &[O::WinnerUnits],
        required_options: &[O::WinnerUnits],
        ..BASE
    },
];

/// Revisions that a later one replaced, kept as data so that hands
/// committed under them rescore to what was paid. Revision 1 is each
/// preset as it was before issue 14.
pub static SUPERSEDED: &[Ruleset] = &[
    Ruleset {
        name: "ofc",
        summary: "Open-face 1-6: 1 per row, 3 for a scoop, royalties; surrender is a declared foul; fantasyland.",
        normal: NormalScoring::Rows(OFC_ROWS),
        surrender: Surrender::DeclaredFoul,
        fantasyland: Some(FantasylandStay::Ofc),
        options: OFC_OPTIONS_1,
        ..BASE
    },
    Ruleset {
        name: "ofc-pineapple",
        summary: "As ofc, with discards; fantasyland stays only on front trips or back quads or better.",
        normal: NormalScoring::Rows(OFC_ROWS),
        surrender: Surrender::DeclaredFoul,
        fantasyland: Some(FantasylandStay::Pineapple),
        discards: true,
        options: PINEAPPLE_OPTIONS_1,
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
        specials: SINGAPORE_SPECIALS_1,
        special_vs_special: SpecialVsSpecial::LaterPaysFull,
        ..BASE
    },
    Ruleset {
        name: "vietnamese",
        summary: "Mau binh: 1 per row won, doubled for winning all three rows (a foul pays 6); immediate-win specials; no surrender.",
        normal: NormalScoring::Rows(RowPoints { sweep_multiplier: 2, ..ROWS_PLAIN }),
        surrender: Surrender::NotAllowed,
        specials: VIETNAMESE_SPECIALS_1,
        special_vs_special: SpecialVsSpecial::LaterPaysFull,
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
        normal: NormalScoring::PoolTiesCollect,
        surrender: Surrender::NotAllowed,
        ..BASE
    },
    Ruleset {
        name: "single-winner",
        summary: "Rows scored 1 each; only the seat with the highest total collects, from each seat it beat; surrender 1.",
        normal: NormalScoring::SingleWinnerTopTotal,
        ..BASE
    },
];

pub const DEFAULT_PRESET: &str = "hawaiian-gardens";

/// The preset at its current revision.
pub fn preset(name: &str) -> Option<&'static Ruleset> {
    PRESETS.iter().find(|r| r.name == name)
}

/// The preset at `revision` (current or superseded); `None` for an unknown
/// name or revision.
pub fn preset_at(name: &str, revision: u32) -> Option<&'static Ruleset> {
    PRESETS.iter().chain(SUPERSEDED).find(|r| r.name == name && r.revision == revision)
}

/// The current revision of a preset (0 for an unknown name). Store it with
/// every committed hand and pass it back as `ruleset_revision` to rescore.
pub fn current_revision(name: &str) -> u32 {
    preset(name).map_or(0, |r| r.revision)
}

/// Every revision of a preset, oldest first (empty for an unknown name).
pub fn revisions(name: &str) -> Vec<u32> {
    let mut all: Vec<u32> = PRESETS.iter().chain(SUPERSEDED).filter(|r| r.name == name).map(|r| r.revision).collect();
    all.sort_unstable();
    all
}

/// Points a hand scores from a table of row values (`0` when not listed).
pub fn row_value(table: &[RowValue], row: Row, category: Category) -> i64 {
    table.iter().find(|v| v.row == row && v.category == category).map_or(0, |v| v.units)
}

/// `ofc` royalties (RULES §5.4) for one row of a hand that is not fouled.
pub fn royalty(row: Row, category: Category, top_rank: u8, royal: bool) -> i64 {
    royalty_in(RoyaltyTable::Standard, row, category, top_rank, royal)
}

/// Open-face royalties under `table` for one row of a hand that is not
/// fouled.
pub fn royalty_in(table: RoyaltyTable, row: Row, category: Category, top_rank: u8, royal: bool) -> i64 {
    let seed_001 = table == RoyaltyTable::FrontTrips20;
    match row {
        Row::Front => match category {
            Category::Pair if top_rank >= 4 => top_rank as i64 - 3, // 66 = 1 .. AA = 9
            Category::Trips if seed_001 => 20,                      // seed 001: "Three of a Kind: 20"
            Category::Trips => 10 + top_rank as i64,                // 222 = 10 .. AAA = 22
            _ => 0,
        },
        Row::Middle => match category {
            Category::Trips if seed_001 => 0,
            Category::Trips => 2,
            Category::Straight => 4,
            Category::Flush => 8,
            Category::FullHouse => 12,
            Category::Quads => 20,
            Category::StraightFlush if royal && !seed_001 => 50,
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
    fn every_superseded_revision_is_older_than_the_current_one() {
        for old in SUPERSEDED {
            let current = preset(old.name).expect("a superseded preset still exists");
            assert!(old.revision < current.revision, "{} {}", old.name, old.revision);
            assert_eq!(preset_at(old.name, old.revision), Some(old));
        }
        for r in PRESETS {
            assert_eq!(preset_at(r.name, r.revision), Some(r));
            assert_eq!(current_revision(r.name), r.revision);
            let all = revisions(r.name);
            assert_eq!(all.first(), Some(&1), "{}: revision 1 is kept", r.name);
            assert_eq!(all.last(), Some(&r.revision));
            assert_eq!(all.len() as u32, r.revision, "{}: no revision is missing", r.name);
            for o in r.required_options {
                assert!(r.takes(*o), "{} requires {:?} but does not take it", r.name, o);
            }
        }
        assert_eq!(current_revision("Simple"), 0);
        assert_eq!(preset_at("singapore", 3), None);
    }

    #[test]
    fn seed_001_royalty_table() {
        let t = RoyaltyTable::FrontTrips20;
        assert_eq!(royalty_in(t, Row::Front, Category::Trips, 0, false), 20); // 222
        assert_eq!(royalty_in(t, Row::Front, Category::Trips, 12, false), 20); // AAA
        assert_eq!(royalty_in(t, Row::Front, Category::Pair, 12, false), 9); // AA
        assert_eq!(royalty_in(t, Row::Middle, Category::Trips, 5, false), 0);
        assert_eq!(royalty_in(t, Row::Middle, Category::StraightFlush, 12, true), 30);
        assert_eq!(royalty_in(t, Row::Back, Category::StraightFlush, 12, true), 25);
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
