//! The house-way setter: the setting a dealer makes for a seat that asks the
//! house to set its 13 cards, every special the cards qualify for, and a foul
//! explained in words with a legal setting beside it.
//!
//! # The house way
//!
//! Of the 72,072 ways to set 13 cards into front (3), middle (5) and back (5),
//! only settings that do not foul (RULES §3: back at least the middle, middle
//! at least the front by the front-against-middle comparison of RULES §2) are
//! considered. Among them the house takes the one with the greatest
//! [`HouseKey`], whose parts are compared in this order:
//!
//! 1. the **middle's strength** (RULES §2 five-card order): the strongest
//!    middle that still leaves a back at least as strong and a front that is
//!    not above it;
//! 2. the **front's strength** (three-card order);
//! 3. the preset's **row units** for the setting: the sum over the three rows
//!    of every per-hand table the preset has (`hawaiian-gardens`' position
//!    bonuses; a `Rows` preset's row-won scale plus its extras), plus the
//!    `ofc` royalties of the three rows when the preset has royalties (a royal
//!    flush counts as a straight flush in the tables, and for its own
//!    royalty). `pool` and `single-winner` have no such units (0);
//! 4. the **back's strength**;
//! 5. a deterministic tie-break between settings with equal rows: the front
//!    whose set of cards is smallest as a 52-bit number (card index
//!    `4 × rank + suit`, suits ordered spades, hearts, diamonds, clubs; the
//!    set with the lower highest differing card is smaller), then the same
//!    for the middle. The result therefore depends only on the 13 cards, not
//!    on the order they were given in.
//!
//! Parts 3 and 4 only choose between settings whose middle and front are
//! equally strong, so they decide which of the remaining cards go to the back
//! (of two nines, the one that completes a straight flush goes to the back
//! and the other to an equally strong front). With the present presets'
//! tables, which never pay less for a stronger back, part 3 always agrees
//! with part 4; it comes first so that a table that did would be followed.
//!
//! The middle comes first on purpose: it is the row a house way most often
//! gets wrong. One consequence worth knowing: a hand such as
//! `As Ad Ah Ac K Q J 9 8 7 5 4 2` (no other pair, straight or flush) is set
//! with a pair of aces in the middle and another in the back (`A A Q J 9`
//! under `A A K x x`), since a pair of aces beats any high-card middle left
//! over after a back of four aces. Game-theoretic best play is not attempted.
//!
//! Every hand has a legal setting: the best five cards as the back, the best
//! five of the other eight as the middle and the last three as the front never
//! foul. The back is at least the middle by choice. The front's three cards
//! with any two others make a five-card hand that, compared as RULES §2
//! compares a front with a middle, is at least the front; the middle is at
//! least that hand, and that view of a five-card hand never falls as the hand
//! gets stronger. So [`house_set`] always succeeds (and the tests check it
//! on random hands independently of the search).
//!
//! # Search
//!
//! All 1,287 five-card and 286 three-card subsets of the 13 cards are
//! evaluated once into a table indexed by 13-bit mask. Middles are taken in
//! descending strength (a counting sort on the strength's top byte, each
//! group sorted only when the search reaches it); for each, the 56 ways to
//! split the other eight cards into back and front are checked against the
//! table (back at least the middle, front not above it). The first middle
//! strength with a legal completion is the house middle strength; all middles
//! of that strength and their legal completions are ranked by the full key.
//! Random hands reach it after about 30 middles on average. Nothing is
//! allocated; a hand takes about 8 µs (`cargo bench --bench setter`).

use std::cmp::Reverse;
use std::fmt;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::card::{display_cards, Card};
use super::eval::{eval3, eval5, Category, Strength3, Strength5};
use super::rows::RowStrengths;
use super::ruleset::{row_value, royalty, NormalScoring, Row, Ruleset};
use super::showdown::ShowdownError;
use super::special::{qualifies, three_card_straight_top, SetRows, SpecialKind};
use super::words::{describe3, describe5, describe_foul};

// ---------------------------------------------------------------------------
// Settings

/// One way to set 13 cards, with its rows evaluated.
///
/// Serialised as the three rows in canonical card notation (`"Qh Qd 7c"`) and
/// each row's hand in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    pub front: [Card; 3],
    pub middle: [Card; 5],
    pub back: [Card; 5],
    pub strengths: RowStrengths,
}

impl Setting {
    /// Evaluates the rows as given (cards keep their order).
    pub fn new(front: [Card; 3], middle: [Card; 5], back: [Card; 5]) -> Setting {
        Setting { front, middle, back, strengths: RowStrengths::of(&front, &middle, &back) }
    }

    /// The same rows with each row's cards in display order: cards of the
    /// most frequent rank first, higher ranks before lower, then spades,
    /// hearts, diamonds, clubs (`Kh Kd Kc 2s 2h`, `Qh Qd 7c`).
    pub fn display_order(mut self) -> Setting {
        display_sort(&mut self.front);
        display_sort(&mut self.middle);
        display_sort(&mut self.back);
        self
    }

    pub fn is_fouled(&self) -> bool {
        self.strengths.is_fouled()
    }

    /// All 13 cards: front, middle, back.
    pub fn cards(&self) -> [Card; 13] {
        let mut all = [self.front[0]; 13];
        all[..3].copy_from_slice(&self.front);
        all[3..8].copy_from_slice(&self.middle);
        all[8..].copy_from_slice(&self.back);
        all
    }

    /// The rows as the special-hand checks take them.
    pub fn set_rows(&self) -> SetRows<'_> {
        SetRows {
            front: &self.front,
            middle: &self.middle,
            back: &self.back,
            front_strength: self.strengths.front,
            middle_strength: self.strengths.middle,
            back_strength: self.strengths.back,
        }
    }

    /// This setting's house-way key under `rules`.
    pub fn key(&self, rules: &Ruleset) -> HouseKey {
        HouseWay::new(rules).key_of(self)
    }
}

impl fmt::Display for Setting {
    /// `front Qh Qd 7c, middle Ks Kc 9d 4c 2s, back Ah Ad 8s 8c 3h`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "front {}, middle {}, back {}",
            display_cards(&self.front),
            display_cards(&self.middle),
            display_cards(&self.back)
        )
    }
}

impl Serialize for Setting {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut st = serializer.serialize_struct("Setting", 6)?;
        st.serialize_field("front", &display_cards(&self.front))?;
        st.serialize_field("middle", &display_cards(&self.middle))?;
        st.serialize_field("back", &display_cards(&self.back))?;
        st.serialize_field("front_hand", &describe3(self.strengths.front))?;
        st.serialize_field("middle_hand", &describe5(self.strengths.middle))?;
        st.serialize_field("back_hand", &describe5(self.strengths.back))?;
        st.end()
    }
}

fn display_sort<const N: usize>(row: &mut [Card; N]) {
    let mut counts = [0u8; 13];
    for c in row.iter() {
        counts[c.rank() as usize] += 1;
    }
    row.sort_unstable_by_key(|c| (Reverse(counts[c.rank() as usize]), Reverse(c.rank()), c.suit() as u8));
}

// ---------------------------------------------------------------------------
// The house-way key

/// The house way's order on settings (module docs): greater is preferred.
/// Fields are compared in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HouseKey {
    pub middle: Strength5,
    pub front: Strength3,
    /// The preset's row units for the setting (bonuses, scale, extras,
    /// royalties).
    pub units: i64,
    pub back: Strength5,
    /// The front's cards as a 52-bit set, reversed: the smaller set wins.
    pub front_cards: Reverse<u64>,
    /// The middle's cards as a 52-bit set, reversed: the smaller set wins.
    pub middle_cards: Reverse<u64>,
}

/// A preset's house way: the row-unit tables read once from the preset.
#[derive(Clone, Copy, Debug)]
pub struct HouseWay {
    /// Units by row and category from the preset's tables.
    table: [[i64; 9]; 3],
    royalties: bool,
}

/// The top rank of a front: the trip rank, the pair rank or the high card.
fn front_top_rank(front: Strength3) -> u8 {
    // Strength3's low 12 bits are r0 * 169 + r1 * 13 + r2 (eval.rs).
    ((front.0 & 0xfff) / 169) as u8
}

fn cards_bits(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |bits, c| bits | c.bit())
}

impl HouseWay {
    pub fn new(rules: &Ruleset) -> HouseWay {
        let mut table = [[0i64; 9]; 3];
        for row in Row::ALL {
            for cat in Category::ALL {
                table[row as usize][cat as usize] = match rules.normal {
                    NormalScoring::HawaiianGardens { bonuses } => row_value(bonuses, row, cat),
                    NormalScoring::Rows(cfg) => row_value(cfg.row_won, row, cat) + row_value(cfg.extras, row, cat),
                    NormalScoring::Pool
                    | NormalScoring::PoolTiesCollect
                    | NormalScoring::SingleWinnerTopTotal
                    | NormalScoring::SingleWinner => 0,
                };
            }
        }
        HouseWay { table, royalties: rules.has_royalties() }
    }

    /// The preset's row units for rows of these strengths (module docs, 3).
    pub fn units(&self, rows: &RowStrengths) -> i64 {
        let (f, m, b) = (rows.front, rows.middle, rows.back);
        let mut units = self.table[Row::Front as usize][f.category() as usize]
            + self.table[Row::Middle as usize][m.category() as usize]
            + self.table[Row::Back as usize][b.category() as usize];
        if self.royalties {
            units += royalty(Row::Front, f.category(), front_top_rank(f), false)
                + royalty(Row::Middle, m.category(), 0, m.is_royal_flush())
                + royalty(Row::Back, b.category(), 0, b.is_royal_flush());
        }
        units
    }

    fn key_parts(&self, rows: &RowStrengths, front_bits: u64, middle_bits: u64) -> HouseKey {
        HouseKey {
            middle: rows.middle,
            front: rows.front,
            units: self.units(rows),
            back: rows.back,
            front_cards: Reverse(front_bits),
            middle_cards: Reverse(middle_bits),
        }
    }

    /// The key of a setting (whether or not it fouls).
    pub fn key_of(&self, setting: &Setting) -> HouseKey {
        self.key_parts(&setting.strengths, cards_bits(&setting.front), cards_bits(&setting.middle))
    }

    /// The key of rows given as cards.
    pub fn key(&self, front: &[Card; 3], middle: &[Card; 5], back: &[Card; 5]) -> HouseKey {
        self.key_parts(&RowStrengths::of(front, middle, back), cards_bits(front), cards_bits(middle))
    }

    /// The house-way setting of 13 cards (module docs). Never fouls.
    ///
    /// # Panics
    ///
    /// When two of the cards are the same card (RULES §1; the showdown and
    /// CLI parsers reject repeats before this point).
    pub fn set(&self, cards: &[Card; 13]) -> Setting {
        let mut table = SubsetTable::new(cards);
        let (front, middle, back) = self.search(&mut table);
        Setting::new(table.cards_of(front), table.cards_of(middle), table.cards_of(back)).display_order()
    }

    /// The best non-fouling split as 13-bit masks (front, middle, back).
    fn search(&self, t: &mut SubsetTable) -> (u16, u16, u16) {
        // (key, front mask, middle mask) of the best legal setting so far.
        let mut best: Option<(HouseKey, u16, u16)> = None;
        'buckets: for bucket in (0..BUCKETS).rev() {
            let (lo, hi) = (t.bucket_start[bucket] as usize, t.bucket_start[bucket + 1] as usize);
            if lo == hi {
                continue;
            }
            if let Some((key, _, _)) = &best {
                if bucket < bucket_of(key.middle.0) {
                    break;
                }
            }
            // Middles in descending strength, a bucket at a time: only the
            // buckets reached are sorted.
            t.by_strength[lo..hi].sort_unstable();
            let t: &SubsetTable = t;
            for &entry in t.by_strength[lo..hi].iter().rev() {
                let sm = (entry >> 13) as u16;
                let m = (entry & FULL as u32) as u16;
                if let Some((key, _, _)) = &best {
                    if sm < key.middle.0 {
                        break 'buckets;
                    }
                }
                let front_view = Strength5(sm).front_view().0;
                for (f, b) in fronts_and_backs(m) {
                    let sb = t.strength[b as usize];
                    let sf = t.strength[f as usize];
                    if sb < sm || sf > front_view {
                        continue;
                    }
                    // Here the middle equals the best one's (a weaker middle
                    // ended the search), so the front decides next.
                    if let Some((key, _, _)) = &best {
                        if sf < key.front.0 {
                            continue;
                        }
                    }
                    let rows = RowStrengths { front: Strength3(sf), middle: Strength5(sm), back: Strength5(sb) };
                    let key = self.key_parts(&rows, t.bits52(f), t.bits52(m));
                    if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                        best = Some((key, f, m));
                    }
                }
            }
        }
        // Unreachable without a setting: every hand has one (module docs).
        let (_, f, m) = best.expect("every 13-card hand has a legal setting");
        (f, m, FULL ^ f ^ m)
    }
}

/// The house-way setting of 13 distinct cards under `rules` (module docs).
///
/// # Panics
///
/// When two of the cards are the same card.
pub fn house_set(cards: &[Card; 13], rules: &Ruleset) -> Setting {
    HouseWay::new(rules).set(cards)
}

/// The house-way key of rows given as cards under `rules`.
pub fn house_key(front: &[Card; 3], middle: &[Card; 5], back: &[Card; 5], rules: &Ruleset) -> HouseKey {
    HouseWay::new(rules).key(front, middle, back)
}

// ---------------------------------------------------------------------------
// Subset table

const FULL: u16 = (1 << 13) - 1;

/// The 56 ways to pick 3 of 8 positions, in lexicographic order.
const TRIPLES: [[u8; 3]; 56] = {
    let mut out = [[0u8; 3]; 56];
    let mut n = 0;
    let mut i = 0;
    while i < 8 {
        let mut j = i + 1;
        while j < 8 {
            let mut k = j + 1;
            while k < 8 {
                out[n] = [i, j, k];
                n += 1;
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
};

/// The 56 ways to split the eight cards left by the middle `middle` (a
/// 13-bit mask) into a front of three and a back of five: `(front, back)`.
#[inline]
fn fronts_and_backs(middle: u16) -> impl Iterator<Item = (u16, u16)> {
    let rest = FULL ^ middle;
    let bits = spread(rest);
    TRIPLES.iter().map(move |&[i, j, k]| {
        let front = bits[i as usize] | bits[j as usize] | bits[k as usize];
        (front, rest ^ front)
    })
}

/// The single bits of an 8-card mask, lowest first.
#[inline]
fn spread(mask: u16) -> [u16; 8] {
    let mut bits = [0u16; 8];
    let mut r = mask;
    for b in bits.iter_mut() {
        *b = r & r.wrapping_neg();
        r &= r - 1;
    }
    bits
}

/// Five-card strengths are `category << 12 | index` below `9 << 12`; they
/// are grouped by their top byte.
const BUCKETS: usize = 9 << 4;

#[inline]
fn bucket_of(strength: u16) -> usize {
    (strength >> 8) as usize
}

/// The 13 cards sorted by index, with every 5-card and 3-card subset
/// evaluated and indexed by 13-bit mask (bit `i` is the `i`-th lowest card).
struct SubsetTable {
    cards: [Card; 13],
    /// `eval5` of 5-card masks and `eval3` of 3-card masks; other entries 0.
    strength: [u16; 1 << 13],
    /// Every 5-card subset as `strength << 13 | mask`, grouped by
    /// [`bucket_of`] its strength, buckets ascending (each bucket unsorted
    /// until the search sorts it).
    by_strength: [u32; 1287],
    /// Where each bucket starts in `by_strength` (and, last, the end).
    bucket_start: [u16; BUCKETS + 1],
}

impl SubsetTable {
    fn new(cards: &[Card; 13]) -> SubsetTable {
        let mut sorted = *cards;
        sorted.sort_unstable();
        assert!(sorted.windows(2).all(|w| w[0] != w[1]), "the 13 cards must be distinct: {}", display_cards(cards));
        let c = sorted;
        let mut strength = [0u16; 1 << 13];
        let mut subsets = [0u32; 1287];
        let mut counts = [0u16; BUCKETS + 1];
        let mut n = 0;
        for a in 0..9 {
            for b in a + 1..10 {
                for d in b + 1..11 {
                    let m3 = 1u16 << a | 1 << b | 1 << d;
                    for e in d + 1..12 {
                        for g in e + 1..13 {
                            let m = m3 | 1 << e | 1 << g;
                            let s = eval5(&[c[a], c[b], c[d], c[e], c[g]]).0;
                            strength[m as usize] = s;
                            subsets[n] = (s as u32) << 13 | m as u32;
                            counts[bucket_of(s) + 1] += 1;
                            n += 1;
                        }
                    }
                }
            }
        }
        debug_assert_eq!(n, 1287);
        for a in 0..11 {
            for b in a + 1..12 {
                for d in b + 1..13 {
                    strength[(1usize << a) | (1 << b) | (1 << d)] = eval3(&[c[a], c[b], c[d]]).0;
                }
            }
        }
        // Counting sort by bucket.
        for i in 1..=BUCKETS {
            counts[i] += counts[i - 1];
        }
        let bucket_start = counts;
        let mut next = counts;
        let mut by_strength = [0u32; 1287];
        for &entry in subsets.iter() {
            let bucket = bucket_of((entry >> 13) as u16);
            by_strength[next[bucket] as usize] = entry;
            next[bucket] += 1;
        }
        SubsetTable { cards: sorted, strength, by_strength, bucket_start }
    }

    fn bits52(&self, mask: u16) -> u64 {
        let mut bits = 0;
        let mut m = mask;
        while m != 0 {
            bits |= self.cards[m.trailing_zeros() as usize].bit();
            m &= m - 1;
        }
        bits
    }

    fn cards_of<const N: usize>(&self, mask: u16) -> [Card; N] {
        debug_assert_eq!(mask.count_ones() as usize, N);
        let mut out = [self.cards[0]; N];
        let mut m = mask;
        for slot in out.iter_mut() {
            *slot = self.cards[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        out
    }
}

// ---------------------------------------------------------------------------
// Specials

/// A special hand the 13 cards make under a preset, with its value; for the
/// arrangement specials (`three-straights`, `three-flushes`,
/// `three-straight-flushes`) also a setting that shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpecialFound {
    #[serde(rename = "name", serialize_with = "ser_kind")]
    pub kind: SpecialKind,
    pub value: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setting: Option<Setting>,
}

/// Every special of the preset the 13 cards make, in the preset's table order
/// (ascending value). For an arrangement special the setting returned shows
/// it, with the stronger five-card row in the back; of all such settings it
/// is the one that compares best against another hand of the same special
/// (RULES §5.3: the higher five-card row, then the other, then the front —
/// as a three-card hand for `three-flushes`, by its straight's top card
/// otherwise), then by the house-way key.
pub fn qualifying_specials(cards: &[Card; 13], rules: &Ruleset) -> Vec<SpecialFound> {
    let way = HouseWay::new(rules);
    let mut table: Option<SubsetTable> = None;
    let mut found = Vec::new();
    for &(kind, value) in rules.specials {
        let setting = if kind.needs_rows() {
            let t = table.get_or_insert_with(|| SubsetTable::new(cards));
            match arrangement(kind, t, &way) {
                Some(s) => Some(s),
                None => continue,
            }
        } else if qualifies(kind, cards, None) {
            None
        } else {
            continue;
        };
        found.push(SpecialFound { kind, value, setting });
    }
    found
}

/// The special a claim of `best` takes (RULES §6): the highest value, and
/// among equal values the one listed later in the preset's table.
pub fn best_special(found: &[SpecialFound]) -> Option<&SpecialFound> {
    found.iter().fold(None, |best: Option<&SpecialFound>, s| match best {
        Some(b) if b.value > s.value => best,
        _ => Some(s),
    })
}

fn five_row_shows(kind: SpecialKind, s: Strength5) -> bool {
    let c = s.category();
    match kind {
        SpecialKind::ThreeStraights => matches!(c, Category::Straight | Category::StraightFlush),
        SpecialKind::ThreeFlushes => matches!(c, Category::Flush | Category::StraightFlush),
        SpecialKind::ThreeStraightFlushes => c == Category::StraightFlush,
        _ => false,
    }
}

/// How a front of this special compares with another's (None: the front does
/// not show the special).
fn front_shows(kind: SpecialKind, front: &[Card; 3]) -> Option<u32> {
    let suited = front[0].suit() == front[1].suit() && front[1].suit() == front[2].suit();
    match kind {
        SpecialKind::ThreeStraights => three_card_straight_top(front).map(u32::from),
        SpecialKind::ThreeFlushes => suited.then(|| eval3(front).0 as u32),
        SpecialKind::ThreeStraightFlushes if suited => three_card_straight_top(front).map(u32::from),
        _ => None,
    }
}

/// How an arrangement special compares with another of the same name: the
/// back's strength, the middle's, then the front's measure.
type SameName = (u16, u16, u32);

fn arrangement(kind: SpecialKind, t: &SubsetTable, way: &HouseWay) -> Option<Setting> {
    // (same-name comparison, house key, front mask, middle mask)
    let mut best: Option<(SameName, HouseKey, u16, u16)> = None;
    for &entry in t.by_strength.iter() {
        let sm = (entry >> 13) as u16;
        let m = (entry & FULL as u32) as u16;
        if !five_row_shows(kind, Strength5(sm)) {
            continue;
        }
        for (f, b) in fronts_and_backs(m) {
            let sb = t.strength[b as usize];
            if sb < sm || !five_row_shows(kind, Strength5(sb)) {
                continue;
            }
            let Some(front_measure) = front_shows(kind, &t.cards_of::<3>(f)) else {
                continue;
            };
            let compare = (sb, sm, front_measure);
            if best.as_ref().is_some_and(|(c, ..)| compare < *c) {
                continue;
            }
            let rows =
                RowStrengths { front: Strength3(t.strength[f as usize]), middle: Strength5(sm), back: Strength5(sb) };
            let key = way.key_parts(&rows, t.bits52(f), t.bits52(m));
            if best.as_ref().is_none_or(|(c, k, ..)| (compare, key) > (*c, *k)) {
                best = Some((compare, key, f, m));
            }
        }
    }
    let (_, _, f, m) = best?;
    let setting = Setting::new(t.cards_of(f), t.cards_of(m), t.cards_of(FULL ^ f ^ m)).display_order();
    // The engine's own check decides; the search only proposes.
    qualifies(kind, &setting.cards(), Some(&setting.set_rows())).then_some(setting)
}

// ---------------------------------------------------------------------------
// Fouls explained

/// Why a setting fouls, in words, and the house-way setting of its cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FoulExplanation {
    /// The weaker row that should have been at least the other.
    #[serde(serialize_with = "ser_row")]
    pub lower: Row,
    #[serde(serialize_with = "ser_row")]
    pub upper: Row,
    /// `middle pair of jacks is below front pair of queens`.
    pub reason: String,
    /// The reason and the legal setting in one sentence: `middle pair of jacks
    /// is below front pair of queens; a legal setting was: front …, middle …,
    /// back …`.
    pub message: String,
    pub legal_setting: Setting,
}

/// `None` when the rows do not foul; otherwise the reason in words (the same
/// words as the scoring sheet's `foul_reason`) and the house-way setting of
/// the same 13 cards.
///
/// # Panics
///
/// When two of the cards are the same card.
pub fn explain_foul(
    front: &[Card; 3],
    middle: &[Card; 5],
    back: &[Card; 5],
    rules: &Ruleset,
) -> Option<FoulExplanation> {
    let setting = Setting::new(*front, *middle, *back);
    explain_setting(&setting, &HouseWay::new(rules).set(&setting.cards()))
}

fn explain_setting(setting: &Setting, house: &Setting) -> Option<FoulExplanation> {
    let (lower, upper) = setting.strengths.foul()?;
    let reason = describe_foul(&setting.strengths, lower, upper);
    Some(FoulExplanation {
        lower,
        upper,
        message: format!("{reason}; a legal setting was: {house}"),
        reason,
        legal_setting: *house,
    })
}

// ---------------------------------------------------------------------------
// Analysis

/// Everything the setter says about 13 cards under a preset, for the CLI and
/// the HTTP endpoint.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    pub ruleset: &'static str,
    /// The 13 cards, ascending by rank then suit.
    #[serde(serialize_with = "ser_cards")]
    pub cards: [Card; 13],
    /// The house-way setting (never fouled).
    pub house_setting: Setting,
    /// The preset's row units of the house setting (module docs, 3).
    pub house_units: i64,
    /// Every special of the preset the cards make.
    pub specials: Vec<SpecialFound>,
    /// The special a claim of `best` would take, by name.
    #[serde(serialize_with = "ser_opt_kind")]
    pub best_special: Option<SpecialKind>,
    /// The rows as given, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<RowsCheck>,
}

/// Rows a player set, judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RowsCheck {
    pub setting: Setting,
    pub fouled: bool,
    /// Present when fouled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub foul: Option<FoulExplanation>,
    /// Whether the rows are exactly the house-way setting (same cards in
    /// each row).
    pub is_house_setting: bool,
}

/// The house setting, the specials and, when rows are given, whether they
/// foul and why. The rows, when given, are judged as given; the house setting
/// and the specials are those of `cards` (callers pass rows made of the same
/// 13 cards).
///
/// # Panics
///
/// When two of the cards are the same card.
pub fn analyse(cards: &[Card; 13], rows: Option<([Card; 3], [Card; 5], [Card; 5])>, rules: &Ruleset) -> Analysis {
    let way = HouseWay::new(rules);
    let house = way.set(cards);
    let specials = qualifying_specials(cards, rules);
    let best = best_special(&specials).map(|s| s.kind);
    let rows = rows.map(|(front, middle, back)| {
        let setting = Setting::new(front, middle, back);
        let same = |a: &[Card], b: &[Card]| cards_bits(a) == cards_bits(b);
        RowsCheck {
            fouled: setting.is_fouled(),
            foul: explain_setting(&setting, &house),
            is_house_setting: same(&front, &house.front) && same(&middle, &house.middle) && same(&back, &house.back),
            setting,
        }
    });
    let mut sorted = *cards;
    sorted.sort_unstable();
    Analysis {
        ruleset: rules.name,
        cards: sorted,
        house_units: way.units(&house.strengths),
        house_setting: house,
        specials,
        best_special: best,
        rows,
    }
}

// ---------------------------------------------------------------------------
// Serialisation helpers

fn ser_cards<S: Serializer, const N: usize>(cards: &[Card; N], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&display_cards(cards))
}

fn ser_kind<S: Serializer>(kind: &SpecialKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.name())
}

fn ser_opt_kind<S: Serializer>(kind: &Option<SpecialKind>, s: S) -> Result<S::Ok, S::Error> {
    match kind {
        Some(k) => s.serialize_some(k.name()),
        None => s.serialize_none(),
    }
}

fn ser_row<S: Serializer>(row: &Row, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(row.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triples_are_the_56_three_subsets() {
        let mut seen = std::collections::HashSet::new();
        for t in TRIPLES {
            assert!(t[0] < t[1] && t[1] < t[2] && t[2] < 8);
            assert!(seen.insert(t));
        }
        assert_eq!(seen.len(), 56);
    }

    #[test]
    fn front_top_rank_reads_the_significant_rank() {
        let f = |s: &str| -> [Card; 3] { super::super::card::parse_cards(s).unwrap().try_into().unwrap() };
        for (cards, rank) in [("Qh Qd 7c", 10u8), ("2h 2d 2c", 0), ("Ah 9d 3c", 12), ("7h 3d 3c", 1)] {
            let s = eval3(&f(cards));
            assert_eq!(front_top_rank(s), rank, "{cards}");
            assert_eq!(front_top_rank(s), s.ranks()[0], "{cards}");
        }
    }
}

// ---------------------------------------------------------------------------
// The request a CLI or an HTTP endpoint passes in

/// What to analyse: 13 loose `cards`, or a seat's `front`, `middle` and
/// `back`, under `ruleset` (default `hawaiian-gardens`).
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseInput {
    pub ruleset: Option<String>,
    pub cards: Option<String>,
    pub front: Option<String>,
    pub middle: Option<String>,
    pub back: Option<String>,
}

impl AnalyseInput {
    /// Reads JSON (`{"cards": …}` or rows), or plain text: 13 cards, or three
    /// rows separated by `/` or new lines (front first).
    pub fn parse(text: &str) -> Result<AnalyseInput, ShowdownError> {
        let text = text.trim();
        if text.starts_with('{') {
            return serde_json::from_str(text).map_err(|e| ShowdownError::Json(e.to_string()));
        }
        let rows: Vec<&str> = text.split(['/', '\n']).map(str::trim).filter(|r| !r.is_empty()).collect();
        Ok(match rows.as_slice() {
            [front, middle, back] => AnalyseInput {
                front: Some(front.to_string()),
                middle: Some(middle.to_string()),
                back: Some(back.to_string()),
                ..Default::default()
            },
            _ => AnalyseInput { cards: Some(text.to_string()), ..Default::default() },
        })
    }

    /// Validates the cards (notation, counts, repeats) and analyses them.
    pub fn analyse(&self) -> Result<Analysis, ShowdownError> {
        let name = self.ruleset.as_deref().unwrap_or(super::ruleset::DEFAULT_PRESET);
        let rules = super::ruleset::preset(name).ok_or_else(|| ShowdownError::UnknownPreset(name.to_string()))?;
        fn row<const N: usize>(row: &'static str, text: &str) -> Result<[Card; N], ShowdownError> {
            let cards =
                super::card::parse_cards(text).map_err(|error| ShowdownError::Hand(format!("{row}: {error}")))?;
            let found = cards.len();
            cards.try_into().map_err(|_| ShowdownError::Hand(format!("{row} has {found} cards; it needs {N}")))
        }
        let (cards, rows) = match (&self.cards, &self.front, &self.middle, &self.back) {
            (Some(text), None, None, None) => (row::<13>("cards", text)?, None),
            (None, Some(f), Some(m), Some(b)) => {
                let (front, middle, back) = (row::<3>("front", f)?, row::<5>("middle", m)?, row::<5>("back", b)?);
                let mut all = [front[0]; 13];
                all[..3].copy_from_slice(&front);
                all[3..8].copy_from_slice(&middle);
                all[8..].copy_from_slice(&back);
                (all, Some((front, middle, back)))
            }
            (Some(_), ..) => return Err(ShowdownError::Hand("give 13 cards or the three rows, not both".to_string())),
            _ => return Err(ShowdownError::Hand("give 13 cards, or front, middle and back".to_string())),
        };
        let mut seen = super::card::CardSet::new();
        for card in cards {
            if !seen.insert(card) {
                return Err(ShowdownError::Hand(format!("{card} appears twice")));
            }
        }
        Ok(analyse(&cards, rows, rules))
    }
}
