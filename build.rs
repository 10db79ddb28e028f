//! Generates the hand-evaluation lookup tables at build time.
//!
//! Every five-card hand is reduced to a rank multiset (non-flush) or a rank bit
//! mask (flush). Each class is ranked here once by a plain, obviously-correct
//! classifier; the engine then only adds card keys and reads tables.
//!
//! Strength encoding (shared with `src/engine/eval.rs`):
//! `category << 12 | index`, where `index` is the class's position within its
//! category, weakest first. Comparing two strengths is comparing two integers.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Rank keys whose sums over any five ranks (each used at most four times) are
/// all distinct: greedy smallest choice, checked below.
const RANK_KEYS: [u32; 13] = [0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415];
/// Rows of the perfect hash: `key >> PERF_SHIFT` selects an offset.
const PERF_SHIFT: u32 = 9;

const HIGH_CARD: u16 = 0;
const PAIR: u16 = 1;
const TWO_PAIR: u16 = 2;
const TRIPS: u16 = 3;
const STRAIGHT: u16 = 4;
const FLUSH: u16 = 5;
const FULL_HOUSE: u16 = 6;
const QUADS: u16 = 7;
const STRAIGHT_FLUSH: u16 = 8;

/// (category, significance ranks packed as nibbles, most significant first).
type Class = (u16, u32);

fn pack(ranks: &[u8]) -> u32 {
    ranks.iter().fold(0u32, |acc, &r| (acc << 4) | r as u32) << (4 * (5 - ranks.len()))
}

/// Top rank of a straight among five distinct ranks (`None` when not a straight).
fn straight_top(distinct_desc: &[u8]) -> Option<u8> {
    if distinct_desc.len() != 5 {
        return None;
    }
    if distinct_desc[0] - distinct_desc[4] == 4 {
        return Some(distinct_desc[0]);
    }
    if distinct_desc == [12, 3, 2, 1, 0] {
        return Some(3); // A-2-3-4-5: five-high
    }
    None
}

/// Classifies five ranks (counts per rank) as a non-flush hand.
fn classify(counts: &[u8; 13], flush: bool) -> Class {
    // groups sorted by (count desc, rank desc)
    let mut groups: Vec<(u8, u8)> =
        (0..13u8).rev().filter(|&r| counts[r as usize] > 0).map(|r| (counts[r as usize], r)).collect();
    groups.sort_by(|a, b| b.cmp(a));
    let ranks: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    if let Some(top) = straight_top(&ranks) {
        return (if flush { STRAIGHT_FLUSH } else { STRAIGHT }, pack(&[top]));
    }
    if flush {
        return (FLUSH, pack(&ranks));
    }
    let cat = match shape.as_slice() {
        [4, 1] => QUADS,
        [3, 2] => FULL_HOUSE,
        [3, 1, 1] => TRIPS,
        [2, 2, 1] => TWO_PAIR,
        [2, 1, 1, 1] => PAIR,
        [1, 1, 1, 1, 1] => HIGH_CARD,
        other => panic!("impossible shape {other:?}"),
    };
    (cat, pack(&ranks))
}

fn rank_multisets(n_cards: u8, max_each: u8) -> Vec<[u8; 13]> {
    fn rec(i: usize, left: u8, max_each: u8, cur: &mut [u8; 13], out: &mut Vec<[u8; 13]>) {
        if i == 13 {
            if left == 0 {
                out.push(*cur);
            }
            return;
        }
        for m in 0..=left.min(max_each) {
            cur[i] = m;
            rec(i + 1, left - m, max_each, cur, out);
        }
        cur[i] = 0;
    }
    let mut out = Vec::new();
    rec(0, n_cards, max_each, &mut [0; 13], &mut out);
    out
}

fn emit_array<T: std::fmt::Display>(out: &mut String, name: &str, ty: &str, items: &[T]) {
    // Small arrays are consts (usable in const evaluation), large ones statics.
    let kind = if items.len() <= 16 { "const" } else { "static" };
    writeln!(out, "pub(super) {kind} {name}: [{ty}; {}] = [", items.len()).unwrap();
    for chunk in items.chunks(24) {
        let line: Vec<String> = chunk.iter().map(|v| v.to_string()).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    // `embed_migrations!` reads the migrations' files when the crate is
    // compiled, and cargo cannot see a new migration's folder: the crate is
    // compiled again when the build script runs again.
    println!("cargo:rerun-if-changed=migrations");

    // All classes, then their index within the category.
    let multisets = rank_multisets(5, 4);
    let mut classes: BTreeSet<Class> = BTreeSet::new();
    let mut nonflush: Vec<(u32, Class)> = Vec::new();
    for counts in &multisets {
        let key: u32 = (0..13).map(|r| counts[r] as u32 * RANK_KEYS[r]).sum();
        let class = classify(counts, false);
        classes.insert(class);
        nonflush.push((key, class));
    }
    let mut flush_masks: Vec<(u16, Class)> = Vec::new();
    for mask in 0u16..8192 {
        if mask.count_ones() == 5 {
            let mut counts = [0u8; 13];
            for (r, c) in counts.iter_mut().enumerate() {
                *c = ((mask >> r) & 1) as u8;
            }
            let class = classify(&counts, true);
            classes.insert(class);
            flush_masks.push((mask, class));
        }
    }
    assert_eq!(classes.len(), 7462, "distinct five-card strengths");
    let strength = |class: &Class| -> u16 {
        let index = classes.range((class.0, 0)..*class).count() as u16;
        (class.0 << 12) | index
    };

    // Distinct sums check, then the perfect hash (row displacement).
    let mut keys: Vec<u32> = nonflush.iter().map(|e| e.0).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), nonflush.len(), "rank keys must give distinct sums");
    let max_key = *keys.last().unwrap();
    let rows = (max_key >> PERF_SHIFT) as usize + 1;
    let mut by_row: Vec<Vec<(u32, u16)>> = vec![Vec::new(); rows];
    for (key, class) in &nonflush {
        by_row[(key >> PERF_SHIFT) as usize].push((key & ((1 << PERF_SHIFT) - 1), strength(class)));
    }
    let mut order: Vec<usize> = (0..rows).collect();
    order.sort_by_key(|&r| std::cmp::Reverse(by_row[r].len()));
    let mut table: Vec<Option<u16>> = vec![None; 1 << 15];
    let mut offsets = vec![0u32; 1024];
    for &row in &order {
        if by_row[row].is_empty() {
            continue;
        }
        let mut base = 0usize;
        while by_row[row].iter().any(|&(low, _)| table[base + low as usize].is_some()) {
            base += 1;
        }
        for &(low, s) in &by_row[row] {
            table[base + low as usize] = Some(s);
        }
        // index = key + offset (wrapping) = base + low
        offsets[row] = (base as u32).wrapping_sub((row as u32) << PERF_SHIFT);
    }
    let used = table.iter().rposition(|e| e.is_some()).unwrap() + 1;
    assert!(used <= 1 << 14, "perfect hash table must fit 16384 entries");
    let lookup: Vec<u16> = table[..1 << 14].iter().map(|e| e.unwrap_or(0)).collect();

    let mut flush_lookup = vec![0u16; 8192];
    for (mask, class) in &flush_masks {
        flush_lookup[*mask as usize] = strength(class);
    }

    // Decoding table: for each category, the packed ranks of index i.
    let mut decode: Vec<Vec<u32>> = vec![Vec::new(); 9];
    for class in &classes {
        decode[class.0 as usize].push(class.1);
    }

    // Three-card front: index r0 << 8 | r1 << 4 | r2 (any order).
    let mut three = vec![0u16; 4096];
    for a in 0..13u32 {
        for b in 0..13u32 {
            for c in 0..13u32 {
                let mut r = [a, b, c];
                r.sort_unstable_by(|x, y| y.cmp(x));
                let s = if r[0] == r[2] {
                    (TRIPS << 12) as u32 | (r[0] * 169)
                } else if r[0] == r[1] {
                    (PAIR << 12) as u32 | (r[0] * 169 + r[2] * 13)
                } else if r[1] == r[2] {
                    (PAIR << 12) as u32 | (r[1] * 169 + r[0] * 13)
                } else {
                    (HIGH_CARD << 12) as u32 | (r[0] * 169 + r[1] * 13 + r[2])
                };
                three[(a << 8 | b << 4 | c) as usize] = s as u16;
            }
        }
    }

    let mut out = String::new();
    writeln!(out, "// Generated by build.rs. Do not edit.").unwrap();
    writeln!(out, "pub(super) const PERF_SHIFT: u32 = {PERF_SHIFT};").unwrap();
    emit_array(&mut out, "RANK_KEYS", "u32", &RANK_KEYS);
    emit_array(&mut out, "PERF_OFFSETS", "u32", &offsets);
    emit_array(&mut out, "RANK_LOOKUP", "u16", &lookup);
    emit_array(&mut out, "FLUSH_LOOKUP", "u16", &flush_lookup);
    emit_array(&mut out, "THREE_LOOKUP", "u16", &three);
    for (cat, ranks) in decode.iter().enumerate() {
        emit_array(&mut out, &format!("DECODE_{cat}"), "u32", ranks);
    }
    writeln!(
        out,
        "pub(super) static DECODE: [&[u32]; 9] = [&DECODE_0, &DECODE_1, &DECODE_2, &DECODE_3, &DECODE_4, &DECODE_5, &DECODE_6, &DECODE_7, &DECODE_8];"
    )
    .unwrap();
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("eval_tables.rs");
    std::fs::write(dest, out).unwrap();
}
