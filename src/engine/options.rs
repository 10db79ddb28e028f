//! Open-face table options (issue 8): fantasyland entry and progressive
//! fantasyland, double deck, shooting the moon, tournament rules (penalties
//! and bust-out settlement) and the final table of five. Options are data on
//! a table's ruleset version; the engine takes them as the showdown's
//! optional `options` object. Everything here is pure and table-driven.

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::card::{KING, QUEEN};
use super::eval::{Category, Strength3};
use super::ruleset::Ruleset;

/// The lowest front pair that enters fantasyland.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum FantasylandEntry {
    #[default]
    QQ,
    KK,
}

impl FantasylandEntry {
    pub fn rank(self) -> u8 {
        match self {
            FantasylandEntry::QQ => QUEEN,
            FantasylandEntry::KK => KING,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FantasylandEntry::QQ => "QQ",
            FantasylandEntry::KK => "KK",
        }
    }
}

/// The options of an open-face table. The default is the plain preset.
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
}

/// Every option by name, in the order they are listed.
pub const OPTION_NAMES: [&str; 6] =
    ["fantasyland_entry", "progressive_fantasyland", "double_deck", "shoot_the_moon", "tournament", "final_table"];

/// Units a seat collects from every other seat when it shoots the moon.
pub const MOON_UNITS: i64 = 20;
/// Cards a seat places in a hand (three rows).
pub const PLACED: usize = 13;
/// Cards a pineapple seat sees outside fantasyland: 5, then 4 rounds of 3.
pub const PINEAPPLE_CARDS: usize = 17;

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

impl TableOptions {
    /// Reads and checks an `options` object for a preset. An unknown option,
    /// a value of the wrong kind, or an option the preset cannot have is an
    /// error naming it.
    pub fn from_json(value: &Value, rules: &Ruleset) -> Result<TableOptions, String> {
        let map = match value {
            Value::Null => return Ok(TableOptions::default()),
            Value::Object(map) => map,
            other => return Err(format!("options must be an object, not {other}")),
        };
        for key in map.keys() {
            if !OPTION_NAMES.contains(&key.as_str()) {
                return Err(format!("unknown option {key:?}; the options are: {}", OPTION_NAMES.join(", ")));
            }
        }
        let fantasyland_entry = match map.get("fantasyland_entry") {
            None | Some(Value::Null) => FantasylandEntry::QQ,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("QQ") => FantasylandEntry::QQ,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("KK") => FantasylandEntry::KK,
            Some(other) => return Err(format!("option fantasyland_entry must be \"QQ\" or \"KK\", not {other}")),
        };
        let options = TableOptions {
            fantasyland_entry,
            progressive_fantasyland: flag(map, "progressive_fantasyland")?,
            double_deck: flag(map, "double_deck")?,
            shoot_the_moon: flag(map, "shoot_the_moon")?,
            tournament: flag(map, "tournament")?,
            final_table: flag(map, "final_table")?,
        };
        if rules.fantasyland.is_none() {
            if let Some(name) = options.set_names().first() {
                return Err(format!(
                    "option {name} is for the open-face presets (ofc, ofc-pineapple); the preset is {}",
                    rules.name
                ));
            }
        }
        if options.progressive_fantasyland && !rules.discards {
            return Err(format!(
                "option progressive_fantasyland is played in pineapple (ofc-pineapple); the preset is {}",
                rules.name
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

    /// The names of the options that differ from the default.
    pub fn set_names(&self) -> Vec<&'static str> {
        let d = TableOptions::default();
        let mut names = Vec::new();
        if self.fantasyland_entry != d.fantasyland_entry {
            names.push("fantasyland_entry");
        }
        for (name, on) in [
            ("progressive_fantasyland", self.progressive_fantasyland),
            ("double_deck", self.double_deck),
            ("shoot_the_moon", self.shoot_the_moon),
            ("tournament", self.tournament),
            ("final_table", self.final_table),
        ] {
            if on {
                names.push(name);
            }
        }
        names
    }

    pub fn is_default(&self) -> bool {
        *self == TableOptions::default()
    }

    /// Every option with its value.
    pub fn to_json(&self) -> Value {
        json!({
            "fantasyland_entry": self.fantasyland_entry.name(),
            "progressive_fantasyland": self.progressive_fantasyland,
            "double_deck": self.double_deck,
            "shoot_the_moon": self.shoot_the_moon,
            "tournament": self.tournament,
            "final_table": self.final_table,
        })
    }

    /// Only the options that differ from the default (what is stored).
    pub fn to_stored_json(&self) -> Value {
        let all = self.to_json();
        let mut map = Map::new();
        for name in self.set_names() {
            map.insert(name.to_string(), all[name].clone());
        }
        Value::Object(map)
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
                r if r >= super::card::ACE => 16,
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
    use crate::engine::preset;

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

    // ---- worked examples through the engine (score_json) ----

    use crate::engine::score_json;
    use rust_decimal::Decimal;

    /// Seat 1 sets a jack-high back without a foul; seat 2 scoops it with
    /// AA in front (9) and a full house in the back (6).
    const MOON: &str =
        r#"{"seat": 1, "stack": "100", "front": "2s 3h 4d", "middle": "5c 6s 7h 8d Tc", "back": "Js 9h 8c 6d 3c"}"#;
    const AA_FH: &str =
        r#"{"seat": 2, "stack": "100", "front": "Ah Ad Kc", "middle": "2h 2d 5h 5d 9c", "back": "Qs Qh Qd 4s 4h"}"#;

    fn two(options: &str, seat1_extra: &str, seat2_extra: &str) -> serde_json::Value {
        let s1 = MOON.replacen('{', &format!("{{{seat1_extra}"), 1);
        let s2 = AA_FH.replacen('{', &format!("{{{seat2_extra}"), 1);
        let text = format!(r#"{{"ruleset": "ofc", {options} "seats": [{s1}, {s2}]}}"#);
        serde_json::to_value(score_json(&text).unwrap_or_else(|e| panic!("{text}: {e}"))).unwrap()
    }

    fn main_units(r: &serde_json::Value) -> i64 {
        r["pairs"][0]["main_units"].as_i64().unwrap()
    }

    #[test]
    fn shooting_the_moon_collects_20() {
        // Plain: seat 2 scoops (1+1+1+3) and has 15 in royalties: 21.
        let plain = two("", "", "");
        assert_eq!(main_units(&plain), -21);
        assert!(plain["seats"][0].get("moon").is_none(), "no option, no new field");
        let moon = two(r#""options": {"shoot_the_moon": true},"#, "", "");
        assert_eq!(main_units(&moon), -1, "21 lost, 20 collected");
        assert_eq!(moon["seats"][0]["moon"], json!(true));
        assert_eq!(moon["seats"][1]["moon"], json!(false));
        assert_eq!(moon["seats"][1]["net"].as_str().unwrap().parse::<Decimal>().unwrap(), Decimal::ONE);
    }

    #[test]
    fn penalties_pay_and_missed_turn_rules() {
        let t = r#""options": {"tournament": true},"#;
        // A card turned early by seat 2: seat 2 pays 1.
        assert_eq!(main_units(&two(t, "", r#""penalties": ["early-card"],"#)), -20);
        // Seat 1 missed a turn: pays 3 and not seat 2's 15 in royalties: 6 + 3.
        assert_eq!(main_units(&two(t, r#""penalties": ["missed-turn"],"#, "")), -9);
        // Seat 2 missed a turn; seat 1 turned a card early: seat 2 would take
        // 21 - 3 + 1 = 19, but takes nothing from a penalised seat.
        assert_eq!(main_units(&two(t, r#""penalties": ["early-card"],"#, r#""penalties": ["missed-turn"],"#)), 0);
        // Seat 2's hand is declared dead: the full foul, 6, plus seat 1's
        // royalties (none).
        let dead = two(t, "", r#""penalties": ["dead-hand"],"#);
        assert_eq!(main_units(&dead), 6);
        assert_eq!(dead["seats"][1]["fouled"], json!(true));
        assert_eq!(dead["seats"][1]["penalties"], json!(["dead-hand"]));
        // Penalties need the tournament option.
        let e = score_json(&format!(
            r#"{{"ruleset": "ofc", "seats": [{}, {AA_FH}]}}"#,
            MOON.replacen('{', r#"{"penalties": ["early-card"],"#, 1)
        ))
        .unwrap_err();
        assert!(e.to_string().contains("seat 1: penalty early-card needs the tournament option"), "{e}");
    }

    #[test]
    fn kk_entry_and_progressive_cards_in_the_result() {
        let qq = two(r#""options": {},"#, "", "");
        assert_eq!(qq["seats"][1]["fantasyland_next"], json!(true));
        assert_eq!(qq["seats"][1]["fantasyland_cards"], json!(13));
        let kk = two(r#""options": {"fantasyland_entry": "KK"},"#, "", "");
        assert_eq!(kk["seats"][1]["fantasyland_next"], json!(true), "AA qualifies at KK");
    }

    fn four_surrendered(options: &str, stacks: [&str; 4]) -> crate::engine::Showdown {
        let suits = ['s', 'h', 'd', 'c'];
        let seats: Vec<String> = (0..4)
            .map(|i| {
                let cards: Vec<String> = "23456789TJQKA".chars().map(|r| format!("{r}{}", suits[i])).collect();
                format!(
                    r#"{{"seat": {}, "stack": "{}", "cards": "{}", "surrender": true}}"#,
                    i + 1,
                    stacks[i],
                    cards.join(" ")
                )
            })
            .collect();
        crate::engine::Showdown::from_json(&format!(
            r#"{{"ruleset": "ofc", "dealer": 3, {options} "seats": [{}]}}"#,
            seats.join(",")
        ))
        .unwrap()
    }

    #[test]
    fn bust_out_settles_from_position_1_and_an_out_player_stops() {
        use crate::engine::settlement::settle;
        // A (seat 1) has 10 and owes B 12; C owes A 5, D owes A 4; B owes... C pays B 2; C owes D 3.
        let sd = four_surrendered(r#""options": {"tournament": true},"#, ["10", "100", "100", "100"]);
        let order: Vec<usize> = sd.settlement_order().collect();
        assert_eq!(order, [0, 1, 2, 3], "position 1 first, whoever has the button");
        let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
        let units = [[0, -12], [0, 5], [0, 4], [0, 2], [0, 0], [0, -3]];
        let s = settle(&sd, &pairs, &units);
        let paid: Vec<String> = s.transactions.iter().map(|t| format!("{}>{} {}", t.payer, t.payee, t.paid)).collect();
        assert_eq!(paid, ["1>2 10", "3>1 0", "4>1 0", "3>2 2", "3>4 3"]);
        assert_eq!(s.stacks, ["0", "112", "95", "103"].map(|x| x.parse::<Decimal>().unwrap()));
        assert_eq!(s.out, [true, false, false, false]);
        assert_eq!(s.nets.iter().sum::<Decimal>(), Decimal::ZERO);
    }

    #[test]
    fn carried_exposure_bounds_the_settlement() {
        use crate::engine::settlement::settle;
        let mut sd = four_surrendered("", ["100", "100", "100", "100"]);
        // Seat 1 carries 8 from the hand it extends (RULES §8 example numbers).
        sd.seats[0].exposure = Some(Decimal::from(8));
        let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
        let units = [[0, 6], [0, -6], [0, -1], [0, 0], [0, 0], [0, 0]];
        let s = settle(&sd, &pairs, &units);
        let paid: Vec<String> = s.transactions.iter().map(|t| format!("{}>{} {}", t.payer, t.payee, t.paid)).collect();
        assert_eq!(paid, ["2>1 6", "1>3 2", "1>4 0"]);
        assert_eq!(s.stacks[0], Decimal::from(104));
        assert_eq!(s.exposures[0], Decimal::ZERO);
        assert_eq!(s.exposures[1], Decimal::from(94));
    }
}
