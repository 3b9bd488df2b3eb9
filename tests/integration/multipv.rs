//! MultiPV through the real binary: N lines, each its own `multipv k` with its own score,
//! distinct first moves, best first, every PV legal; no more lines than legal moves.

use shakmaty::Position;

use crate::common::*;

/// The lines of the last complete iteration: (multipv number, centipawns, pv), in order.
fn last_iteration(lines: &[String]) -> Vec<(i64, i64, Vec<String>)> {
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth") && l.contains(" pv ")).collect();
    let depth = infos.iter().rev().skip(1).find_map(|l| field(l, "depth")).expect("an iteration was reported");
    infos
        .iter()
        .filter(|l| field(l, "depth") == Some(depth) && !l.contains("bound"))
        .map(|l| {
            let cp = field(l, "cp").unwrap_or_else(|| 100_000 * field(l, "mate").unwrap_or(0).signum());
            (field(l, "multipv").expect("multipv"), cp, pv_of(l).iter().map(|m| m.to_string()).collect())
        })
        .collect()
}

#[test]
fn three_lines_are_distinct_ordered_and_legal() {
    let mut e = Harrier::spawn();
    e.send("setoption name MultiPV value 3");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let pos = position(Some(fen), &[]);
    e.send(&format!("position fen {fen}"));
    let search = e.go("go depth 8", &pos);
    // The final report repeats line 1 after the iteration's lines.
    let mut lines = last_iteration(&search.lines);
    lines.truncate(3);
    assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), [1, 2, 3], "{:#?}", search.lines);
    let firsts: Vec<&String> = lines.iter().map(|l| &l.2[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
    assert!(lines[0].1 >= lines[1].1 && lines[1].1 >= lines[2].1, "scores out of order: {lines:?}");
    assert_eq!(&search.best, firsts[0], "bestmove is line 1's move");
}

#[test]
fn no_more_lines_than_legal_moves() {
    let mut e = Harrier::spawn();
    e.send("setoption name MultiPV value 5");
    // Black's king has three legal moves.
    let fen = "k7/8/8/8/8/8/8/K6R b - - 0 1";
    let pos = position(Some(fen), &[]);
    assert_eq!(pos.legal_moves().len(), 3);
    e.send(&format!("position fen {fen}"));
    let search = e.go("go depth 5", &pos);
    let numbers: Vec<i64> = search.lines.iter().filter_map(|l| field(l, "multipv")).collect();
    assert!(numbers.iter().all(|&n| (1..=3).contains(&n)), "{numbers:?}");
    assert!(numbers.contains(&3), "{:#?}", search.lines);
}
