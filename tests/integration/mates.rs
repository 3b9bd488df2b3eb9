//! The alpha-beta searcher against the brute-force mate prover of `common`, written
//! from shakmaty alone: every record of epd/mates.epd and epd/mates_hard.epd is proved
//! first, then the engine must find each mate with its exact distance. Every search has a
//! fixed depth, so results do not depend on the machine.

use std::collections::HashSet;
use std::process::Command;

use crate::common::searching::*;
use harrier::search::MATE_SEARCH_EXTRA_PLIES;
use harrier::search::Score;
use harrier::search::alphabeta::presets::{Full, Plain};
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position, Role};

const MATES: &str = include_str!("../../epd/mates.epd");
const MATES_HARD: &str = include_str!("../../epd/mates_hard.epd");

// ---------------------------------------------------------------------------------------
// Brute-force mate prover (mates_within and mating_move: common/searching.rs)
// ---------------------------------------------------------------------------------------

/// The fewest moves to a forced mate (up to `limit`) and every move that achieves it.
fn shortest_mate(pos: &Chess, limit: u32) -> Option<(u32, HashSet<Move>)> {
    (1..=limit).find_map(|n| {
        let moves: HashSet<Move> = pos.legal_moves().into_iter().filter(|&m| mating_move(pos, m, n)).collect();
        (!moves.is_empty()).then_some((n, moves))
    })
}

#[test]
fn brute_force_prover_sanity() {
    // Back-rank mate: Ra8# only.
    let pos = chess("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let (n, moves) = shortest_mate(&pos, 2).unwrap();
    assert_eq!((n, moves.iter().map(|&m| uci(m)).collect::<Vec<_>>()), (1, vec!["a1a8".to_string()]));
    // With luft there is no mate in 2.
    assert!(shortest_mate(&chess("6k1/5pp1/7p/8/8/8/8/R5K1 w - - 0 1"), 2).is_none());
    // Stalemating is not mating: Qf7 stalemates (no replies at all), yet a lone queen
    // cannot mate in 2.
    let pos = chess("7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    let stalemate = play(&pos, harrier::moves::parse_uci(&pos, "g6f7").unwrap());
    assert!(stalemate.legal_moves().is_empty() && !stalemate.is_check());
    assert!(!mates_within(&pos, 2));
    // A position already mated has no mating move.
    assert!(!mates_within(&chess("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), 3));
}

// ---------------------------------------------------------------------------------------
// Mate suites
// ---------------------------------------------------------------------------------------

struct MateRecord {
    line: String,
    pos: Chess,
    best: HashSet<Move>,
    dm: u32,
    id: String,
    c1: String,
}

/// Parses the EPD records of a mate file: four FEN fields, then `bm`, `dm`, `id`, `c1`.
fn mate_records(text: &str) -> Vec<MateRecord> {
    let mut records = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        assert_eq!(fields.len(), 5, "{line}");
        let pos = chess(&format!("{} 0 1", fields[..4].join(" ")));
        let (mut best, mut dm, mut id, mut c1) = (HashSet::new(), 0, String::new(), String::new());
        for op in fields[4].split(';').map(str::trim).filter(|op| !op.is_empty()) {
            let (opcode, operand) = op.split_once(' ').unwrap_or((op, ""));
            match opcode {
                "bm" => {
                    for text in operand.split_whitespace() {
                        let san: SanPlus = text.parse().unwrap_or_else(|e| panic!("{line}: {text}: {e}"));
                        let m = san.san.to_move(&pos).unwrap_or_else(|e| panic!("{line}: {text}: {e}"));
                        // The suffix must be right too: `#` exactly when the move mates.
                        assert_eq!(SanPlus::from_move(pos.clone(), m).to_string(), text, "{line}");
                        assert!(best.insert(m), "{line}: {text} listed twice");
                    }
                }
                "dm" => dm = operand.parse().unwrap_or_else(|_| panic!("{line}: dm {operand}")),
                "id" => id = operand.trim_matches('"').to_string(),
                "c0" => {}
                "c1" => c1 = operand.trim_matches('"').to_string(),
                _ => panic!("{line}: unexpected opcode {opcode}"),
            }
        }
        assert!(!best.is_empty() && dm > 0 && !id.is_empty(), "{line}");
        records.push(MateRecord { line: line.to_string(), pos, best, dm, id, c1 });
    }
    records
}

/// The claim of every record, proven by brute force: the listed moves are exactly the
/// moves that mate in `dm`, and there is no shorter mate.
fn check_mate_claims(records: &[MateRecord]) {
    let mut ids = HashSet::new();
    for r in records {
        assert!(ids.insert(r.id.clone()), "duplicate id {}", r.id);
        assert!(!mates_within(&r.pos, r.dm - 1), "{}: a shorter mate exists", r.id);
        let (n, moves) = shortest_mate(&r.pos, r.dm).unwrap_or_else(|| panic!("{}: no mate in {}", r.id, r.dm));
        assert_eq!(n, r.dm, "{}", r.id);
        let text = |set: &HashSet<Move>| {
            let mut v: Vec<String> = set.iter().map(|&m| uci(m)).collect();
            v.sort();
            v
        };
        assert_eq!(text(&r.best), text(&moves), "{}: bm must list every mating move", r.id);
        // The engine's EPD reader sees the same moves.
        let record = harrier::epd::parse_record(&r.line, 0).unwrap_or_else(|e| panic!("{}: {e}", r.id));
        assert_eq!(record.id, r.id);
        assert_eq!(record.best.iter().copied().collect::<HashSet<_>>(), r.best, "{}", r.id);
    }
}

#[test]
fn mate_suite_claims_are_true() {
    let records = mate_records(MATES);
    for n in 1..=3 {
        let count = records.iter().filter(|r| r.dm == n).count();
        assert!(count >= 10, "only {count} mates in {n}");
    }
    // Both colours, castling, en passant and promotion mates are represented.
    assert!(records.iter().any(|r| r.pos.turn().is_black()));
    assert!(records.iter().any(|r| r.best.iter().any(|m| m.is_en_passant())));
    assert!(records.iter().any(|r| r.best.iter().any(|m| m.promotion() == Some(Role::Rook))));
    check_mate_claims(&records);
}

#[test]
fn hard_mate_suite_claims_are_true() {
    let records = mate_records(MATES_HARD);
    assert!(records.len() >= 10);
    assert!(records.iter().any(|r| r.best.iter().any(|m| m.is_castle())));
    check_mate_claims(&records);
}

/// The depth `go mate N` searches for a mate in N: 2N plies and a margin for the
/// selective search.
fn go_mate_depth(record: &MateRecord) -> u32 {
    2 * record.dm + MATE_SEARCH_EXTRA_PLIES
}

/// The full engine at the depth `depth_of` gives each record reports the exact mate
/// distance and plays a move that mates that fast.
fn check_engine_mates(records: &[MateRecord], depth_of: impl Fn(&MateRecord) -> u32) -> Vec<String> {
    let mut s = searcher();
    let mut failures = Vec::new();
    for r in records {
        let outcome = search_with::<Full>(&mut s, &r.pos, &[], depth_of(r));
        let best = outcome.best.expect("a move");
        if outcome.report.score != Score::Mate(r.dm as i32) || !mating_move(&r.pos, best, r.dm) {
            failures.push(format!("{}: {} {:?} (mate in {})", r.id, uci(best), outcome.report.score, r.dm));
        }
        assert_eq!(outcome.report.pv.first(), Some(&best), "{}: the PV starts with the best move", r.id);
    }
    failures
}

#[test]
fn engine_finds_every_mate() {
    let failures = check_engine_mates(&mate_records(MATES), go_mate_depth);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Deep enough for singular extensions, multi-cut and razoring to act at many nodes: the
/// mates stay found with their exact distance.
#[test]
fn engine_finds_every_mate_with_deep_selective_search() {
    let failures = check_engine_mates(&mate_records(MATES), |_| 10);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The plain search (no pruning, no quiescence) at depth 2·dm sees every line to the mate
/// and back, so it must report the exact distance on both files. (At depth 2·dm − 1 the
/// mated position would be a leaf, scored by the evaluation.)
#[test]
fn plain_search_proves_every_mate() {
    let mut records = mate_records(MATES);
    records.extend(mate_records(MATES_HARD));
    let mut s = searcher();
    for r in &records {
        let outcome = search_with::<Plain>(&mut s, &r.pos, &[], 2 * r.dm);
        let best = outcome.best.expect("a move");
        assert_eq!(outcome.report.score, Score::Mate(r.dm as i32), "{}", r.id);
        assert!(mating_move(&r.pos, best, r.dm), "{}: {} does not mate in {}", r.id, uci(best), r.dm);
    }
}

/// Mates that pruning at mate-score bounds once hid from the full engine (see
/// epd/mates_hard.epd): reverse futility, futility and delta pruning must leave them be.
#[test]
fn engine_finds_mates_hidden_by_pruning_at_mate_bounds() {
    let records: Vec<MateRecord> =
        mate_records(MATES_HARD).into_iter().filter(|r| r.c1 == "mate-score bounds").collect();
    assert!(records.len() >= 5);
    let failures = check_engine_mates(&records, go_mate_depth);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// With either evaluation: the network's bare-king endings (KQK, KRK) are valued by the
/// hand-crafted evaluation's mop-up terms, without which it misses some of these mates.
#[test]
fn epd_tool_solves_the_mate_suite() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/epd/mates.epd");
    // Deep enough for the suite's longest mate (in 3), as `go mate 3` searches.
    let depth = (2 * 3 + MATE_SEARCH_EXTRA_PLIES).to_string();
    for evaluation in ["nnue", "hce"] {
        let output = Command::new(env!("CARGO_BIN_EXE_harrier"))
            .args(["epd", path, "--depth", &depth, "--eval", evaluation])
            .output()
            .unwrap();
        assert!(output.status.success());
        let stdout = String::from_utf8(output.stdout).unwrap();
        let total = mate_records(MATES).len();
        assert_eq!(stdout.lines().last(), Some(format!("solved {total}/{total}").as_str()), "{evaluation}: {stdout}");
        assert_eq!(stdout.lines().filter(|l| l.contains(" ok ")).count(), total, "{evaluation}: {stdout}");
    }
}
