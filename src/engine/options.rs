//! Table options: every "some play" rule of the seeds, as data on a table's
//! ruleset version (issue 14), and the open-face table play of issue 8
//! (fantasyland entry and progressive fantasyland, double deck, shooting
//! the moon, tournament rules, the final table of five). The engine takes
//! them as the showdown's optional `options` object; which options a preset
//! may have is data on the preset (`Ruleset::options`). Everything here is
//! pure and table-driven.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::card::{ACE, KING, QUEEN};
use super::eval::{Category, Strength3};
use super::ruleset::{NormalScoring, OptionKind, RowPoints, RoyaltyTable, Ruleset, Surrender, PRESETS};
use super::special::SpecialKind;

/// The lowest front pair that enters fantasyland.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum FantasylandEntry {
    #[default]
    QQ,
    KK,
    /// Seed 003 (machine-reworded): "Some gamers counsel AA+ at the least
    /// requirement" (pineapple, double deck).
    AA,
}

impl FantasylandEntry {
    pub fn rank(self) -> u8 {
        match self {
            FantasylandEntry::QQ => QUEEN,
            FantasylandEntry::KK => KING,
            FantasylandEntry::AA => ACE,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FantasylandEntry::QQ => "QQ",
            FantasylandEntry::KK => "KK",
            FantasylandEntry::AA => "AA",
        }
    }
}

/// The options of a table. The default is the plain preset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableOptions {
    pub fantasyland_entry: FantasylandEntry,
    /// Pineapple: QQ 14 cards, KK 15, AA 16, trips 17.
    pub progressive_fantasyland: bool,
    /// Two decks: up to two of each card; five of a kind.
    pub double_deck: bool,
    /// A jack-high back without a foul collects 20 from every other seat.
    pub shoot_the_moon: bool,
    /// Penalties and bust-out settlement in seat order from position 1.
    pub tournament: bool,
    /// Five seats; the button seat does not play.
    pub final_table: bool,
    /// The open-face royalty table (seed 001's, or RULES §5.4's).
    pub royalty_table: RoyaltyTable,
    /// Seed 004: a seat winning all three rows against another is paid an
    /// extra 1 (or 3).
    pub sweep_bonus: Option<i64>,
    /// Seed 004: the net winner of a pair wins one more unit.
    pub overall_point: bool,
    /// Seed 004: four of a kind or a straight flush won in the middle is
    /// worth one more.
    pub higher_middle_payment: bool,
    /// Seed 004: a seat may surrender and pays as though it lost two rows of
    /// three (1, or 2 with the overall point); with a banker, only to and
    /// from the banker.
    pub surrender: bool,
    /// Seed 004 (`pool`): a seat winning all three rows also collects 3
    /// from each other seat.
    pub pool_sweep: bool,
    /// Seed 004: a hand with no picture card is a special worth this many
    /// units (the house's number; the seed gives none).
    pub no_pictures: Option<i64>,
    /// Seed 004 (`vietnamese`): a sweep is paid double, a sweep of every
    /// opponent triple.
    pub sweep_double_triple: bool,
    /// Seed 004 (`singapore`): the dragon wins 26 instead of 13.
    pub dragon_26: bool,
    /// Seed 004 (`singapore`): small cards are 2 to 10 instead of 2 to 9.
    pub small_cards_to_ten: bool,
    /// Seed 004 (`singapore`): a seat winning all three rows against every
    /// opponent is paid double.
    pub sweep_all_double: bool,
    /// Seed 004 (`singapore`): a dealer made to deal because it held the
    /// ace of spades is paid 1 by each opponent (showdown field
    /// `ace_of_spades_dealer`).
    pub ace_of_spades_deals: bool,
    /// `single-winner`: what the one winner collects from each other seat
    /// (the house's number; the seed gives none).
    pub winner_units: Option<i64>,
}

/// Units a seat collects from every other seat when it shoots the moon.
pub const MOON_UNITS: i64 = 20;
/// Cards a seat places in a hand (three rows).
pub const PLACED: usize = 13;
/// Cards a pineapple seat sees outside fantasyland: 5, then 4 rounds of 3.
pub const PINEAPPLE_CARDS: usize = 17;
/// Seed 004: "paid an extra 1 unit (or sometimes 3 units) for a sweep".
pub const SWEEP_BONUSES: [i64; 2] = [1, 3];
/// Seed 004: "each of the other players has to pay them an additional 3 units".
pub const POOL_SWEEP_UNITS: i64 = 3;
/// Seed 004: "is paid 1 unit compensation by each opponent".
pub const ACE_OF_SPADES_UNITS: i64 = 1;
/// The most units a house may set for a number the seed does not give.
pub const MAX_HOUSE_UNITS: i64 = 1000;

/// A penalty recorded by the floor against a seat (tournament rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Penalty {
    /// A card turned before its turn: 1 to each active player.
    EarlyCard,
    /// A missed turn: 3 to each active player; the seat pays no royalties
    /// and takes no chips from penalised players.
    MissedTurn,
    /// A hand declared dead when time is called: the full foul plus royalties.
    DeadHand,
}

impl Penalty {
    pub const ALL: [Penalty; 3] = [Penalty::EarlyCard, Penalty::MissedTurn, Penalty::DeadHand];

    pub fn name(self) -> &'static str {
        match self {
            Penalty::EarlyCard => "early-card",
            Penalty::MissedTurn => "missed-turn",
            Penalty::DeadHand => "dead-hand",
        }
    }

    pub fn from_name(name: &str) -> Option<Penalty> {
        Penalty::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Units the penalised seat pays to each other seat.
    pub fn units(self) -> i64 {
        match self {
            Penalty::EarlyCard => 1,
            Penalty::MissedTurn => 3,
            Penalty::DeadHand => 0, // scored as a foul
        }
    }
}

fn flag(map: &Map<String, Value>, name: &str) -> Result<bool, String> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!("option {name} must be true or false, not {other}")),
    }
}

/// A number of units the house sets (`no_pictures`, `winner_units`): absent,
/// null or false is off; `true` is refused, since the seed gives no number.
fn house_units(map: &Map<String, Value>, name: &str, what: &str, seed_words: &str) -> Result<Option<i64>, String> {
    match map.get(name) {
        None | Some(Value::Null) | Some(Value::Bool(false)) => Ok(None),
        Some(Value::Bool(true)) => Err(format!(
            "option {name} needs {what}: the seed gives no number ({seed_words}), so the house must set it, \
             like {{\"{name}\": 5}}"
        )),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(u) if (1..=MAX_HOUSE_UNITS).contains(&u) => Ok(Some(u)),
            _ => Err(format!("option {name} must be a whole number of units from 1 to {MAX_HOUSE_UNITS}, not {n}")),
        },
        Some(other) => Err(format!("option {name} must be a whole number of units, not {other}")),
    }
}

fn presets_taking(kind: OptionKind) -> Vec<&'static str> {
    PRESETS.iter().filter(|r| r.takes(kind)).map(|r| r.name).collect()
}

fn option_list(rules: &Ruleset) -> String {
    if rules.options.is_empty() {
        "none".to_string()
    } else {
        rules.options.iter().map(|o| o.name()).collect::<Vec<_>>().join(", ")
    }
}

impl TableOptions {
    /// Reads and checks an `options` object (or null) for a preset at its
    /// revision. An unknown option, a value of the wrong kind, an option the
    /// preset cannot have, or a required option missing is an error naming
    /// it. An option given as false or null is off and is accepted anywhere.
    pub fn from_json(value: &Value, rules: &Ruleset) -> Result<TableOptions, String> {
        let empty = Map::new();
        let map = match value {
            Value::Null => &empty,
            Value::Object(map) => map,
            other => return Err(format!("options must be an object, not {other}")),
        };
        for key in map.keys() {
            if OptionKind::from_name(key).is_none() {
                let names: Vec<&str> = OptionKind::ALL.iter().map(|o| o.name()).collect();
                return Err(format!("unknown option {key:?}; the options are: {}", names.join(", ")));
            }
        }
        let fantasyland_entry = match map.get("fantasyland_entry") {
            None | Some(Value::Null) => FantasylandEntry::QQ,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("QQ") => FantasylandEntry::QQ,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("KK") => FantasylandEntry::KK,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("AA") => FantasylandEntry::AA,
            Some(other) => {
                return Err(format!("option fantasyland_entry must be \"QQ\", \"KK\" or \"AA\", not {other}"))
            }
        };
        let royalty_table = match map.get("royalty_table") {
            None | Some(Value::Null) => RoyaltyTable::Standard,
            Some(Value::String(s)) if RoyaltyTable::from_name(s).is_some() => {
                RoyaltyTable::from_name(s).unwrap_or_default()
            }
            Some(other) => {
                return Err(format!(
                "option royalty_table must be \"standard\" (RULES §5.4) or \"front-trips-20\" (seed 001), not {other}"
            ))
            }
        };
        let sweep_bonus = match map.get("sweep_bonus") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => None,
            Some(Value::Number(n)) if n.as_i64().is_some_and(|u| SWEEP_BONUSES.contains(&u)) => n.as_i64(),
            Some(other) => {
                return Err(format!(
                    "option sweep_bonus must be 1 or 3 (seed 004: \"an extra 1 unit (or sometimes 3 units) for a sweep\"), not {other}"
                ))
            }
        };
        let options = TableOptions {
            fantasyland_entry,
            progressive_fantasyland: flag(map, "progressive_fantasyland")?,
            double_deck: flag(map, "double_deck")?,
            shoot_the_moon: flag(map, "shoot_the_moon")?,
            tournament: flag(map, "tournament")?,
            final_table: flag(map, "final_table")?,
            royalty_table,
            sweep_bonus,
            overall_point: flag(map, "overall_point")?,
            higher_middle_payment: flag(map, "higher_middle_payment")?,
            surrender: flag(map, "surrender")?,
            pool_sweep: flag(map, "pool_sweep")?,
            no_pictures: house_units(
                map,
                "no_pictures",
                "the units a hand with no picture card is worth",
                "seed 004: \"I don't know how many units it is worth\"",
            )?,
            sweep_double_triple: flag(map, "sweep_double_triple")?,
            dragon_26: flag(map, "dragon_26")?,
            small_cards_to_ten: flag(map, "small_cards_to_ten")?,
            sweep_all_double: flag(map, "sweep_all_double")?,
            ace_of_spades_deals: flag(map, "ace_of_spades_deals")?,
            winner_units: house_units(
                map,
                "winner_units",
                "the units the one winner collects from each other seat",
                "seed 004 says only \"there is just one winner of each deal\"",
            )?,
        };
        for kind in options.set_kinds() {
            if !rules.takes(kind) {
                let elsewhere = presets_taking(kind);
                let where_ = if elsewhere.is_empty() {
                    String::new()
                } else {
                    format!(" (it is an option of {})", elsewhere.join(", "))
                };
                return Err(format!(
                    "option {} is not played in {}{where_}; the options of {} are: {}",
                    kind.name(),
                    rules.name,
                    rules.name,
                    option_list(rules)
                ));
            }
        }
        for kind in rules.required_options {
            if !options.set_kinds().contains(kind) {
                return Err(match kind {
                    OptionKind::WinnerUnits => format!(
                        "{} needs option winner_units, the units the one winner collects from each other seat: \
                         the seed says only \"there is just one winner of each deal\", so the house must set it, \
                         like {{\"winner_units\": 3}}",
                        rules.name
                    ),
                    other => format!("{} needs option {}", rules.name, other.name()),
                });
            }
        }
        if options.fantasyland_entry == FantasylandEntry::AA
            && !(rules.fantasyland_entry_aa && (rules.discards || options.double_deck))
        {
            return Err(format!(
                "option fantasyland_entry \"AA\" is suggested for pineapple and double deck (seed 003); {} {} enters at \"QQ\" or \"KK\"",
                rules.name,
                if rules.fantasyland_entry_aa { "on one deck" } else { "at this revision" }
            ));
        }
        if options.final_table && options.max_players(rules) < 4 {
            return Err(format!(
                "option final_table deals four of five seats, but {} is played by at most {} players (add double_deck)",
                rules.name,
                options.max_players(rules)
            ));
        }
        Ok(options)
    }

    /// The options that differ from the default, in `OptionKind::ALL` order.
    pub fn set_kinds(&self) -> Vec<OptionKind> {
        let d = TableOptions::default();
        OptionKind::ALL
            .into_iter()
            .filter(|kind| match kind {
                OptionKind::FantasylandEntry => self.fantasyland_entry != d.fantasyland_entry,
                OptionKind::ProgressiveFantasyland => self.progressive_fantasyland,
                OptionKind::DoubleDeck => self.double_deck,
                OptionKind::ShootTheMoon => self.shoot_the_moon,
                OptionKind::Tournament => self.tournament,
                OptionKind::FinalTable => self.final_table,
                OptionKind::RoyaltyTable => self.royalty_table != d.royalty_table,
                OptionKind::SweepBonus => self.sweep_bonus.is_some(),
                OptionKind::OverallPoint => self.overall_point,
                OptionKind::HigherMiddlePayment => self.higher_middle_payment,
                OptionKind::Surrender => self.surrender,
                OptionKind::PoolSweep => self.pool_sweep,
                OptionKind::NoPictures => self.no_pictures.is_some(),
                OptionKind::SweepDoubleTriple => self.sweep_double_triple,
                OptionKind::Dragon26 => self.dragon_26,
                OptionKind::SmallCardsToTen => self.small_cards_to_ten,
                OptionKind::SweepAllDouble => self.sweep_all_double,
                OptionKind::AceOfSpadesDeals => self.ace_of_spades_deals,
                OptionKind::WinnerUnits => self.winner_units.is_some(),
            })
            .collect()
    }

    /// The names of the options that differ from the default.
    pub fn set_names(&self) -> Vec<&'static str> {
        self.set_kinds().into_iter().map(|k| k.name()).collect()
    }

    pub fn is_default(&self) -> bool {
        *self == TableOptions::default()
    }

    /// One option's value as JSON (a number option that is not set: null).
    pub fn value_of(&self, kind: OptionKind) -> Value {
        match kind {
            OptionKind::FantasylandEntry => json!(self.fantasyland_entry.name()),
            OptionKind::ProgressiveFantasyland => json!(self.progressive_fantasyland),
            OptionKind::DoubleDeck => json!(self.double_deck),
            OptionKind::ShootTheMoon => json!(self.shoot_the_moon),
            OptionKind::Tournament => json!(self.tournament),
            OptionKind::FinalTable => json!(self.final_table),
            OptionKind::RoyaltyTable => json!(self.royalty_table.name()),
            OptionKind::SweepBonus => json!(self.sweep_bonus),
            OptionKind::OverallPoint => json!(self.overall_point),
            OptionKind::HigherMiddlePayment => json!(self.higher_middle_payment),
            OptionKind::Surrender => json!(self.surrender),
            OptionKind::PoolSweep => json!(self.pool_sweep),
            OptionKind::NoPictures => json!(self.no_pictures),
            OptionKind::SweepDoubleTriple => json!(self.sweep_double_triple),
            OptionKind::Dragon26 => json!(self.dragon_26),
            OptionKind::SmallCardsToTen => json!(self.small_cards_to_ten),
            OptionKind::SweepAllDouble => json!(self.sweep_all_double),
            OptionKind::AceOfSpadesDeals => json!(self.ace_of_spades_deals),
            OptionKind::WinnerUnits => json!(self.winner_units),
        }
    }

    /// The open-face options with their values (what an `ofc` table shows;
    /// kept for the service, see `to_json_for` for any preset).
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        for kind in [
            OptionKind::FantasylandEntry,
            OptionKind::ProgressiveFantasyland,
            OptionKind::DoubleDeck,
            OptionKind::ShootTheMoon,
            OptionKind::Tournament,
            OptionKind::FinalTable,
            OptionKind::RoyaltyTable,
        ] {
            map.insert(kind.name().to_string(), self.value_of(kind));
        }
        Value::Object(map)
    }

    /// Every option the preset may have, with its value (a number the house
    /// has not set is null): what a table's sheet shows.
    pub fn to_json_for(&self, rules: &Ruleset) -> Value {
        Value::Object(rules.options.iter().map(|k| (k.name().to_string(), self.value_of(*k))).collect())
    }

    /// Only the options that differ from the default (what is stored).
    pub fn to_stored_json(&self) -> Value {
        Value::Object(self.set_kinds().into_iter().map(|k| (k.name().to_string(), self.value_of(k))).collect())
    }

    // ---- what the options change in a preset (read by scoring) ----

    /// The preset counts the overall point, by itself or by this option.
    pub fn overall_point(&self, rules: &Ruleset) -> bool {
        rules.has_overall_point() || self.overall_point
    }

    /// The surrender rule in play: the preset's, or the `surrender` option's
    /// (seed 004: "one unit each, or two units each if you play the version
    /// with the overall point").
    pub fn surrender(&self, rules: &Ruleset) -> Surrender {
        if self.surrender {
            Surrender::Pays(if self.overall_point(rules) { 2 } else { 1 })
        } else {
            rules.surrender
        }
    }

    /// How the preset's normal outcome is counted with these options.
    pub fn normal(&self, rules: &Ruleset) -> NormalScoring {
        match rules.normal {
            NormalScoring::Rows(cfg) => NormalScoring::Rows(RowPoints {
                sweep_bonus: cfg.sweep_bonus + self.sweep_bonus.unwrap_or(0),
                overall_point: cfg.overall_point || self.overall_point,
                higher_middle_payment: cfg.higher_middle_payment || self.higher_middle_payment,
                ..cfg
            }),
            other => other,
        }
    }

    /// The preset's special hands with these options: the dragon at 26,
    /// small cards up to ten, and no pictures (listed last) at the house's
    /// value.
    pub fn specials(&self, rules: &Ruleset) -> Vec<(SpecialKind, i64)> {
        let mut list: Vec<(SpecialKind, i64)> = rules
            .specials
            .iter()
            .map(|&(kind, value)| match kind {
                SpecialKind::Dragon if self.dragon_26 => (kind, 26),
                SpecialKind::SmallCardsToNine if self.small_cards_to_ten => (SpecialKind::SmallCardsToTen, value),
                _ => (kind, value),
            })
            .collect();
        if let Some(units) = self.no_pictures {
            list.push((SpecialKind::NoPictures, units));
        }
        list
    }

    /// What a sweep multiplies a pair's payment by: (against one opponent,
    /// against every opponent).
    pub fn sweep_multipliers(&self) -> (i64, i64) {
        if self.sweep_double_triple {
            (2, 3)
        } else if self.sweep_all_double {
            (1, 2)
        } else {
            (1, 1)
        }
    }

    /// Copies of each card in play.
    pub fn copies(&self) -> u8 {
        if self.double_deck {
            2
        } else {
            1
        }
    }

    /// Cards one seat sees in a hand outside fantasyland.
    pub fn cards_per_player(rules: &Ruleset) -> usize {
        if rules.discards {
            PINEAPPLE_CARDS
        } else {
            PLACED
        }
    }

    /// Most players dealt in to one hand: the cards in play over the cards
    /// each seat sees (ofc 4, pineapple 3; double deck 8 and 6). Other
    /// presets keep the contract's 4.
    pub fn max_players(&self, rules: &Ruleset) -> usize {
        if rules.fantasyland.is_none() {
            return 4;
        }
        52 * self.copies() as usize / TableOptions::cards_per_player(rules)
    }

    /// Most seats a table with these options may have.
    pub fn max_table_seats(&self, rules: &Ruleset) -> usize {
        let players = self.max_players(rules).max(4);
        if self.final_table {
            players.max(5)
        } else {
            players
        }
    }

    /// Cards a seat is dealt in fantasyland when it enters with this front
    /// (`entering`) or stays (`!entering`): ofc 13; pineapple 14, or with
    /// progressive fantasyland QQ 14, KK 15, AA 16, trips 17 on entry.
    pub fn fantasyland_cards(&self, rules: &Ruleset, front: Strength3, entering: bool) -> usize {
        if !rules.discards {
            return PLACED;
        }
        if !(entering && self.progressive_fantasyland) {
            return PLACED + 1;
        }
        match front.category() {
            Category::Trips => 17,
            Category::Pair => match front.ranks()[0] {
                r if r >= ACE => 16,
                r if r >= KING => 15,
                _ => 14,
            },
            _ => PLACED + 1,
        }
    }

    /// Whether a front enters fantasyland (no foul assumed).
    pub fn enters_fantasyland(&self, front: Strength3) -> bool {
        front.category() == Category::Trips
            || (front.category() == Category::Pair && front.ranks()[0] >= self.fantasyland_entry.rank())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::card::parse_cards;
    use crate::engine::eval::eval3;
    use crate::engine::ruleset::preset;

    fn front(s: &str) -> Strength3 {
        let c = parse_cards(s).unwrap();
        eval3(&[c[0], c[1], c[2]])
    }

    #[test]
    fn options_are_checked_by_name_and_preset() {
        let ofc = preset("ofc").unwrap();
        let pine = preset("ofc-pineapple").unwrap();
        let hg = preset("hawaiian-gardens").unwrap();
        assert_eq!(TableOptions::from_json(&json!({}), ofc), Ok(TableOptions::default()));
        let e = TableOptions::from_json(&json!({"moon": true}), ofc).unwrap_err();
        assert!(e.contains("unknown option \"moon\""), "{e}");
        let e = TableOptions::from_json(&json!({"tournament": 1}), ofc).unwrap_err();
        assert!(e.contains("tournament must be true or false"), "{e}");
        let e = TableOptions::from_json(&json!({"fantasyland_entry": "AA"}), ofc).unwrap_err();
        assert!(e.contains("fantasyland_entry"), "{e}");
        let e = TableOptions::from_json(&json!({"double_deck": true}), hg).unwrap_err();
        assert!(e.contains("double_deck") && e.contains("hawaiian-gardens"), "{e}");
        let e = TableOptions::from_json(&json!({"progressive_fantasyland": true}), ofc).unwrap_err();
        assert!(e.contains("progressive_fantasyland"), "{e}");
        assert!(TableOptions::from_json(&json!({"progressive_fantasyland": true}), pine).is_ok());
        let e = TableOptions::from_json(&json!({"final_table": true}), pine).unwrap_err();
        assert!(e.contains("final_table"), "{e}");
        assert!(TableOptions::from_json(&json!({"final_table": true, "double_deck": true}), pine).is_ok());
        let o = TableOptions::from_json(&json!({"fantasyland_entry": "kk", "shoot_the_moon": true}), ofc).unwrap();
        assert_eq!(o.to_stored_json(), json!({"fantasyland_entry": "KK", "shoot_the_moon": true}));
        assert_eq!(TableOptions::from_json(&o.to_stored_json(), ofc), Ok(o));
    }

    #[test]
    fn player_limits_come_from_the_cards() {
        let ofc = preset("ofc").unwrap();
        let pine = preset("ofc-pineapple").unwrap();
        let single = TableOptions::default();
        let double = TableOptions { double_deck: true, ..single };
        assert_eq!(
            [single.max_players(ofc), single.max_players(pine), double.max_players(ofc), double.max_players(pine)],
            [4, 3, 8, 6]
        );
        let fin = TableOptions { final_table: true, ..single };
        assert_eq!(fin.max_table_seats(ofc), 5);
    }

    #[test]
    fn fantasyland_entry_and_progressive_cards() {
        let pine = preset("ofc-pineapple").unwrap();
        let ofc = preset("ofc").unwrap();
        let qq = TableOptions::default();
        let kk = TableOptions { fantasyland_entry: FantasylandEntry::KK, ..qq };
        assert!(qq.enters_fantasyland(front("Qh Qd 2c")));
        assert!(!kk.enters_fantasyland(front("Qh Qd 2c")));
        assert!(kk.enters_fantasyland(front("Kh Kd 2c")));
        assert!(kk.enters_fantasyland(front("2h 2d 2c")));
        assert!(!qq.enters_fantasyland(front("Jh Jd Ac")));
        let prog = TableOptions { progressive_fantasyland: true, ..qq };
        let cards = |o: &TableOptions, f: &str| o.fantasyland_cards(pine, front(f), true);
        assert_eq!(
            [cards(&prog, "Qh Qd 2c"), cards(&prog, "Kh Kd 2c"), cards(&prog, "Ah Ad 2c"), cards(&prog, "2h 2d 2c")],
            [14, 15, 16, 17]
        );
        assert_eq!(cards(&qq, "Ah Ad 2c"), 14);
        assert_eq!(prog.fantasyland_cards(pine, front("2h 2d 2c"), false), 14, "a stay gets 14");
        assert_eq!(qq.fantasyland_cards(ofc, front("Ah Ad 2c"), true), 13);
    }
}
