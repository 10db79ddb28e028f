//! Scoring a showdown: each seat's hand judged (fouls, specials, royalties,
//! fantasyland), every pair's outcome in units (RULES §4–§6), then the
//! chip-bounded settlement (RULES §8).

use rust_decimal::Decimal;
use serde::Serialize;

use super::card::{ACE, JACK};
use super::eval::Category;
use super::options::{Penalty, ACE_OF_SPADES_UNITS, MOON_UNITS, POOL_SWEEP_UNITS};
pub use super::rows::RowStrengths;
use super::ruleset::{
    row_value, FantasylandStay, NormalScoring, Row, RowPoints, SpecialVsSpecial, Surrender, ACES_VALUES,
};
use super::settlement::{settle, Transaction};
use super::showdown::{Claim, Showdown, ShowdownError};
use super::special::{qualifies, same_name_key, SpecialKind};
use super::words::describe_foul;

/// What the engine found in one seat's hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatJudgement {
    pub rows: Option<RowStrengths>,
    pub fouled: bool,
    pub foul_reason: Option<String>,
    pub surrendered: bool,
    pub special: Option<(SpecialKind, i64)>,
    pub aces: u8,
    pub royalties: i64,
    pub fantasyland_next: bool,
    /// Cards the seat gets in fantasyland next hand (when it qualifies).
    pub fantasyland_cards: Option<usize>,
    /// Shooting the moon: a jack-high back without a foul.
    pub moon: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatResult {
    pub seat: u32,
    pub fouled: bool,
    pub surrendered: bool,
    pub special: Option<&'static str>,
    pub aces: u8,
    pub royalties: i64,
    pub fantasyland_next: bool,
    pub stack_start: Decimal,
    pub rake: Decimal,
    pub stack_end: Decimal,
    pub net: Decimal,
    /// Why the seat is fouled, in words (an addition to the contract).
    pub foul_reason: Option<String>,
    /// Open-face table play (only when the showdown gives `options`): what
    /// the seat may still win or lose after this hand (RULES §8; under
    /// tournament rules its points), carried into a fantasyland hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposure_end: Option<Decimal>,
    /// Cards the seat is dealt in fantasyland next hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fantasyland_cards: Option<usize>,
    /// The seat shot the moon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moon: Option<bool>,
    /// Tournament rules: the seat is out of the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<bool>,
    /// Tournament penalties recorded against the seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalties: Option<Vec<&'static str>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PairResult {
    pub seats: [u32; 2],
    pub special_units: i64,
    pub main_units: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JackpotTrigger {
    pub kind: &'static str,
    pub loser: u32,
    pub winner: u32,
}

/// The scored showdown: the settlement sheet (CONTRACT.md "Result").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreResult {
    pub ruleset: &'static str,
    pub seats: Vec<SeatResult>,
    pub pairs: Vec<PairResult>,
    pub transactions: Vec<Transaction>,
    pub jackpot_triggers: Vec<JackpotTrigger>,
    pub jackpot_contribution: Decimal,
}

fn judge_seat(showdown: &Showdown, seat: &super::showdown::Seat) -> Result<SeatJudgement, ShowdownError> {
    let rules = showdown.ruleset;
    let opts = showdown.options;
    let all = seat.cards.all();
    let aces = all.iter().filter(|c| c.rank() == ACE).count() as u8;
    let set_rows = seat.cards.set_rows();
    let special = match seat.claim {
        None => None,
        Some(Claim::Named(kind)) => {
            if !qualifies(kind, &all, set_rows.as_ref()) {
                return Err(ShowdownError::ClaimNotMade { seat: seat.number, claim: kind.name().to_string() });
            }
            showdown.specials.iter().find(|s| s.0 == kind).copied()
        }
        Some(Claim::Best) => {
            // Highest value; among equal values the one listed later.
            let best = showdown.specials.iter().filter(|(k, _)| qualifies(*k, &all, set_rows.as_ref())).fold(
                None,
                |best: Option<(SpecialKind, i64)>, &(k, v)| match best {
                    Some((_, bv)) if bv > v => best,
                    _ => Some((k, v)),
                },
            );
            if best.is_none() {
                let names: Vec<&str> = showdown.specials.iter().map(|(k, _)| k.name()).collect();
                return Err(ShowdownError::ClaimNotMade {
                    seat: seat.number,
                    claim: format!("best (none of {}'s specials: {})", rules.name, names.join(", ")),
                });
            }
            best
        }
    };
    let strengths = set_rows.as_ref().map(|r| RowStrengths {
        front: r.front_strength,
        middle: r.middle_strength,
        back: r.back_strength,
    });
    // A dead hand (tournament rules) pays the full foul plus royalties.
    let declared_foul =
        (seat.surrender && rules.surrender == Surrender::DeclaredFoul) || seat.has_penalty(Penalty::DeadHand);
    let foul = match (special, seat.surrender, strengths) {
        (None, false, Some(s)) => s.foul(),
        _ => None,
    };
    let fouled = declared_foul || foul.is_some();
    let foul_reason = match (foul, strengths) {
        (Some((lower, upper)), Some(s)) => Some(describe_foul(&s, lower, upper)),
        _ if seat.has_penalty(Penalty::DeadHand) => Some("the hand was declared dead".to_string()),
        _ if declared_foul => Some("surrender is a declared foul".to_string()),
        _ => None,
    };
    let royalties = match strengths {
        Some(s) if rules.has_royalties() && !fouled => s.royalties(opts.royalty_table),
        _ => 0,
    };
    let fantasyland_next = match (rules.fantasyland, strengths) {
        (Some(stay), Some(s)) if !fouled => {
            let front_trips = s.front.category() == Category::Trips;
            if seat.in_fantasyland {
                front_trips
                    || s.back.category() >= Category::Quads
                    || (stay == FantasylandStay::Ofc && s.middle.category() >= Category::FullHouse)
            } else {
                opts.enters_fantasyland(s.front)
            }
        }
        _ => false,
    };
    let fantasyland_cards = match strengths {
        Some(s) if fantasyland_next => Some(opts.fantasyland_cards(rules, s.front, !seat.in_fantasyland)),
        _ => None,
    };
    let moon = match strengths {
        Some(s) if opts.shoot_the_moon && !fouled => {
            s.back.category() == Category::HighCard && s.back.ranks().get(0) == JACK
        }
        _ => false,
    };
    Ok(SeatJudgement {
        rows: strengths,
        fouled,
        foul_reason,
        surrendered: seat.surrender,
        special,
        aces,
        royalties,
        fantasyland_next,
        fantasyland_cards,
        moon,
    })
}

/// Judges every seat (in input order) without scoring pairs: fouls, claims,
/// royalties and fantasyland. Errors when a claim is not made.
pub fn judge(showdown: &Showdown) -> Result<Vec<SeatJudgement>, ShowdownError> {
    showdown.seats.iter().map(|s| judge_seat(showdown, s)).collect()
}

/// Row results of `p` against `q` (+1 p wins, -1 q wins, 0 push), fouls
/// included; `None` when both are fouled (nothing is exchanged).
fn row_results(p: &SeatJudgement, q: &SeatJudgement, ties_to: i64) -> Option<[i64; 3]> {
    match (p.fouled, q.fouled) {
        (true, true) => None,
        (true, false) => Some([-1; 3]),
        (false, true) => Some([1; 3]),
        (false, false) => {
            let (a, b) = (p.rows?, q.rows?);
            Some(Row::ALL.map(|row| match a.compare(&b, row) {
                0 => ties_to,
                r => r,
            }))
        }
    }
}

fn side_points(cfg: &RowPoints, me: &SeatJudgement, results: &[i64; 3], sign: i64) -> i64 {
    let rows = me.rows;
    let mut points = 0;
    let mut won = 0;
    for row in Row::ALL {
        let won_row = results[row as usize] == sign;
        let category = rows.map(|r| r.category(row));
        if won_row {
            won += 1;
            points += category.map_or(1, |c| match row_value(cfg.row_won, row, c) {
                0 => 1,
                v => v,
            });
            // Seed 004, "Higher payment in the middle": one more for four of
            // a kind or a straight flush won in the middle.
            if cfg.higher_middle_payment
                && row == Row::Middle
                && matches!(category, Some(Category::Quads | Category::StraightFlush))
            {
                points += 1;
            }
        }
        if !me.fouled && (won_row || !cfg.extras_on_wins_only) {
            points += category.map_or(0, |c| row_value(cfg.extras, row, c));
        }
    }
    if cfg.royalties {
        points += me.royalties;
    }
    if won == 3 {
        points = (points + cfg.sweep_bonus) * cfg.sweep_multiplier;
    }
    points
}

fn row_points(cfg: &RowPoints, p: &SeatJudgement, q: &SeatJudgement, results: &[i64; 3]) -> i64 {
    let mut pp = side_points(cfg, p, results, 1);
    let mut qp = side_points(cfg, q, results, -1);
    if cfg.overall_point {
        match pp.cmp(&qp) {
            std::cmp::Ordering::Greater => pp += 1,
            std::cmp::Ordering::Less => qp += 1,
            std::cmp::Ordering::Equal => {}
        }
    }
    pp - qp
}

/// The higher value is paid its full value; equal values exchange nothing.
fn higher_value_paid(vp: i64, vq: i64) -> i64 {
    match vp.cmp(&vq) {
        std::cmp::Ordering::Greater => vp,
        std::cmp::Ordering::Less => -vq,
        std::cmp::Ordering::Equal => 0,
    }
}

fn special_units(showdown: &Showdown, j: &[SeatJudgement], p: usize, q: usize) -> i64 {
    let rules = showdown.ruleset;
    match (j[p].special, j[q].special) {
        (None, None) => 0,
        (Some((_, v)), None) => v,
        (None, Some((_, v))) => -v,
        (Some((kp, vp)), Some((kq, vq))) => match rules.special_vs_special {
            SpecialVsSpecial::Difference => vp - vq,
            SpecialVsSpecial::DragonBeatsAll => match (kp == SpecialKind::Dragon, kq == SpecialKind::Dragon) {
                (true, true) => 0,
                (true, false) => vp,
                (false, true) => -vq,
                (false, false) => higher_value_paid(vp, vq),
            },
            // No pictures has no place in the seed's order: by its value.
            SpecialVsSpecial::LaterPaysFull if kp == SpecialKind::NoPictures || kq == SpecialKind::NoPictures => {
                higher_value_paid(vp, vq)
            }
            SpecialVsSpecial::LaterPaysFull => {
                let pos = |k| showdown.specials.iter().position(|s| s.0 == k);
                match pos(kp).cmp(&pos(kq)) {
                    std::cmp::Ordering::Greater => vp,
                    std::cmp::Ordering::Less => -vq,
                    std::cmp::Ordering::Equal => {
                        let key = |i: usize| {
                            let cards = &showdown.seats[i].cards;
                            same_name_key(kp, &cards.all(), cards.set_rows().as_ref())
                        };
                        match key(p).cmp(&key(q)) {
                            std::cmp::Ordering::Greater => vp,
                            std::cmp::Ordering::Less => -vq,
                            std::cmp::Ordering::Equal => 0,
                        }
                    }
                }
            }
        },
    }
}

fn bad_beat_hand(j: &SeatJudgement) -> bool {
    match j.rows {
        Some(s) if !j.fouled && j.special.is_none() && !j.surrendered => {
            s.back.category() == Category::StraightFlush
                && s.middle.category() >= Category::Trips
                && s.front.category() >= Category::Pair
        }
        _ => false,
    }
}

/// Open-face table play added to a pair's main units (positive: `q` pays
/// `p`): shooting the moon, tournament penalties, and the missed-turn rule
/// that a seat takes no chips from a seat that was itself penalised.
fn table_play_units(showdown: &Showdown, judged: &[SeatJudgement], p: usize, q: usize, main: i64) -> i64 {
    if !showdown.table_play() {
        return 0;
    }
    let mut units = 0;
    units += MOON_UNITS * (judged[p].moon as i64 - judged[q].moon as i64);
    let penalty = |i: usize| showdown.seats[i].penalties.iter().map(|x| x.units()).sum::<i64>();
    units += penalty(q) - penalty(p);
    let total = main + units;
    let (sp, sq) = (&showdown.seats[p], &showdown.seats[q]);
    if (total > 0 && sp.has_penalty(Penalty::MissedTurn) && !sq.penalties.is_empty())
        || (total < 0 && sq.has_penalty(Penalty::MissedTurn) && !sp.penalties.is_empty())
    {
        return -main; // the pair settles nothing
    }
    units
}

/// Scores a valid showdown into its settlement sheet.
pub fn score(showdown: &Showdown) -> Result<ScoreResult, ShowdownError> {
    let rules = showdown.ruleset;
    let options = showdown.options;
    let normal = options.normal(rules);
    let surrender = options.surrender(rules);
    let judged = judge(showdown)?;
    let n = showdown.seats.len();
    let order: Vec<usize> = showdown.settlement_order().collect();

    // Pairs in settlement order, with the kind of outcome each has.
    let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(n * (n - 1) / 2);
    for a in 0..n {
        for b in a + 1..n {
            pairs.push((order[a], order[b]));
        }
    }
    let ties_to = |p: usize, q: usize| -> i64 {
        match rules.structure {
            super::ruleset::Structure::Bank if p == showdown.dealer => 1,
            super::ruleset::Structure::Bank if q == showdown.dealer => -1,
            _ => 0,
        }
    };
    let is_normal = |p: usize, q: usize| {
        showdown.pair_plays(p, q)
            && judged[p].special.is_none()
            && judged[q].special.is_none()
            && (surrender == Surrender::DeclaredFoul || (!judged[p].surrendered && !judged[q].surrendered))
    };
    let normal_rows: Vec<Option<[i64; 3]>> = pairs
        .iter()
        .map(|&(p, q)| if is_normal(p, q) { row_results(&judged[p], &judged[q], ties_to(p, q)) } else { None })
        .collect();
    // The rows of seat `s` against the other seat of pair `k`, as seen by `s`.
    let rows_of = |k: usize, s: usize| -> Option<[i64; 3]> {
        let sign = if pairs[k].0 == s { 1 } else { -1 };
        normal_rows[k].map(|r| r.map(|x| x * sign))
    };

    // Hawaiian gardens: a seat sweeping every opponent it has a normal outcome with.
    let sweeps_table: Vec<bool> = (0..n)
        .map(|s| {
            let mut opponents = 0;
            let mut swept = 0;
            for (k, &(p, q)) in pairs.iter().enumerate() {
                if (p == s || q == s) && is_normal(p, q) {
                    opponents += 1;
                    if rows_of(k, s).is_some_and(|r| r == [1; 3]) {
                        swept += 1;
                    }
                }
            }
            opponents >= 2 && swept == opponents
        })
        .collect();
    // Seed 004 (vietnamese, singapore options): a seat winning all three
    // rows against every other seat at the table, each in a normal outcome.
    let sweeps_all: Vec<bool> = (0..n)
        .map(|s| {
            pairs
                .iter()
                .enumerate()
                .filter(|(_, &(p, q))| (p == s || q == s) && showdown.pair_plays(p, q))
                .all(|(k, &(p, q))| is_normal(p, q) && rows_of(k, s).is_some_and(|r| r == [1; 3]))
        })
        .collect();
    let (sweep_one, sweep_all) = options.sweep_multipliers();

    let mut results = Vec::with_capacity(pairs.len());
    let mut triggers = Vec::new();
    for (k, &(p, q)) in pairs.iter().enumerate() {
        let (jp, jq) = (&judged[p], &judged[q]);
        let mut special = 0;
        let mut main = 0;
        if showdown.pair_plays(p, q) {
            if jp.special.is_some() || jq.special.is_some() {
                special = special_units(showdown, &judged, p, q);
            } else if let (Surrender::Pays(x), true) = (surrender, jp.surrendered || jq.surrendered) {
                main = match (jp.surrendered, jq.surrendered) {
                    (true, false) => -x,
                    (false, true) => x,
                    _ => 0,
                };
            } else if let Some(r) = normal_rows[k] {
                main = match normal {
                    NormalScoring::HawaiianGardens { bonuses } => {
                        let won_p = r.iter().filter(|&&x| x == 1).count();
                        let won_q = r.iter().filter(|&&x| x == -1).count();
                        let sweep = |s: usize| match rules.table_sweep {
                            Some(t) if sweeps_table[s] => t,
                            _ => 6,
                        };
                        let base = if won_p == 3 {
                            sweep(p)
                        } else if won_q == 3 {
                            -sweep(q)
                        } else {
                            (won_p as i64 - won_q as i64).signum()
                        };
                        let bonus: i64 = Row::ALL
                            .iter()
                            .map(|&row| {
                                let winner = match r[row as usize] {
                                    1 => jp,
                                    -1 => jq,
                                    _ => return 0,
                                };
                                let v = winner.rows.map_or(0, |s| row_value(bonuses, row, s.category(row)));
                                v * r[row as usize]
                            })
                            .sum();
                        base + bonus
                    }
                    NormalScoring::Rows(cfg) => {
                        // Tournament: a seat that missed its turn pays no
                        // royalties that hand.
                        let missed = |i: usize| showdown.seats[i].has_penalty(Penalty::MissedTurn);
                        let units = if cfg.royalties && (missed(p) || missed(q)) {
                            let (mut jp, mut jq) = (jp.clone(), jq.clone());
                            if missed(q) {
                                jp.royalties = 0;
                            }
                            if missed(p) {
                                jq.royalties = 0;
                            }
                            row_points(&cfg, &jp, &jq, &r)
                        } else {
                            row_points(&cfg, jp, jq, &r)
                        };
                        // Seed 004 options: a sweep is paid double (or
                        // triple against every opponent).
                        let multiplier = |s: usize| if sweeps_all[s] { sweep_all } else { sweep_one };
                        if r == [1; 3] {
                            units * multiplier(p)
                        } else if r == [-1; 3] {
                            units * multiplier(q)
                        } else {
                            units
                        }
                    }
                    NormalScoring::Pool | NormalScoring::PoolTiesCollect => 0, // settled below, over the table
                    NormalScoring::SingleWinnerTopTotal => r.iter().sum(),
                    NormalScoring::SingleWinner => 0, // settled below, over the whole table
                };
                if rules.bad_beat {
                    if r == [-1; 3] && bad_beat_hand(jp) {
                        triggers.push(JackpotTrigger {
                            kind: "bad-beat",
                            loser: showdown.seats[p].number,
                            winner: showdown.seats[q].number,
                        });
                    } else if r == [1; 3] && bad_beat_hand(jq) {
                        triggers.push(JackpotTrigger {
                            kind: "bad-beat",
                            loser: showdown.seats[q].number,
                            winner: showdown.seats[p].number,
                        });
                    }
                }
            }
            if rules.aces_bet && showdown.seats[p].aces_bet && showdown.seats[q].aces_bet {
                main += ACES_VALUES[jp.aces as usize] - ACES_VALUES[jq.aces as usize];
            }
            // Seed 004 (singapore option): the dealer made to deal by the
            // ace of spades is paid 1 by each opponent.
            main += ACE_OF_SPADES_UNITS
                * (showdown.seats[p].ace_of_spades_dealer as i64 - showdown.seats[q].ace_of_spades_dealer as i64);
            main += table_play_units(showdown, &judged, p, q, main);
        }
        results.push([special, main]);
    }

    match normal {
        NormalScoring::PoolTiesCollect => pool_units(&judged, &pairs, &mut results, true, false),
        NormalScoring::Pool => pool_units(&judged, &pairs, &mut results, false, options.pool_sweep),
        NormalScoring::SingleWinnerTopTotal => single_winner_top_total(n, &pairs, &mut results),
        NormalScoring::SingleWinner => {
            let units = options.winner_units.unwrap_or(0);
            single_winner_units(n, &pairs, &normal_rows, units, &mut results)
        }
        _ => {}
    }

    let pair_results: Vec<PairResult> = pairs
        .iter()
        .zip(&results)
        .map(|(&(p, q), r)| PairResult {
            seats: [showdown.seats[p].number, showdown.seats[q].number],
            special_units: r[0],
            main_units: r[1],
        })
        .collect();

    let settlement = settle(showdown, &pairs, &results);
    let table_play = showdown.table_play();
    let seats = showdown
        .seats
        .iter()
        .zip(&judged)
        .enumerate()
        .map(|(i, (s, j))| {
            let stack_end = settlement.stacks[i];
            SeatResult {
                seat: s.number,
                fouled: j.fouled,
                surrendered: j.surrendered,
                special: j.special.map(|(k, _)| k.name()),
                aces: j.aces,
                royalties: j.royalties,
                fantasyland_next: j.fantasyland_next,
                stack_start: s.stack,
                rake: showdown.rake_per_seat,
                stack_end,
                net: settlement.nets[i],
                foul_reason: j.foul_reason.clone(),
                exposure_end: table_play.then(|| settlement.exposures[i]),
                fantasyland_cards: if table_play { j.fantasyland_cards } else { None },
                moon: (table_play && options.shoot_the_moon).then_some(j.moon),
                out: (table_play && options.tournament).then(|| settlement.out[i]),
                penalties: (table_play && options.tournament).then(|| s.penalties.iter().map(|p| p.name()).collect()),
            }
        })
        .collect();
    Ok(ScoreResult {
        ruleset: rules.name,
        seats,
        pairs: pair_results,
        transactions: settlement.transactions,
        jackpot_triggers: triggers,
        jackpot_contribution: showdown.jackpot_per_seat * Decimal::from(n as u32),
    })
}

/// `pool`: for each row, the seat holding the best row at the table (fouled
/// hands excluded) collects 1 from every other seat: its third of the pool.
/// Revision 1 (`ties_collect`): every seat tied for the best collects 1 from
/// each seat that is not. From revision 2 a row tied for the best pays
/// nothing. With the `pool_sweep` option a seat that alone holds the best of
/// all three rows also collects 3 from each other seat (seed 004).
fn pool_units(
    judged: &[SeatJudgement],
    pairs: &[(usize, usize)],
    results: &mut [[i64; 2]],
    ties_collect: bool,
    sweep: bool,
) {
    let live: Vec<Option<RowStrengths>> = judged.iter().map(|j| if j.fouled { None } else { j.rows }).collect();
    let best_row = |row: Row| -> Vec<bool> {
        let best = live.iter().flatten().max_by(|a, b| a.compare(b, row).cmp(&0));
        live.iter()
            .map(|s| match (s, best) {
                (Some(s), Some(b)) => s.compare(b, row) == 0,
                _ => false,
            })
            .collect()
    };
    let best: Vec<Vec<bool>> = Row::ALL
        .iter()
        .map(|&r| {
            let b = best_row(r);
            if ties_collect || b.iter().filter(|&&x| x).count() == 1 {
                b
            } else {
                vec![false; b.len()]
            }
        })
        .collect();
    let alone = |s: usize| best.iter().all(|b| b[s]);
    for (k, &(p, q)) in pairs.iter().enumerate() {
        results[k][1] += best.iter().map(|b| b[p] as i64 - b[q] as i64).sum::<i64>();
        if sweep {
            results[k][1] += POOL_SWEEP_UNITS * (alone(p) as i64 - alone(q) as i64);
        }
    }
}

/// `single-winner` revision 1: only the seat with the highest total over its
/// pairs collects, and only from the seats it beat; no single winner, no
/// payment.
fn single_winner_top_total(n: usize, pairs: &[(usize, usize)], results: &mut [[i64; 2]]) {
    let mut totals = vec![0i64; n];
    for (k, &(p, q)) in pairs.iter().enumerate() {
        totals[p] += results[k][1];
        totals[q] -= results[k][1];
    }
    let top = totals.iter().copied().max().unwrap_or(0);
    let winners: Vec<usize> = (0..n).filter(|&s| totals[s] == top).collect();
    let winner = (winners.len() == 1).then(|| winners[0]);
    for (k, &(p, q)) in pairs.iter().enumerate() {
        let units = results[k][1];
        results[k][1] = match winner {
            Some(w) if w == p && units > 0 => units,
            Some(w) if w == q && units < 0 => units,
            _ => 0,
        };
    }
}

/// `single-winner` (seed 004): "In order to win, you have to beat each of
/// the other players on at least two out of three hands. Presumably if no
/// one achieves this, no one wins." The winner collects `units` from each
/// other seat; no other pair pays.
fn single_winner_units(
    n: usize,
    pairs: &[(usize, usize)],
    rows: &[Option<[i64; 3]>],
    units: i64,
    results: &mut [[i64; 2]],
) {
    let beats_on_two = |k: usize, s: usize| {
        let sign = if pairs[k].0 == s { 1 } else { -1 };
        rows[k].is_some_and(|r| r.iter().filter(|&&x| x == sign).count() >= 2)
    };
    let winner = (0..n)
        .find(|&s| pairs.iter().enumerate().filter(|(_, &(p, q))| p == s || q == s).all(|(k, _)| beats_on_two(k, s)));
    for (k, &(p, q)) in pairs.iter().enumerate() {
        results[k][1] += match winner {
            Some(w) if w == p => units,
            Some(w) if w == q => -units,
            _ => 0,
        };
    }
}
