//! The UCI protocol through the real binary: every test starts `harrier`, talks to it over
//! stdin/stdout and checks what a GUI would see (the harness is in `common`).

use std::thread;
use std::time::{Duration, Instant};

use harrier::search::alphabeta::params::MATE_PROOF_EXTRA_PLIES;
use shakmaty::{CastlingMode, Chess};

use crate::common::*;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// ---------------------------------------------------------------------------------------
// 1. uci
// ---------------------------------------------------------------------------------------

#[test]
fn uci_lists_identity_and_every_option_then_uciok_last() {
    let mut e = Harrier::spawn();
    e.send("uci");
    let lines = e.read_until("uciok", TIMEOUT);
    assert!(lines.iter().any(|l| l.starts_with("id name Harrier")), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")), "{lines:#?}");
    for option in ["Hash", "Clear Hash", "Threads", "Ponder", "Move Overhead", "SearchMode", "UCI_Chess960"] {
        let prefix = format!("option name {option} type ");
        assert!(lines.iter().any(|l| l.starts_with(&prefix)), "option {option} missing: {lines:#?}");
    }
    // Nothing (no late option) follows uciok before the next answer.
    let after = e.ready();
    assert!(after.is_empty(), "lines after uciok: {after:#?}");
}

// ---------------------------------------------------------------------------------------
// 2. isready
// ---------------------------------------------------------------------------------------

#[test]
fn isready_is_answered_when_idle_and_during_a_search() {
    let mut e = Harrier::spawn();
    assert!(e.ready().is_empty());
    e.send("position startpos moves d2d4");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    let lines = e.ready_within(TIMEOUT);
    assert!(start.elapsed() < PROMPT, "readyok during a search took {:?}", start.elapsed());
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    // The search carries on after readyok.
    e.no_bestmove_for(Duration::from_millis(300));
    e.send("stop");
    let search = e.bestmove(&position(None, &["d2d4"]), TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    // Exactly one bestmove.
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 3. go and its limits
// ---------------------------------------------------------------------------------------

#[test]
fn go_depth_stops_at_that_depth() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go("go depth 5", &Chess::default());
    assert_eq!(search.max_depth(), 5, "{:#?}", search.lines);
    assert!(search.ponder.is_some(), "a depth-5 pv has a reply to ponder on");
}

/// One thread keeps a node limit exactly: nodes entered while the search unwinds at the
/// limit are not counted.
#[test]
fn go_nodes_keeps_to_the_node_limit() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4");
    for limit in [5_000, 200_000] {
        let search = e.go(&format!("go nodes {limit}"), &position(None, &["e2e4"]));
        let nodes = search.final_field("nodes").expect("the final info has nodes");
        assert!(nodes <= limit && nodes > limit / 2, "searched {nodes} nodes for go nodes {limit}");
    }
}

#[test]
fn go_movetime_uses_about_that_time() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go("go movetime 300", &Chess::default());
    assert!(search.elapsed >= Duration::from_millis(250), "stopped after {:?}", search.elapsed);
    assert!(search.elapsed < Duration::from_millis(1300), "stopped after {:?}", search.elapsed);
}

#[test]
fn go_with_clocks_moves_within_the_clock() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4");
    let search = e.go("go wtime 1000 btime 1000 winc 10 binc 10", &position(None, &["e2e4"]));
    assert!(search.elapsed < Duration::from_millis(1000), "took {:?} on a 1 s clock", search.elapsed);
}

#[test]
fn go_movestogo_spends_more_of_the_clock() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    // One move to the time control: most of the clock may go into this move (a clock
    // shared over the default 25 moves allows about 120 ms here).
    let search = e.go("go wtime 1000 btime 1000 movestogo 1", &Chess::default());
    assert!(search.elapsed >= Duration::from_millis(300), "took only {:?}", search.elapsed);
    assert!(search.elapsed < Duration::from_millis(1000), "took {:?} on a 1 s clock", search.elapsed);
}

#[test]
fn go_mate_finds_the_mate_in_two() {
    let pos = position(Some(MATE_IN_TWO), &[]);
    let mates = mates_in_two(&pos);
    let texts: Vec<String> = mates.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
    assert_eq!(texts, ["d5f6"], "the test position has one mate in two");
    let mut e = Harrier::spawn();
    e.send(&format!("position fen {MATE_IN_TWO}"));
    let search = e.go("go mate 2", &pos);
    let report = &search.lines[search.lines.len() - 2];
    assert!(report.contains(" score mate 2 "), "{report}");
    let best = assert_legal(&pos, &search.best);
    assert!(mates.contains(&best), "{} does not mate in two", search.best);
}

/// The deepest iteration a search of a proven mate `plies` plies away may report: the
/// rule's depth (twice the distance and the extra plies) and a few iterations more, for
/// the mate to be found at all and then twice alike.
fn proven_mate_depth(plies: u32) -> u32 {
    2 * plies + MATE_PROOF_EXTRA_PLIES + 4
}

/// Once a forced mate is proven the iterations end, as other engines' do; a GUI otherwise
/// shows the mate at the search's last depth (`+M2/120`). `go infinite` still answers only
/// at `stop`, and the side being mated stops as early.
#[test]
fn a_proven_mate_ends_the_iterations_at_a_modest_depth() {
    let pos = position(Some(MATE_IN_TWO), &[]);
    let mut e = Harrier::spawn();
    e.send(&format!("position fen {MATE_IN_TWO}"));
    let search = e.go("go depth 30", &pos);
    assert_eq!(search.final_field("mate"), Some(2), "{:#?}", search.lines);
    assert!(search.max_depth() <= proven_mate_depth(3), "{:#?}", search.lines);

    e.send("go infinite");
    e.no_bestmove_for(WATCH);
    e.send("stop");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    assert_eq!(search.final_field("mate"), Some(2));
    assert!(search.max_depth() <= proven_mate_depth(3), "{:#?}", search.lines);

    // After 1. Nf6+ Black is mated in one move, whatever he plays.
    let mated = position(Some(MATE_IN_TWO), &["d5f6"]);
    e.send(&format!("position fen {MATE_IN_TWO} moves d5f6"));
    let search = e.go("go depth 30", &mated);
    assert_eq!(search.final_field("mate"), Some(-1), "{:#?}", search.lines);
    assert!(search.max_depth() <= proven_mate_depth(2), "{:#?}", search.lines);
}

#[test]
fn go_searchmoves_restricts_the_root() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go("go depth 4 searchmoves a2a3 b2b3", &Chess::default());
    assert!(["a2a3", "b2b3"].contains(&search.best.as_str()), "bestmove {}", search.best);
    for line in search.lines.iter().filter(|l| l.contains(" pv ")) {
        assert!(["a2a3", "b2b3"].contains(&pv_of(line)[0]), "{line}");
    }
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite");
    e.no_bestmove_for(WATCH);
    e.send("stop");
    let search = e.bestmove(&Chess::default(), TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    e.ready();
}

#[test]
fn go_ponder_waits_for_ponderhit_then_keeps_to_the_clock() {
    let pos = position(None, &["e2e4", "e7e5"]);
    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 1000 btime 1000");
    e.no_bestmove_for(Duration::from_millis(700));
    e.send("ponderhit");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < Duration::from_millis(1000), "bestmove {:?} after ponderhit", search.elapsed);
    e.ready();
}

#[test]
fn go_ponder_answers_stop_with_a_bestmove() {
    let pos = position(None, &["e2e4", "e7e5"]);
    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder");
    e.no_bestmove_for(Duration::from_millis(500));
    e.send("stop");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 4. The gaps in vampirc-uci's parser that `uci/parse.rs` guards, one by one.
// ---------------------------------------------------------------------------------------

#[test]
fn go_ponder_with_clock_fields_is_still_a_ponder_search() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go ponder wtime 1000 btime 2000 winc 10 binc 10");
    // A plain clock search would have moved after about 120 ms (700 ms at most).
    e.no_bestmove_for(Duration::from_millis(1200));
    e.send("ponderhit");
    let search = e.bestmove(&Chess::default(), TIMEOUT);
    assert!(search.elapsed < Duration::from_millis(1000), "bestmove {:?} after ponderhit", search.elapsed);
}

#[test]
fn go_ponder_movetime_is_a_ponder_search_whose_movetime_runs_from_go() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go ponder movetime 15000");
    e.no_bestmove_for(Duration::from_millis(500));
    e.send("stop");
    e.bestmove(&Chess::default(), PROMPT);

    // The ponder outlasted the movetime: the move is due at `ponderhit`.
    e.send("go ponder movetime 600");
    e.no_bestmove_for(Duration::from_millis(900));
    e.send("ponderhit");
    e.bestmove(&Chess::default(), PROMPT);

    // A short ponder leaves the rest of the movetime, about 1.2 s.
    e.send("go ponder movetime 1500");
    e.no_bestmove_for(Duration::from_millis(300));
    e.send("ponderhit");
    let search = e.bestmove(&Chess::default(), TIMEOUT);
    assert!(search.elapsed >= Duration::from_millis(900), "movetime ignored after ponderhit: {:?}", search.elapsed);
    assert!(search.elapsed < Duration::from_millis(2500), "bestmove {:?} after ponderhit", search.elapsed);
}

#[test]
fn go_infinite_with_a_clock_stays_infinite() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite wtime 1000");
    e.no_bestmove_for(Duration::from_millis(1200));
    e.send("stop");
    e.bestmove(&Chess::default(), PROMPT);
}

#[test]
fn go_movetime_is_honoured_beside_other_fields() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go(
        "go movetime 300 wtime 100000 btime 100000 depth 60 nodes 100000000 searchmoves e2e4 d2d4",
        &Chess::default(),
    );
    assert!(["e2e4", "d2d4"].contains(&search.best.as_str()), "bestmove {}", search.best);
    assert!(search.elapsed >= Duration::from_millis(250), "stopped after {:?}", search.elapsed);
    assert!(search.elapsed < Duration::from_millis(1300), "stopped after {:?}", search.elapsed);
}

#[test]
fn numbers_that_overflow_vampirc_uci_do_not_crash() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    for go in ["go depth 256", "go movestogo 256", "go mate 300", "go nodes 9999999999999"] {
        e.send(go);
        e.ready_within(TIMEOUT);
        e.send("stop");
        e.bestmove(&Chess::default(), TIMEOUT);
        e.ready();
    }
    // The largest values still give a playable search.
    e.go("go depth 256 movestogo 256 mate 300 nodes 2000", &Chess::default());
}

#[test]
fn position_with_a_double_space_before_the_moves_applies_them() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves  e2e4");
    let search = e.go("go depth 1", &position(None, &["e2e4"]));
    assert!(
        legal_move(&Chess::default(), &search.best).is_none(),
        "{} was played from the start position",
        search.best
    );
    e.send("position startpos moves\t\te2e4 \t e7e5\r");
    e.go("go depth 1", &position(None, &["e2e4", "e7e5"]));
}

#[test]
fn position_with_a_bad_move_is_rejected_whole_and_the_old_position_kept() {
    // The kept position (white queen and king only) shares no legal move with the start
    // position or the position after 1. e4.
    let kept_fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    let kept = position(Some(kept_fen), &[]);
    let after_e4 = position(None, &["e2e4"]);
    let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut e = Harrier::spawn();
    for bad in [
        "position startpos moves e2e4 xx e7e5".to_string(),
        "position startpos moves e2e4 0000".to_string(),
        format!("position fen {start_fen} moves e2e4 xx e7e5"),
        format!("position fen {start_fen} moves e2e4 0000 e7e5"),
        "position startpos moves e2e4 e2e4".to_string(),
    ] {
        e.send(&format!("position fen {kept_fen}"));
        e.send(&bad);
        let lines = e.ready();
        assert!(info_strings(&lines).iter().any(|l| l.contains("rejected")), "no info string for {bad}: {lines:#?}");
        let search = e.go("go depth 1", &kept);
        assert!(legal_move(&after_e4, &search.best).is_none(), "{bad}: part of it was applied");
        assert!(legal_move(&Chess::default(), &search.best).is_none(), "{bad}: the start position was set");
    }
}

#[test]
fn shredder_fen_castling_in_chess960() {
    let mut e = Harrier::spawn();
    e.send("setoption name UCI_Chess960 value true");
    // Position 1 of the Chess960 perft suite: 21 and 528 positions.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    e.send(&format!("position fen {fen}"));
    e.send("go perft 2");
    let lines = e.read_until("Nodes searched:", TIMEOUT);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 528"), "{lines:#?}");
    e.go("go depth 3", &position_in(Some(fen), &[], CastlingMode::Chess960));

    // Castling is printed king-takes-rook in Chess960.
    let fen = "4k3/8/8/8/8/8/8/R3K2R w HA - 0 1";
    e.send(&format!("position fen {fen}"));
    let search = e.go("go depth 2 searchmoves e1h1", &position_in(Some(fen), &[], CastlingMode::Chess960));
    assert_eq!(search.best, "e1h1");
}

#[test]
fn fen_with_four_fields_is_accepted() {
    let mut e = Harrier::spawn();
    e.send("position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
    let lines = e.ready();
    assert!(info_strings(&lines).is_empty(), "{lines:#?}");
    let search = e.go("go depth 1", &position(None, &["e2e4"]));
    assert!(legal_move(&Chess::default(), &search.best).is_none(), "the FEN was not set");
}

#[test]
fn upper_case_moves_are_accepted() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves E2E4");
    let search = e.go("go depth 1", &position(None, &["e2e4"]));
    assert!(legal_move(&Chess::default(), &search.best).is_none(), "E2E4 was not applied");
    e.send("position startpos moves E2E4 E7E5 G1F3");
    e.go("go depth 1 searchmoves B8C6 G8F6", &position(None, &["e2e4", "e7e5", "g1f3"]));
}

#[test]
fn king_takes_rook_castling_is_accepted_and_printed_as_king_two_squares() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut e = Harrier::spawn();
    e.send(&format!("position fen {fen} moves e1h1"));
    let pos = position(Some(fen), &["e1g1"]);
    // e8a8 is accepted as castling in searchmoves too, and printed e8c8 (black may not
    // castle short: the rook on f1 guards f8).
    let search = e.go("go depth 2 searchmoves e8a8", &pos);
    assert_eq!(search.best, "e8c8");
    e.send(&format!("position fen {fen} moves e1h1 e8a8"));
    e.go("go depth 3", &position(Some(fen), &["e1g1", "e8c8"]));
    e.send(&format!("position fen {fen}"));
    let search = e.go("go depth 2 searchmoves e1g1", &position(Some(fen), &[]));
    assert_eq!(search.best, "e1g1");
}

#[test]
fn empty_syzygy_path_and_unknown_options_are_ignored() {
    let mut e = Harrier::spawn();
    // A GUI sends the empty path it shows: nothing changes, nothing is said.
    e.send("setoption name SyzygyPath value");
    let lines = e.ready();
    assert!(info_strings(&lines).is_empty(), "{lines:#?}");
    for line in ["setoption name NoSuchOption value 3", "setoption name Foo Bar"] {
        e.send(line);
        let lines = e.ready();
        assert_eq!(info_strings(&lines).len(), 1, "one info string for {line}: {lines:#?}");
    }
    e.send("position startpos");
    e.go("go depth 2", &Chess::default());
}

#[test]
fn garbage_and_empty_lines_are_ignored() {
    let mut e = Harrier::spawn();
    e.send("position startpos moves g1f3");
    for line in ["", "   ", "\t\r", "hello world", "isready?", "GO!"] {
        e.send(line);
        e.ready();
    }
    e.go("go depth 2", &position(None, &["g1f3"]));
}

#[test]
fn negative_clock_moves_at_once() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    let search = e.go("go wtime -500 btime 1000", &Chess::default());
    assert!(search.elapsed < Duration::from_millis(1000), "took {:?} with no time left", search.elapsed);
    e.send("position startpos moves e2e4");
    let search = e.go("go wtime 1000 btime -1 winc 0 binc 0", &position(None, &["e2e4"]));
    assert!(search.elapsed < Duration::from_millis(1000), "took {:?} with no time left", search.elapsed);
}

// ---------------------------------------------------------------------------------------
// 5. A battery of malformed input.
// ---------------------------------------------------------------------------------------

/// What a battery line does to the engine.
enum Effect {
    /// Nothing but perhaps an `info string`.
    Ignored,
    /// Starts a search of the current position (stopped by the test).
    Search,
    /// Prints perft output.
    Perft,
    /// Sets this position (FEN or start position, and moves).
    Sets(Option<&'static str>, &'static [&'static str]),
}

#[test]
fn malformed_input_battery_leaves_the_engine_working() {
    let long_garbage = "x".repeat(100_000);
    let long_moves = format!("position startpos moves {}", "g1f3 g8f6 f3g1 f6g8 ".repeat(2_000));
    // Longer than the engine reads at once (1 MiB): its tail must not become a command.
    let overlong = format!("{} quit", "y ".repeat(700_000));
    let battery: Vec<(Vec<u8>, Effect)> = vec![
        (b"position".to_vec(), Effect::Ignored),
        (b"position fen".to_vec(), Effect::Ignored),
        (b"position startpos extra".to_vec(), Effect::Ignored),
        (b"position moves e2e4".to_vec(), Effect::Ignored),
        (b"position fen garbage garbage garbage".to_vec(), Effect::Ignored),
        (b"position fen 8/8/8/8/8/8/8/8 w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen 4k3/8/8/8/8/8/8/8 w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen 4k3/8/8/8/8/8/8/P3K3 w - - 0 1".to_vec(), Effect::Ignored),
        (b"position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_vec(), Effect::Ignored),
        (b"position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1".to_vec(), Effect::Ignored),
        (b"position fen 4k3/8/8/8/8/8/8/4K3 w - - -5 1".to_vec(), Effect::Ignored),
        (b"position startpos moves e7e5".to_vec(), Effect::Ignored),
        (b"position startpos moves e2e4 e2e4".to_vec(), Effect::Ignored),
        (b"position startpos moves 0000".to_vec(), Effect::Ignored),
        (b"position startpos moves e2e4 xx".to_vec(), Effect::Ignored),
        (b"position startpos moves e2e".to_vec(), Effect::Ignored),
        (b"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 e8c8".to_vec(), Effect::Ignored),
        ("position startpos moves \u{e9}2\u{e9}4".as_bytes().to_vec(), Effect::Ignored),
        (b"position startpos moves e2e4 \xc3\x28".to_vec(), Effect::Ignored),
        (format!("{long_moves}e2e5").into_bytes(), Effect::Ignored),
        (b"setoption name Hash value -5".to_vec(), Effect::Ignored),
        (b"setoption name Hash value 99999999".to_vec(), Effect::Ignored),
        (b"setoption name Hash value lots".to_vec(), Effect::Ignored),
        (b"setoption name Threads value 2000".to_vec(), Effect::Ignored),
        (b"setoption name UCI_Chess960 value maybe".to_vec(), Effect::Ignored),
        (b"setoption name SearchMode value Bogus".to_vec(), Effect::Ignored),
        (b"setoption name".to_vec(), Effect::Ignored),
        (b"setoption value 5".to_vec(), Effect::Ignored),
        (b"setoption".to_vec(), Effect::Ignored),
        (b"debug maybe".to_vec(), Effect::Ignored),
        (b"register later".to_vec(), Effect::Ignored),
        (b"stop".to_vec(), Effect::Ignored),
        (b"ponderhit".to_vec(), Effect::Ignored),
        (b"\xff\xfe\x80".to_vec(), Effect::Ignored),
        (b"\xff\xfego depth 1".to_vec(), Effect::Ignored),
        (b"go\0depth 1".to_vec(), Effect::Ignored),
        (long_garbage.into_bytes(), Effect::Ignored),
        (overlong.into_bytes(), Effect::Ignored),
        (b"go wtime abc".to_vec(), Effect::Search),
        (b"go depth".to_vec(), Effect::Search),
        (b"go depth -3".to_vec(), Effect::Search),
        (b"go depth 99999999999999999999999999999999999999999999".to_vec(), Effect::Search),
        (b"go nodes -1".to_vec(), Effect::Search),
        (b"go movetime 0".to_vec(), Effect::Search),
        (b"go searchmoves".to_vec(), Effect::Search),
        (b"go searchmoves zz99 a1a1 e1e8".to_vec(), Effect::Search),
        (b"go mate 0".to_vec(), Effect::Search),
        (b"go banana 12 wtime".to_vec(), Effect::Search),
        (b"\xff go depth 2".to_vec(), Effect::Search),
        (b"go perft -1".to_vec(), Effect::Perft),
        (b"go perft 0".to_vec(), Effect::Perft),
        (
            b"position fen 4k3/8/8/8/8/8/8/4K2R w K e3 0 1".to_vec(),
            Effect::Sets(Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), &[]),
        ),
        (
            b"position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1".to_vec(),
            Effect::Sets(Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), &[]),
        ),
        (
            b"position fen 4k3/8/8/8/8/8/8/R3K3 b - - 0 1 moves".to_vec(),
            Effect::Sets(Some("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"), &[]),
        ),
        // 8000 legal moves back to the start position (drawn by the fifty-move rule).
        (long_moves.into_bytes(), Effect::Sets(None, &[])),
        (b"position startpos moves".to_vec(), Effect::Sets(None, &[])),
    ];

    let mut e = Harrier::spawn();
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let mut pos = position(None, &["e2e4", "e7e5", "g1f3"]);
    for (bytes, effect) in &battery {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).into_owned();
        // Shown with a failure: which line broke the engine.
        println!("battery line: {shown:?}");
        match effect {
            Effect::Ignored => e.send_raw(bytes),
            Effect::Search => {
                e.send_raw(bytes);
                e.send("stop");
                e.bestmove(&pos, TIMEOUT);
            }
            Effect::Perft => {
                e.in_perft = true;
                e.send_raw(bytes);
                e.read_until("Nodes searched: ", TIMEOUT);
            }
            Effect::Sets(fen, moves) => {
                e.send_raw(bytes);
                pos = position(*fen, moves);
            }
        }
        let lines = e.ready();
        assert!(lines.iter().all(|l| l.starts_with("info")), "after {shown:?}: {lines:#?}");
        let search = e.go("go depth 1", &pos);
        assert_eq!(search.max_depth(), 1, "after {shown:?}");
    }
}

// ---------------------------------------------------------------------------------------
// 6. perft
// ---------------------------------------------------------------------------------------

#[test]
fn go_perft_prints_divide_and_the_total() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.read_until("Nodes searched:", TIMEOUT);
    let counts: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.split_once(": ").filter(|(m, _)| m.len() <= 5).and_then(|(_, c)| c.parse().ok()))
        .collect();
    assert_eq!(counts.len(), 20, "{lines:#?}");
    assert_eq!(counts.iter().sum::<u64>(), 8902);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 8902"));

    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go perft 2");
    let lines = e.read_until("Nodes searched:", TIMEOUT);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 2039"));
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 7. Game history
// ---------------------------------------------------------------------------------------

#[test]
fn repeated_positions_and_new_games() {
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
    let mut e = Harrier::spawn();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.go("go depth 4", &position(None, &moves));
    e.send("ucinewgame");
    e.ready();
    e.send("position startpos moves d2d4 d7d5");
    e.go("go depth 4", &position(None, &["d2d4", "d7d5"]));
    e.send("ucinewgame");
    e.send(&format!("position fen {KIWIPETE}"));
    e.go("go depth 3", &position(Some(KIWIPETE), &[]));
}

// ---------------------------------------------------------------------------------------
// 8. quit, end of input, stray stop/ponderhit, go during a search
// ---------------------------------------------------------------------------------------

#[test]
fn quit_exits_promptly_even_during_a_search() {
    let mut e = Harrier::spawn();
    e.ready();
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(2)), "quit did not end the engine");

    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(2)), "quit during a search did not end the engine");
}

#[test]
fn end_of_input_exits_and_still_sends_bestmove() {
    let mut e = Harrier::spawn();
    e.ready();
    e.close_stdin();
    assert!(e.exits_within(Duration::from_secs(2)), "EOF did not end the engine");

    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    e.close_stdin();
    e.bestmove(&Chess::default(), TIMEOUT);
    assert!(e.exits_within(Duration::from_secs(2)), "EOF during a search did not end the engine");
}

#[test]
fn stop_and_ponderhit_without_a_search_are_harmless() {
    let mut e = Harrier::spawn();
    e.send("stop");
    e.send("ponderhit");
    e.send("stop");
    let lines = e.ready();
    assert!(lines.is_empty(), "{lines:#?}");
    e.send("position startpos");
    e.go("go depth 2", &Chess::default());
    // After the search ended, stop and ponderhit change nothing either.
    e.send("stop");
    e.send("ponderhit");
    assert!(e.ready().is_empty());
}

#[test]
fn go_during_a_search_is_refused_without_a_second_bestmove() {
    let mut e = Harrier::spawn();
    e.send("position startpos");
    e.send("go infinite");
    e.send("go depth 1");
    e.expect_line(|l| l.starts_with("info string") && l.contains("go"), TIMEOUT, "an info string refusing go");
    e.send("stop");
    e.bestmove(&Chess::default(), TIMEOUT);
    e.no_bestmove_for(Duration::from_millis(300));
    e.ready();
    // The engine is idle again: the next go is served, once.
    e.go("go depth 1", &Chess::default());
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 9. Options a GUI sets
// ---------------------------------------------------------------------------------------

#[test]
fn declared_options_are_accepted_silently() {
    let mut e = Harrier::spawn();
    for line in [
        "setoption name Hash value 32",
        "setoption name Clear Hash",
        "setoption name Move Overhead value 50",
        "setoption name Ponder value true",
        "setoption name Threads value 1",
        "setoption name SearchMode value AlphaBeta",
        "setoption name UCI_Chess960 value false",
    ] {
        e.send(line);
        let lines = e.ready();
        assert!(lines.is_empty(), "{line}: {lines:#?}");
    }
    e.send("position startpos moves e2e4");
    e.go("go depth 4", &position(None, &["e2e4"]));
    e.go("go wtime 1000 btime 1000", &position(None, &["e2e4"]));
}

/// `Clear Hash` leaves the searcher as `ucinewgame` does: the table, the histories and the
/// corrections all forgotten, so a search repeated after it takes the same nodes every time
/// (after a plain repeat, the table and histories change the tree), while the position stays.
#[test]
fn clear_hash_forgets_what_a_new_game_forgets() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
    let pos = position(Some(fen), &[]);
    let mut e = Harrier::spawn();
    let mut nodes_after = |reset: &str| {
        if !reset.is_empty() {
            e.send(reset);
        }
        e.send(&format!("position fen {fen}"));
        e.go("go depth 9", &pos).final_field("nodes").expect("a node count")
    };
    let fresh = nodes_after("");
    let repeated = nodes_after("");
    assert_ne!(repeated, fresh, "a repeat without clearing reuses what the first search learnt");
    let after_new_game = nodes_after("ucinewgame");
    assert_eq!(after_new_game, fresh);
    for _ in 0..3 {
        assert_eq!(nodes_after("setoption name Clear Hash"), fresh);
    }
    // Clear Hash keeps the position: `go` alone searches it again.
    e.send("setoption name Clear Hash");
    assert_eq!(e.go("go depth 9", &pos).final_field("nodes"), Some(fresh));
}
