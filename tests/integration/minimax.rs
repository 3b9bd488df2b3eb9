//! Minimax mode (`setoption name SearchMode value Minimax`), the full-width twin of the
//! alpha-beta searcher: at a fixed depth its value is the minimax value, checked against a
//! plain negamax written here with the same evaluation and the same quiescence; through the
//! real binary it is offered, plays, stops and finds mates.

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::searching::*;
use crate::common::{Harrier, PROMPT, TIMEOUT, WATCH, position};
use harrier::engine::searchers::{self, SearchMode};
use harrier::search::alphabeta::presets::{Features, Preset};
use harrier::search::{INFINITY, Limits, Score, SearchJob, Signals, Silent, mated_in};
use shakmaty::{Chess, Position};

// ---------------------------------------------------------------------------------------
// Minimax mode equals minimax
// ---------------------------------------------------------------------------------------

/// Plain negamax over every legal move to `depth`, quiescence with the SEE filter at the
/// leaves ([`reference_quiescence`]); positions without moves are mated or stalemate, and
/// below the root the fifty-move rule and insufficient material draw. (Repetition cannot occur: the roots have no game history and
/// a position repeats four plies after itself at the soonest, beyond the interior nodes of
/// the depths used here.)
fn minimax(pos: &Chess, depth: u32, ply: usize) -> i32 {
    if depth == 0 {
        return reference_quiescence(pos, ply, -INFINITY, INFINITY, true);
    }
    if ply > 0 && ((pos.halfmoves() >= 100 && !pos.is_checkmate()) || pos.is_insufficient_material()) {
        return 0;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() { mated_in(ply) } else { 0 };
    }
    moves.into_iter().map(|m| -minimax(&play(pos, m), depth - 1, ply + 1)).max().expect("a move")
}

/// Positions for the comparison: the bench positions (openings, tactical middlegames,
/// endgames) and a few with mates and promotions close by.
fn positions() -> Vec<Chess> {
    let extra = [
        "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1",
        "8/p1B5/kPBK4/7p/8/5P2/8/1N5n w - - 0 1",
        "2q5/4B2p/7n/4p1pk/P2n1b2/R3P2P/2r3P1/1Q3R1K b - - 0 1",
        "8/8/8/8/8/8/2K1k3/2Q5 w - - 0 1",
    ];
    harrier::bench::POSITIONS.iter().chain(extra.iter()).map(|fen| chess(fen)).collect()
}

/// The minimax preset without the transposition table.
struct MinimaxWithoutTable;

impl Preset for MinimaxWithoutTable {
    const FEATURES: Features = Features { transposition_table: false, ..Features::MINIMAX };
}

/// [`MinimaxWithoutTable`] with quiescence's delta pruning.
struct MinimaxWithDeltaPruning;

impl Preset for MinimaxWithDeltaPruning {
    const FEATURES: Features = Features { transposition_table: false, delta_pruning: true, ..Features::MINIMAX };
}

/// The searcher of minimax mode, as the engine builds it.
fn minimax_mode() -> Box<dyn harrier::search::Searcher> {
    searchers::build(SearchMode::Minimax, 16, Arc::new(Signals::default())).expect("a 16 MB table")
}

/// A fixed-depth search of `root` from a fresh start.
fn search_mode(s: &mut dyn harrier::search::Searcher, root: &Chess, depth: u32) -> harrier::search::SearchOutcome {
    s.new_game();
    let job = SearchJob {
        root: root.clone(),
        history: Vec::new(),
        limits: Limits { depth: Some(depth), ..Limits::default() },
        move_overhead: 0,
        started: Instant::now(),
    };
    s.search(&job, &mut Silent)
}

/// Without the table, minimax mode is alpha-beta over a function of the position alone
/// (no selectivity, no window-dependent pruning in quiescence, no correction learnt from
/// earlier searches), so it must return the minimax value, and play a move worth it.
#[test]
fn minimax_mode_without_the_table_equals_minimax() {
    let mut s = searcher();
    for depth in [2, 3] {
        for pos in positions() {
            let expected = minimax(&pos, depth, 0);
            let outcome = search_with::<MinimaxWithoutTable>(&mut s, &pos, &[], depth);
            let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
            assert_eq!(outcome.report.score, Score::from_value(expected), "depth {depth}: {fen}");
            let best = outcome.best.expect("a move");
            assert_eq!(-minimax(&play(&pos, best), depth - 1, 1), expected, "depth {depth}: {fen}: {}", uci(best));
        }
    }
}

/// The mode as the engine builds it, with the table: the table could make a value differ
/// from minimax (a quiescence node may take a deeper main-search entry of the same
/// position), which these roots at these depths do not meet, so the values agree.
#[test]
fn minimax_mode_equals_minimax() {
    let mut s = minimax_mode();
    for depth in [2, 3] {
        for pos in positions() {
            let expected = minimax(&pos, depth, 0);
            let outcome = search_mode(s.as_mut(), &pos, depth);
            let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
            assert_eq!(outcome.report.depth, depth, "{fen}");
            assert_eq!(outcome.report.score, Score::from_value(expected), "depth {depth}: {fen}");
        }
    }
}

/// Delta pruning depends on the window, which is why minimax mode leaves it out: with it,
/// alpha-beta no longer returns the minimax value. (Without a position where it matters
/// the choice would be untested.)
#[test]
fn delta_pruning_would_break_the_equality() {
    let mut s = searcher();
    let differs = positions().iter().any(|pos| {
        search_with::<MinimaxWithDeltaPruning>(&mut s, pos, &[], 2).report.score
            != Score::from_value(minimax(pos, 2, 0))
    });
    assert!(differs);
}

// ---------------------------------------------------------------------------------------
// Through the real binary
// ---------------------------------------------------------------------------------------

/// How long a full-width `go mate 3` may take on a loaded machine.
const MATE_TIMEOUT: Duration = Duration::from_secs(60);

/// An engine in minimax mode.
fn minimax_engine() -> Harrier {
    let mut e = Harrier::spawn();
    e.send("setoption name SearchMode value Minimax");
    let lines = e.ready();
    assert!(lines.is_empty(), "{lines:#?}");
    e
}

#[test]
fn uci_offers_minimax_mode_and_multipv_once() {
    let mut e = Harrier::spawn();
    e.send("uci");
    let lines = e.read_until("uciok", TIMEOUT);
    let combo = "option name SearchMode type combo default AlphaBeta var AlphaBeta var Bandwidth var Minimax";
    assert!(lines.iter().any(|l| l == combo), "{lines:#?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("option name MultiPV ")).count(), 1, "{lines:#?}");
}

#[test]
fn minimax_mode_plays_legal_moves_and_stops() {
    let mut e = minimax_engine();
    let pos = position(None, &["e2e4", "e7e5"]);
    e.send("position startpos moves e2e4 e7e5");
    e.go("go movetime 300", &pos);
    e.send("go wtime 2000 btime 2000 winc 100 binc 100");
    e.bestmove(&pos, TIMEOUT);
    e.send("go infinite");
    e.no_bestmove_for(WATCH);
    e.send("stop");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    e.ready();
}

#[test]
fn minimax_mode_takes_the_alpha_beta_options_and_go_fields() {
    let mut e = minimax_engine();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let pos = position(Some(fen), &[]);
    e.send(&format!("position fen {fen}"));
    // searchmoves: only the listed move is searched.
    let search = e.go("go depth 3 searchmoves a2a3", &pos);
    assert_eq!(search.best, "a2a3");
    // MultiPV: two lines, each reported.
    e.send("setoption name MultiPV value 2");
    assert!(e.ready().is_empty());
    let search = e.go("go depth 3", &pos);
    assert!(
        search.lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(" multipv 2 ")),
        "{:#?}",
        search.lines
    );
    e.send("setoption name MultiPV value 1");
    // Lazy SMP helpers search the same way.
    e.send("setoption name Threads value 2");
    assert!(e.ready().is_empty());
    e.go("go movetime 300", &pos);
    // go ponder, then ponderhit: the search goes on as a normal one.
    e.send("go ponder movetime 200");
    e.no_bestmove_for(Duration::from_millis(400));
    e.send("ponderhit");
    e.bestmove(&pos, TIMEOUT);
}

/// The mates in 2 and 3 of epd/mates.epd (each `bm` move proven to mate in `dm` by the
/// `mates` tests): minimax mode reports the exact distance and plays a mating move, for a
/// mate in 2 within one second a move, for a mate in 3 under `go mate 3`, which searches to
/// a fixed depth whatever the machine (full width, some need most of a second for the five
/// plies that prove them) and stops once the mate is proven.
#[test]
fn minimax_mode_finds_mates_in_two_and_three() {
    let mut e = minimax_engine();
    let text = include_str!("../../epd/mates.epd");
    let mut tried = 0;
    for (index, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')) {
        let dm: i64 =
            line.split("dm ").nth(1).and_then(|rest| rest.split(';').next()).and_then(|n| n.parse().ok()).expect("dm");
        if dm < 2 {
            continue;
        }
        tried += 1;
        let record = harrier::epd::parse_record(line, index + 1).expect("a valid record");
        let fen = shakmaty::fen::Fen::from_position(&record.position, shakmaty::EnPassantMode::Legal);
        e.send(&format!("position fen {fen}"));
        let go = if dm == 2 { "go movetime 1000" } else { "go mate 3" };
        e.send(go);
        let search = e.bestmove(&record.position, MATE_TIMEOUT);
        assert_eq!(search.final_field("mate"), Some(dm), "{}: {go}: {:#?}", record.id, search.lines);
        let best = crate::common::assert_legal(&record.position, &search.best);
        assert!(record.best.contains(&best), "{}: {} does not mate in {dm}", record.id, search.best);
    }
    assert!(tried >= 20, "{tried} mates");
}

/// `harrier epd --mode minimax` solves the mate suite at the depth that proves a mate in 3
/// at full width; an unknown mode is refused.
#[test]
fn epd_tool_runs_minimax_mode() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/epd/mates.epd");
    let run = |mode: &str| {
        Command::new(env!("CARGO_BIN_EXE_harrier"))
            .args(["epd", path, "--depth", "5", "--mode", mode])
            .output()
            .unwrap()
    };
    let output = run("minimax");
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    let total =
        include_str!("../../epd/mates.epd").lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).count();
    assert_eq!(stdout.lines().last(), Some(format!("solved {total}/{total}").as_str()), "{stdout}");
    let output = run("fullwidth");
    assert!(!output.status.success() && output.stdout.is_empty());
    assert!(String::from_utf8(output.stderr).unwrap().contains("invalid value 'fullwidth' for '--mode <MODE>'"));
}
