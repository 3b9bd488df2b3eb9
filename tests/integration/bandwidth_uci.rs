//! Bandwidth mode (`setoption name SearchMode value Bandwidth`) through the real binary:
//! its options, the `info string reused N nodes` that every `go` prints, silent idle
//! thinking (`AlwaysThink`) that yields to any command and stays inside `Hash`, mates,
//! `go ponder`/`go infinite` held until `ponderhit`/`stop`, ponder misses and new games
//! (`docs/bandwidth.md`). The harness is in
//! `common`; every `bestmove`, ponder move and PV is replayed for legality there.

use std::thread;
use std::time::{Duration, Instant};

use harrier::moves::parse_uci;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position, PositionError};

use crate::common::*;

/// White mates in two with a quiet first move: 1. Re2 Ka4 2. Ra2#.
const QUIET_MATE_IN_TWO: &str = "8/8/8/8/8/k7/8/1R2R1K1 w - - 0 1";
/// White mates in three: 1. Ra6 f6 2. Bxf6+ Rg7 3. Rxa8# (1. ...Rg7 2. Rxa8#: the rook is pinned).
const MATE_IN_THREE: &str = "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1";
/// How long idle thinking is watched for output.
const IDLE_WATCH: Duration = Duration::from_millis(1500);
/// How long the opponent of an engine that thinks on its time takes over a move in the tests.
const OPPONENT_THINKS: Duration = Duration::from_millis(1000);
/// The node budget of a search whose tree a test looks at or reuses: a budget, unlike a
/// clock, grows the same tree on a loaded machine as on an idle one. In the Harris style
/// that is a couple of hundred expansions.
const TREE_NODES: u64 = 200_000;

/// A fresh engine in bandwidth mode, its `BandwidthStyle` and `AlwaysThink` as given.
fn bandwidth_engine(style: &str, always_think: bool) -> Harrier {
    let mut e = Harrier::spawn();
    e.send("setoption name SearchMode value Bandwidth");
    e.send(&format!("setoption name BandwidthStyle value {style}"));
    e.send(&format!("setoption name AlwaysThink value {always_think}"));
    let lines = e.ready();
    assert!(lines.is_empty(), "setting up bandwidth mode: {lines:#?}");
    e
}

/// The N of the one `info string reused N nodes` among `lines`.
fn reused_in(lines: &[String]) -> u64 {
    let counts: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info string reused "))
        .map(|rest| {
            let n = rest.strip_suffix(" nodes").unwrap_or_else(|| panic!("malformed reuse line: {rest}"));
            n.parse().unwrap_or_else(|_| panic!("malformed reuse count: {n}"))
        })
        .collect();
    assert_eq!(counts.len(), 1, "expected one 'info string reused N nodes': {lines:#?}");
    counts[0]
}

/// `go ...` in bandwidth mode: the search, checked, and the nodes it reused.
fn go_reusing(e: &mut Harrier, go: &str, pos: &Chess) -> (Search, u64) {
    let search = e.go(go, pos);
    let reused = reused_in(&search.lines);
    (search, reused)
}

/// The tree's size in a search's summary note (`... tree N nodes`).
fn tree_size(search: &Search) -> u64 {
    let note = search.lines.iter().find(|l| l.starts_with("info string bandwidth: ")).expect("a summary note");
    let words: Vec<&str> = note.split(' ').collect();
    let at = words.iter().rposition(|&w| w == "tree").unwrap_or_else(|| panic!("no tree size: {note}"));
    words[at + 1].parse().unwrap_or_else(|_| panic!("no tree size: {note}"))
}

/// `position startpos moves ...` and the position it sets.
fn play(e: &mut Harrier, moves: &[&str]) -> Chess {
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    position(None, moves)
}

/// The ponder move of a search that must have one.
fn ponder_of(search: &Search) -> String {
    search.ponder.clone().unwrap_or_else(|| panic!("no ponder move: {:#?}", search.lines))
}

/// The mate distance in the final report (positive: the engine mates).
fn final_mate(search: &Search) -> i64 {
    let report = &search.lines[search.lines.len() - 2];
    search.final_field("mate").unwrap_or_else(|| panic!("no mate score in the final report: {report}"))
}

/// Every line within `duration`, none of them a `bestmove`.
fn lines_without_bestmove(e: &mut Harrier, duration: Duration) -> Vec<String> {
    let lines = e.lines_for(duration);
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "bestmove too early: {lines:#?}");
    lines
}

/// The engine's resident and peak memory in kB, from `/proc/<pid>/status`.
fn memory_kb(e: &Harrier) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.child.id())).expect("/proc is readable");
    let kb = |key: &str| -> u64 {
        let line = status.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("no {key} in {status}"));
        line[key.len()..].trim().trim_end_matches("kB").trim().parse().expect("a number of kB")
    };
    (kb("VmRSS:"), kb("VmHWM:"))
}

// ---------------------------------------------------------------------------------------
// 1. Options and the search-mode switch
// ---------------------------------------------------------------------------------------

#[test]
fn uci_declares_the_bandwidth_options() {
    let mut e = Harrier::spawn();
    e.send("uci");
    let lines = e.read_until("uciok", TIMEOUT);
    for expected in [
        "option name SearchMode type combo default AlphaBeta var AlphaBeta var Bandwidth",
        "option name BandwidthStyle type combo default Hybrid var Harris var Hybrid",
        "option name Bandwidth type spin ",
        "option name DepthPenalty type spin ",
        "option name TipProbeDepth type spin ",
        "option name StrictHarris type check ",
        "option name AlwaysThink type check default false",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(expected)), "no '{expected}': {lines:#?}");
    }
    // Every bandwidth setting is taken silently, in either mode, and the search still plays.
    for line in [
        "setoption name Bandwidth value 300",
        "setoption name SearchMode value Bandwidth",
        "setoption name BandwidthStyle value Harris",
        "setoption name DepthPenalty value 5",
        "setoption name TipProbeDepth value 1",
        "setoption name StrictHarris value true",
        "setoption name AlwaysThink value false",
    ] {
        e.send(line);
        let lines = e.ready();
        assert!(lines.is_empty(), "{line}: {lines:#?}");
    }
    // A style that does not exist is refused with a reason, and the style stays.
    e.send("setoption name BandwidthStyle value Alphabeta");
    let lines = e.ready();
    assert!(lines.len() == 1 && lines[0].starts_with("info string "), "{lines:#?}");
    let pos = play(&mut e, &["e2e4", "c7c5"]);
    let (_, reused) = go_reusing(&mut e, "go movetime 300", &pos);
    assert_eq!(reused, 0, "first search of the game");
    let lines = lines_without_bestmove(&mut e, Duration::from_millis(300));
    assert!(lines.is_empty(), "output with AlwaysThink off: {lines:#?}");
}

/// A new `Hash` frees the old tree before the new one is laid out, so that a resize never
/// holds both (the check that refuses a `Hash` larger than the free memory counts on it).
#[test]
fn a_hash_resize_in_bandwidth_mode_never_holds_both_sizes() {
    const MB: usize = 512;
    let mut e = bandwidth_engine("Hybrid", false);
    e.send(&format!("setoption name Hash value {MB}"));
    assert!(e.ready().is_empty());
    let (laid_out, _) = memory_kb(&e);
    e.send(&format!("setoption name Hash value {}", MB + 1));
    assert!(e.ready().is_empty());
    let (_, peak) = memory_kb(&e);
    // Both at once would hold about twice what one layout holds.
    assert!(peak < laid_out * 3 / 2, "{peak} kB at the peak of a resize, {laid_out} kB for one layout");
    let pos = play(&mut e, &["e2e4"]);
    e.go("go nodes 2000", &pos);
}

#[test]
fn search_mode_switches_back_and_forth() {
    let mut e = Harrier::spawn();
    let pos = play(&mut e, &["e2e4"]);
    for mode in ["Bandwidth", "AlphaBeta", "Bandwidth", "AlphaBeta", "Bandwidth"] {
        e.send(&format!("setoption name SearchMode value {mode}"));
        let lines = e.ready();
        assert!(lines.is_empty(), "switching to {mode}: {lines:#?}");
        if mode == "Bandwidth" {
            let (search, reused) = go_reusing(&mut e, "go movetime 200", &pos);
            assert_eq!(reused, 0, "a new bandwidth searcher starts with a bare tree");
            assert!(search.max_depth() >= 2, "{:#?}", search.lines);
            // Alpha-beta's iterations report their depth; the tree after them reports its
            // principal line's length when that goes deeper.
            let iterations = hybrid_note(&search).0;
            for line in search.lines.iter().filter(|l| l.starts_with("info depth")) {
                let (depth, pv) = (field(line, "depth").unwrap(), pv_of(line).len() as i64);
                assert!(depth <= iterations || depth == pv, "depth is the iterations' or the line's: {line}");
            }
        } else {
            let search = e.go("go depth 4", &pos);
            assert_eq!(search.max_depth(), 4, "{:#?}", search.lines);
            assert!(info_strings(&search.lines).is_empty(), "alpha-beta prints no reuse: {:#?}", search.lines);
        }
    }
}

// ---------------------------------------------------------------------------------------
// 2. Tree reuse: info string reused N nodes
// ---------------------------------------------------------------------------------------

/// True for the style whose tree, on [`TREE_NODES`], surely reaches below the expected
/// reply. The hybrid's tree is a few expansions past its iterations, and often leaves that
/// reply a tip: then the next move reuses nothing, by design.
fn grows_below_the_reply(style: &str) -> bool {
    style == "Harris"
}

/// A short game: the first search reuses nothing; each next move, the opponent having
/// answered with our ponder move, reuses the subtree below that reply (without idle
/// thinking, a part of the tree: neither the old root nor our move).
fn reuse_over_a_game(style: &str, always_think: bool) {
    let mut e = bandwidth_engine(style, always_think);
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    let mut tree = 0;
    for turn in 0..3 {
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        let pos = if texts.is_empty() {
            e.send("position startpos");
            Chess::default()
        } else {
            play(&mut e, &texts)
        };
        let (search, reused) = go_reusing(&mut e, &format!("go nodes {TREE_NODES}"), &pos);
        if turn == 0 {
            assert_eq!(reused, 0, "the first search of a game reuses nothing");
        } else {
            if grows_below_the_reply(style) {
                assert!(reused > 0, "turn {turn} (AlwaysThink {always_think}): the ponder reply was in the tree");
            }
            if !always_think {
                assert!(reused + 3 <= tree, "turn {turn}: reused {reused} nodes of a tree of {tree}");
            }
        }
        tree = tree_size(&search);
        let ponder = ponder_of(&search);
        moves.push(search.best);
        moves.push(ponder);
        if always_think {
            thread::sleep(OPPONENT_THINKS);
        }
    }
}

fn reuse_after_the_ponder_reply_with_always_think(style: &str) {
    reuse_over_a_game(style, true);
}

fn reuse_after_the_ponder_reply_without_always_think(style: &str) {
    reuse_over_a_game(style, false);
}

/// The first legal move of `pos` (UCI text) that is not `ponder`: a reply that misses.
fn another_reply(pos: &Chess, ponder: &str) -> String {
    pos.legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .find(|m| m != ponder)
        .expect("the opponent has another move")
}

/// A miss (the opponent did not play our ponder move), a takeback and new games: no crash,
/// legal moves, and a fresh tree where the design says so.
fn misses_takebacks_and_new_games(style: &str, always_think: bool) {
    let mut e = bandwidth_engine(style, always_think);
    e.send("position startpos");
    let (first, reused) = go_reusing(&mut e, "go movetime 300", &Chess::default());
    assert_eq!(reused, 0);
    let (ours, ponder) = (first.best.clone(), ponder_of(&first));
    let after_ours = position(None, &[&ours]);
    let other = another_reply(&after_ours, &ponder);
    let pos = play(&mut e, &[&ours, &other]);
    let (second, _) = go_reusing(&mut e, "go movetime 300", &pos);

    // A miss while pondering: stop, then the real reply.
    let (ours2, ponder2) = (second.best.clone(), ponder_of(&second));
    let pondered = play(&mut e, &[&ours, &other, &ours2, &ponder2]);
    e.send("go ponder wtime 5000 btime 5000");
    let lines = lines_without_bestmove(&mut e, Duration::from_millis(500));
    reused_in(&lines);
    e.send("stop");
    let stopped = e.bestmove(&pondered, TIMEOUT);
    assert!(stopped.elapsed < PROMPT, "bestmove after stop took {:?}", stopped.elapsed);
    let after_ours2 = position(None, &[&ours, &other, &ours2]);
    let other2 = another_reply(&after_ours2, &ponder2);
    let pos = play(&mut e, &[&ours, &other, &ours2, &other2]);
    go_reusing(&mut e, "go movetime 300", &pos);

    // A takeback to the first move: a position that does not extend the tree's root.
    let pos = play(&mut e, &[&ours, &other]);
    let (_, reused) = go_reusing(&mut e, "go movetime 200", &pos);
    assert_eq!(reused, 0, "a takeback starts a fresh tree");

    // New games, from the start position and from a FEN.
    e.send("ucinewgame");
    e.send("position startpos");
    let (_, reused) = go_reusing(&mut e, "go movetime 200", &Chess::default());
    assert_eq!(reused, 0, "ucinewgame clears the tree");
    e.send("ucinewgame");
    e.send(&format!("position fen {MATE_IN_TWO}"));
    let (_, reused) = go_reusing(&mut e, "go movetime 200", &position(Some(MATE_IN_TWO), &[]));
    assert_eq!(reused, 0, "ucinewgame clears the tree");
    e.ready();
}

fn misses_takebacks_and_new_games_with_always_think(style: &str) {
    misses_takebacks_and_new_games(style, true);
}

fn misses_takebacks_and_new_games_without_always_think(style: &str) {
    misses_takebacks_and_new_games(style, false);
}

// ---------------------------------------------------------------------------------------
// 3. Idle thinking
// ---------------------------------------------------------------------------------------

fn idle_thinking_is_silent_and_yields_to_any_command(style: &str) {
    let mut e = bandwidth_engine(style, true);
    e.send("position startpos");
    let (first, _) = go_reusing(&mut e, "go movetime 300", &Chess::default());
    let lines = e.lines_for(IDLE_WATCH);
    assert!(lines.is_empty(), "output while thinking idle: {lines:#?}");

    let start = Instant::now();
    let lines = e.ready_within(TIMEOUT);
    assert!(start.elapsed() < PROMPT, "readyok while thinking idle took {:?}", start.elapsed());
    assert!(lines.is_empty(), "{lines:#?}");

    // A position off the tree and a shallow search.
    let pos = play(&mut e, &["e2e4"]);
    let (search, _) = go_reusing(&mut e, "go depth 2", &pos);
    assert!(search.max_depth() >= 2, "{:#?}", search.lines);
    assert!(search.elapsed < TIMEOUT);

    // An option, perft and the game's own continuation, each during idle thinking.
    thread::sleep(Duration::from_millis(300));
    e.send("setoption name Bandwidth value 200");
    assert!(e.ready().is_empty());
    thread::sleep(Duration::from_millis(300));
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.read_until("Nodes searched:", TIMEOUT);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 400"), "{lines:#?}");
    let pos = play(&mut e, &[&first.best, &ponder_of(&first)]);
    go_reusing(&mut e, "go movetime 200", &pos);
    let lines = e.lines_for(Duration::from_millis(500));
    assert!(lines.is_empty(), "output while thinking idle: {lines:#?}");
    e.ready();
}

fn quit_and_end_of_input_end_idle_thinking(style: &str) {
    let mut e = bandwidth_engine(style, true);
    e.send("position startpos");
    go_reusing(&mut e, "go movetime 200", &Chess::default());
    thread::sleep(Duration::from_millis(300));
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(2)), "quit during idle thinking did not end the engine");

    let mut e = bandwidth_engine(style, true);
    e.send("position startpos");
    go_reusing(&mut e, "go movetime 200", &Chess::default());
    thread::sleep(Duration::from_millis(300));
    e.close_stdin();
    assert!(e.exits_within(Duration::from_secs(2)), "EOF during idle thinking did not end the engine");
}

fn idle_thinking_stays_inside_the_memory_cap(style: &str) {
    const LIMIT_KB: u64 = 64 * 1024;
    let mut e = bandwidth_engine(style, true);
    e.send("setoption name Hash value 16");
    assert!(e.ready().is_empty());
    // In the Harris style the expected reply gets a subtree of its own.
    e.send("position startpos");
    let (first, _) = go_reusing(&mut e, &format!("go nodes {TREE_NODES}"), &Chess::default());
    // The real check watches a full minute; ten seconds fill a 16 MB tree several times.
    let lines = e.lines_for(Duration::from_secs(10));
    assert!(lines.is_empty(), "output while thinking idle: {lines:#?}");
    let (rss, peak) = memory_kb(&e);
    assert!(rss < LIMIT_KB, "resident memory {rss} kB after idle thinking with Hash 16");
    assert!(peak < LIMIT_KB, "peak resident memory {peak} kB with Hash 16");
    // The engine (whose idle thinking may have filled the tree) still answers at once.
    let start = Instant::now();
    e.ready_within(TIMEOUT);
    assert!(start.elapsed() < PROMPT, "readyok took {:?}", start.elapsed());
    let pos = play(&mut e, &[&first.best, &ponder_of(&first)]);
    let (_, reused) = go_reusing(&mut e, "go movetime 200", &pos);
    assert!(reused > 0 || !grows_below_the_reply(style), "the ponder reply's subtree survived the memory management");
    let (rss, _) = memory_kb(&e);
    assert!(rss < LIMIT_KB, "resident memory {rss} kB with Hash 16");
}

// ---------------------------------------------------------------------------------------
// 4. Mates
// ---------------------------------------------------------------------------------------

/// Searches `fen` for a second: the mating `answer` and `score mate <mate>`.
fn finds_mate(style: &str, fen: &str, answer: &str, mate: i64) {
    let pos = position(Some(fen), &[]);
    let mut e = bandwidth_engine(style, true);
    e.send(&format!("position fen {fen}"));
    let (search, _) = go_reusing(&mut e, "go movetime 1000", &pos);
    assert_eq!(search.best, answer, "{fen}: {:#?}", search.lines);
    assert_eq!(final_mate(&search), mate, "{fen}: {:#?}", search.lines);
    // Idle thinking on a proven tree runs out of work: the engine must still obey.
    thread::sleep(Duration::from_millis(300));
    e.send(&format!("position fen {fen}"));
    let (search, _) = go_reusing(&mut e, "go movetime 300", &pos);
    assert_eq!(search.best, answer, "{fen}, again: {:#?}", search.lines);
    e.ready();
}

/// The unique first move that mates in two, by brute force.
fn unique_mate_in_two(fen: &str) -> String {
    let mates = mates_in_two(&position(Some(fen), &[]));
    assert_eq!(mates.len(), 1, "{fen} has one mate in two");
    mates[0].to_uci(CastlingMode::Standard).to_string()
}

fn finds_the_mate_in_two(style: &str) {
    assert_eq!(unique_mate_in_two(MATE_IN_TWO), "d5f6");
    finds_mate(style, MATE_IN_TWO, "d5f6", 2);
}

fn finds_the_quiet_mate_in_two(style: &str) {
    assert_eq!(unique_mate_in_two(QUIET_MATE_IN_TWO), "e1e2");
    finds_mate(style, QUIET_MATE_IN_TWO, "e1e2", 2);
}

fn finds_the_mate_in_three(style: &str) {
    finds_mate(style, MATE_IN_THREE, "f6a6", 3);
}

fn the_mated_side_plays_on_and_reports_a_negative_mate(style: &str) {
    let mut e = bandwidth_engine(style, true);
    for (fen, moves) in [(MATE_IN_TWO, ["d5f6"]), (MATE_IN_THREE, ["f6a6"])] {
        let pos = position(Some(fen), &moves);
        e.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        let (search, _) = go_reusing(&mut e, "go movetime 500", &pos);
        let mate = final_mate(&search);
        assert!(mate < 0, "{fen} after {moves:?}: mate {mate}");
    }
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 5. go infinite and go ponder
// ---------------------------------------------------------------------------------------

fn go_infinite_waits_for_stop_even_at_mate(style: &str) {
    let mut e = bandwidth_engine(style, true);
    for (fen, answer) in [(None, None), (Some(MATE_IN_TWO), Some("d5f6"))] {
        let pos = position(fen, &[]);
        match fen {
            None => e.send("position startpos"),
            Some(fen) => e.send(&format!("position fen {fen}")),
        }
        e.send("go infinite");
        // The reuse line comes first, at once.
        let line = e.expect_line(|l| l.starts_with("info "), PROMPT, "the first info line");
        reused_in(&[line]);
        e.no_bestmove_for(WATCH);
        e.send("stop");
        let search = e.bestmove(&pos, TIMEOUT);
        assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
        if let Some(answer) = answer {
            assert_eq!(search.best, answer);
            assert_eq!(final_mate(&search), 2);
        }
        // Exactly one bestmove.
        let lines = e.ready();
        assert!(lines.is_empty(), "{lines:#?}");
    }
}

fn go_ponder_waits_for_ponderhit_or_stop_even_at_mate(style: &str) {
    let pos = position(Some(MATE_IN_TWO), &[]);
    let mut e = bandwidth_engine(style, true);
    e.send(&format!("position fen {MATE_IN_TWO}"));
    e.send("go ponder wtime 1000 btime 1000");
    e.no_bestmove_for(WATCH);
    e.send("ponderhit");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < Duration::from_millis(1000), "bestmove {:?} after ponderhit", search.elapsed);
    assert_eq!(search.best, "d5f6");
    assert_eq!(final_mate(&search), 2);
    e.ready();

    e.send(&format!("position fen {MATE_IN_TWO}"));
    e.send("go ponder");
    e.no_bestmove_for(WATCH);
    e.send("stop");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < PROMPT, "bestmove after stop took {:?}", search.elapsed);
    assert!(e.ready().is_empty(), "a second bestmove");
}

fn a_ponder_that_outlasted_the_movetime_moves_at_ponderhit(style: &str) {
    let mut e = bandwidth_engine(style, true);
    e.send("position startpos");
    // The time runs from `go`, as the GUI's clock does: the move is due at `ponderhit`.
    e.send("go ponder movetime 1000");
    e.no_bestmove_for(Duration::from_millis(1300));
    e.send("ponderhit");
    e.bestmove(&Chess::default(), PROMPT);
    e.ready();
}

fn ponderhit_keeps_to_the_clock_and_keeps_the_tree(style: &str) {
    // Without idle thinking the tree stays rooted where each search leaves it.
    let mut e = bandwidth_engine(style, false);
    e.send("position startpos");
    let (first, _) = go_reusing(&mut e, &format!("go nodes {TREE_NODES}"), &Chess::default());
    let moves = [first.best.clone(), ponder_of(&first)];

    // Ponder on the expected reply; the opponent plays it.
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    let pos = play(&mut e, &texts);
    e.send("go ponder wtime 1000 btime 1000");
    let lines = lines_without_bestmove(&mut e, WATCH);
    let reused = reused_in(&lines);
    assert!(reused > 0 || !grows_below_the_reply(style), "pondering on our ponder move reuses its subtree");
    // The info lines are about our answers to the expected reply.
    for line in lines.iter().filter(|l| l.contains(" pv ")) {
        let first = line.split(" pv ").nth(1).and_then(|pv| pv.split_whitespace().next());
        assert!(first.is_some_and(|m| parse_uci(&pos, m).is_some()), "{line}");
    }
    e.send("ponderhit");
    let search = e.bestmove(&pos, TIMEOUT);
    assert!(search.elapsed < Duration::from_millis(1000), "bestmove {:?} after ponderhit", search.elapsed);

    // The search that began as a ponder left its whole tree, rooted at the position played:
    // the next search there reuses every node below the root.
    let pos = play(&mut e, &texts);
    let (_, reused) = go_reusing(&mut e, "go nodes 1000", &pos);
    assert_eq!(reused, tree_size(&search) - 1, "the tree after ponderhit is kept: {:#?}", search.lines);
    e.ready();
}

// ---------------------------------------------------------------------------------------
// 6. The hybrid: alpha-beta's iterations first, then the tree
// ---------------------------------------------------------------------------------------

/// The summary note of a search: the depth alpha-beta's iterations finished, the tree's
/// expansions and the tree's size.
fn hybrid_note(search: &Search) -> (i64, i64, i64) {
    let notes: Vec<&String> = search.lines.iter().filter(|l| l.starts_with("info string bandwidth: depth ")).collect();
    assert_eq!(notes.len(), 1, "one summary note: {:#?}", search.lines);
    let words: Vec<&str> = notes[0].split(' ').collect();
    let number = |before: &str| -> i64 {
        let at = words.iter().position(|&w| w == before).unwrap_or_else(|| panic!("no {before}: {}", notes[0]));
        words[at - 1].parse().unwrap_or_else(|_| panic!("no number before {before}: {}", notes[0]))
    };
    (number("by"), number("expansions,"), tree_size(search) as i64)
}

#[test]
fn the_iterations_come_first_then_the_tree_grows_past_them() {
    let mut e = bandwidth_engine("Hybrid", false);
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9";
    let pos = position(Some(fen), &[]);
    e.send(&format!("position fen {fen}"));
    let (search, reused) = go_reusing(&mut e, &format!("go nodes {TREE_NODES}"), &pos);
    assert_eq!(reused, 0);
    let (depth, expansions, tree) = hybrid_note(&search);
    assert!(depth >= 4, "alpha-beta's iterations went deeper than {depth}: {:#?}", search.lines);
    assert!(expansions > 0 && tree > 1, "the tree grew after them: {:#?}", search.lines);
    // The reports before the note: iterations 1, 2, ... up to that depth, one exact report
    // each, then the tree's, which never report less than the iterations' depth.
    let note = search.lines.iter().position(|l| l.starts_with("info string bandwidth: ")).unwrap();
    let exact = |l: &&String| l.contains(" pv ") && !l.contains("bound ");
    let depths: Vec<i64> = search.lines[..note].iter().filter(exact).filter_map(|l| field(l, "depth")).collect();
    let iterations = depths.iter().position(|&d| d == depth).expect("the last iteration is reported") + 1;
    assert_eq!(depths[..iterations], (1..=depth).collect::<Vec<_>>(), "{:#?}", search.lines);
    assert!(depths[iterations..].iter().all(|&d| d >= depth), "{:#?}", search.lines);
    assert!(search.final_field("depth").is_some_and(|d| d >= depth));
    e.ready();
}

#[test]
fn go_depth_and_a_mate_in_two_are_the_iterations_own() {
    let mut e = bandwidth_engine("Hybrid", false);
    e.send("position startpos");
    let (search, _) = go_reusing(&mut e, "go depth 5", &Chess::default());
    assert_eq!(hybrid_note(&search).0, 5, "{:#?}", search.lines);
    assert_eq!(hybrid_note(&search).1, 0, "go depth is alpha-beta's alone: {:#?}", search.lines);
    assert_eq!(search.final_field("depth"), Some(5));

    e.send(&format!("position fen {MATE_IN_TWO}"));
    let pos = position(Some(MATE_IN_TWO), &[]);
    let (search, _) = go_reusing(&mut e, "go mate 2", &pos);
    assert_eq!(search.best, "d5f6", "{:#?}", search.lines);
    assert_eq!(final_mate(&search), 2, "{:#?}", search.lines);
    e.ready();
}

/// `go depth` with `go mate` ends at the depth asked for, as alpha-beta's does: the mate's
/// own horizon (2N + 4 plies) applies only to a lone `go mate`.
#[test]
fn go_depth_with_go_mate_searches_to_the_depth_in_the_harris_style() {
    let mut e = bandwidth_engine("Harris", false);
    e.send("position startpos");
    let (search, _) = go_reusing(&mut e, "go depth 8 mate 1", &Chess::default());
    assert!(search.final_field("depth").is_some_and(|d| d >= 8), "{:#?}", search.lines);
    e.ready();
}

/// A tree kept from an earlier search does not answer `go depth` in the iterations' place:
/// the final report is the last iteration's line.
#[test]
fn go_depth_is_the_iterations_own_with_a_kept_tree() {
    const FEN: &str = "r5k1/pb2rpp1/1p6/2p4q/5R2/2PB2Q1/P1P3PP/5R1K w - - 0 1";
    let pos = position(Some(FEN), &[]);
    let mut e = bandwidth_engine("Hybrid", false);
    e.send(&format!("position fen {FEN}"));
    let (kept, _) = go_reusing(&mut e, &format!("go nodes {TREE_NODES}"), &pos);
    e.send(&format!("position fen {FEN}"));
    let (search, reused) = go_reusing(&mut e, "go depth 4", &pos);
    assert_eq!(reused, tree_size(&kept) - 1, "the tree was kept: {:#?}", search.lines);
    let iteration = search.lines.iter().find(|l| l.starts_with("info depth 4 ")).expect("iteration 4 is reported");
    let report = &search.lines[search.lines.len() - 2];
    assert_eq!(pv_of(report), pv_of(iteration), "{:#?}", search.lines);
    assert_eq!(search.final_field("depth"), Some(4));
    e.ready();
}

/// The Harris style ponders on every reply: it reports the pondered position's line, a miss
/// finds the real reply's subtree in the tree (the hybrid, pondering on the expected reply
/// alone, starts afresh), and `stop` during the ponder answers at once with a legal move
/// for the pondered position.
#[test]
fn a_harris_style_ponder_miss_keeps_the_real_replys_subtree() {
    // Without idle thinking the tree stays rooted where the first search left it.
    let mut e = bandwidth_engine("Harris", false);
    play(&mut e, &["e2e4", "d7d5"]);
    go_reusing(&mut e, "go movetime 300", &position(None, &["e2e4", "d7d5"]));
    // We hang the queen and ponder on a reply that does not take it; the opponent takes it.
    let pondered = play(&mut e, &["e2e4", "d7d5", "d1g4", "a7a6"]);
    e.send("go ponder wtime 5000 btime 5000");
    let lines = lines_without_bestmove(&mut e, Duration::from_millis(1000));
    reused_in(&lines);
    assert!(lines.iter().any(|l| l == "info string pondering on every reply"), "{lines:#?}");
    // The GUI is shown the pondered position's line, legal from that position.
    let reports: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth ")).collect();
    assert!(!reports.is_empty(), "no info lines while pondering: {lines:#?}");
    for report in reports {
        check_pv(&pondered, report);
    }
    e.send("stop");
    let stopped = e.bestmove(&pondered, TIMEOUT);
    assert!(stopped.elapsed < PROMPT, "bestmove after stop took {:?}", stopped.elapsed);

    let pos = play(&mut e, &["e2e4", "d7d5", "d1g4", "c8g4"]);
    let (_, reused) = go_reusing(&mut e, "go wtime 5000 btime 5000", &pos);
    assert!(reused > 0, "the real reply kept its subtree");
    e.ready();
}

/// `go nodes` bounds the probes too: with a tree frozen in 1 MB, Harris's look-ahead
/// deepens and one deep probe used to run on for tens of millions of nodes.
#[test]
fn go_nodes_holds_when_a_frozen_tree_looks_further() {
    const FEN: &str = "r5k1/pb2rpp1/1p6/2p4q/5R2/2PB2Q1/P1P3PP/5R1K w - - 0 1";
    const LIMIT: i64 = 400_000;
    let mut e = bandwidth_engine("Harris", false);
    e.send("setoption name Hash value 1");
    e.send(&format!("position fen {FEN}"));
    let search = e.go(&format!("go nodes {LIMIT}"), &position(Some(FEN), &[]));
    let nodes = search.final_field("nodes").expect("a node count in the final report");
    assert!(nodes <= LIMIT, "go nodes {LIMIT} searched {nodes} nodes");
    e.ready();
}

/// `setoption` is answered at once on a tree rooted at a position with far too much
/// material (64 queens and kings, which the engine accepts repaired): resetting the tree
/// valued its root by a quiescence probe that no `stop` reaches, and that probe ran on for
/// hours, so the engine stopped answering.
#[test]
fn setoption_is_answered_on_a_tree_rooted_at_far_too_much_material() {
    const QUEENS: &str = "kqqqqqqq/qqqqqqqq/qqqqqqqq/qqqqqqqq/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQK w - - 0 1";
    let fen: Fen = QUEENS.parse().expect("the FEN parses");
    let pos = fen.into_position(CastlingMode::Standard).or_else(PositionError::ignore_too_much_material).unwrap();
    let mut e = bandwidth_engine("Harris", false);
    e.send(&format!("position fen {QUEENS}"));
    e.send("go infinite");
    e.send("stop");
    e.bestmove(&pos, TIMEOUT);
    e.send("setoption name TipProbeDepth value 3");
    e.ready_within(TIMEOUT);
}

/// `go depth` ends when the tree cannot grow: in 1 MB a band of 2000 leaves no room for
/// the root's double expansion, so the tree stays frozen at its root and looks further by
/// deeper probes, which used to go on until `stop`.
#[test]
fn go_depth_ends_when_the_tree_is_frozen_at_its_root() {
    const FEN: &str = "r1bq3r/ppppR1p1/5n1k/3P4/6pP/3Q4/PP1N1PP1/5K1R w - - 0 1";
    let mut e = bandwidth_engine("Harris", false);
    e.send("setoption name Hash value 1");
    e.send("setoption name Bandwidth value 2000");
    e.send(&format!("position fen {FEN}"));
    e.send("go depth 3");
    let search = e.bestmove(&position(Some(FEN), &[]), Duration::from_secs(20));
    assert_ne!(search.best, "(none)");
    e.ready();
}

/// In 1 MB a band of 2000 freezes the Harris tree after the root's expansion, so `go depth
/// <depth>` from the start deepens the tip at the end of its line instead, and the
/// look-ahead with it. Returns the engine and that line.
fn frozen_deep_search(depth: u32) -> (Harrier, Vec<String>) {
    let mut e = bandwidth_engine("Harris", false);
    e.send("setoption name Hash value 1");
    e.send("setoption name Bandwidth value 2000");
    e.send("position startpos");
    e.send(&format!("go depth {depth}"));
    let deep = e.bestmove(&position(None, &[]), Duration::from_secs(60));
    let notes = info_strings(&deep.lines);
    assert!(notes.iter().any(|l| l.contains(&format!("tip look-ahead {depth}"))), "{:#?}", deep.lines);
    let report = deep.lines.iter().rev().find(|l| l.contains(" pv ")).expect("a line");
    let line = pv_of(report).iter().map(|m| m.to_string()).collect();
    (e, line)
}

/// `go depth` answers on a new root that is a tip carrying an estimate from far ahead
/// (see [`frozen_deep_search`]): played, the line makes its deepened tip the root, which
/// was then expanded at its own depth (every grandson probed seven plies ahead, minutes in
/// 1 MB) before `go depth 2` could end.
#[test]
fn go_depth_ends_on_a_tip_root_that_looked_far_ahead() {
    let (mut e, line) = frozen_deep_search(7);
    let moves: Vec<&str> = line.iter().map(String::as_str).collect();
    let pos = play(&mut e, &moves);
    e.send("go depth 2");
    let search = e.bestmove(&pos, Duration::from_secs(20));
    assert_ne!(search.best, "(none)");
    e.ready();
}

/// `go depth` answers on a kept tree after a frozen one looked far ahead (see
/// [`frozen_deep_search`]): one move down the line, the tree has room again, but its
/// look-ahead was carried over, so every tip was valued again eight plies ahead, and every
/// new one valued as far, before `go depth 4` could end.
#[test]
fn go_depth_ends_on_a_kept_tree_after_a_frozen_one_looked_far_ahead() {
    let (mut e, line) = frozen_deep_search(8);
    let pos = play(&mut e, &[line[0].as_str()]);
    e.send("go depth 4");
    let search = e.bestmove(&pos, Duration::from_secs(20));
    assert!(reused_in(&search.lines) > 0, "{:#?}", search.lines);
    e.ready();
}

/// `go depth` ends at the first report of the depth: under a depth penalty of 100 and a
/// band of 1999 the line selection follows is the shortest of the root's moves, and the
/// search used to wait until nearly every move's line reached the depth (seconds of
/// reports at depth 4 and more).
#[test]
fn go_depth_ends_when_the_reported_line_reaches_it() {
    let mut e = bandwidth_engine("Harris", false);
    e.send("setoption name Bandwidth value 1999");
    e.send("setoption name DepthPenalty value 100");
    let pos = play(&mut e, &["d2d4", "d7d5", "c2c4"]);
    e.send("go depth 4");
    let search = e.bestmove(&pos, Duration::from_secs(60));
    let deep: Vec<&String> =
        search.lines.iter().filter(|l| l.starts_with("info depth") && field(l, "depth").unwrap() >= 4).collect();
    assert!((1..=2).contains(&deep.len()), "one report in the search, one at its end: {:#?}", search.lines);
    e.ready();
}

/// `go searchmoves` holds in a timed search, at a fixed depth, and when the tree has no
/// move yet (a search stopped before the root's first expansion); a search after it sees
/// every move again and finds the mate the restriction left out.
fn searchmoves_hold_in_every_search(style: &str) {
    let mut e = bandwidth_engine(style, false);
    let pos = position(Some(MATE_IN_TWO), &[]);
    for go in ["go movetime 300", "go depth 2", "go nodes 1"] {
        e.send(&format!("position fen {MATE_IN_TWO}"));
        let search = e.go(&format!("{go} searchmoves a2a3 h2h3"), &pos);
        assert!(["a2a3", "h2h3"].contains(&search.best.as_str()), "{go}: {:#?}", search.lines);
        e.send(&format!("position fen {MATE_IN_TWO}"));
        let search = e.go("go movetime 1000", &pos);
        assert_eq!(search.best, "d5f6", "after {go}: {:#?}", search.lines);
    }
    e.ready();
}

/// `go nodes N` visits at most N positions, the probes' and the tree's new nodes together,
/// and most of them. (The tree's nodes used to come on top of the probes' budget, 3 % more
/// in the Harris style.) The largest `go nodes` is no limit: adding the work done to it used
/// to overflow, and the tree then stopped at once. It searches until `stop` or, in the
/// Harris style, until nothing is left in the band (Harris's own end of a search), far past
/// the limits before it either way.
fn go_nodes_is_kept_exactly(style: &str) {
    let mut e = bandwidth_engine(style, false);
    let pos = play(&mut e, &["e2e4", "e7e5"]);
    let limits = [20_000, 50_000, 200_000];
    for limit in limits {
        let search = e.go(&format!("go nodes {limit}"), &pos);
        let nodes = search.final_field("nodes").expect("a node count in the final report");
        assert!(nodes <= limit && nodes > limit / 2, "go nodes {limit} searched {nodes} nodes");
    }
    e.send(&format!("go nodes {}", u64::MAX));
    let lines = e.lines_for(WATCH);
    let search = if lines.iter().any(|l| l.starts_with("bestmove")) {
        assert_eq!(style, "Harris", "only the Harris style ends by itself: {lines:#?}");
        Search::check(lines, &pos, WATCH)
    } else {
        e.send("stop");
        e.bestmove(&pos, TIMEOUT)
    };
    let nodes = search.final_field("nodes").expect("a node count in the final report");
    assert!(nodes > 2 * limits[2], "go nodes {} stopped at {nodes} nodes", u64::MAX);
    e.ready();
}

/// `go mate N` alone ends without a mate, where alpha-beta's does (at 2N + 4 plies).
fn a_lone_go_mate_ends_without_a_mate(style: &str) {
    let mut e = bandwidth_engine(style, false);
    let pos = play(&mut e, &["e2e4", "e7e5"]);
    e.send("go mate 1");
    let search = e.bestmove(&pos, Duration::from_secs(60));
    assert!(!search.lines.iter().any(|l| l.contains(" score mate ")), "{:#?}", search.lines);
    e.ready();
}

/// `ponderhit` is answered in time even when a frozen tree's probes have looked far ahead
/// while pondering: in 1 MB a band of 2000 freezes the tree at its root, and a probe under
/// way at `ponderhit` used to run on for seconds past a one-second clock.
#[test]
fn ponderhit_stops_a_frozen_trees_deep_probe() {
    const FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 9";
    let mut e = bandwidth_engine("Harris", false);
    for option in ["Hash value 1", "Bandwidth value 2000", "Ponder value true"] {
        e.send(&format!("setoption name {option}"));
    }
    e.send(&format!("position fen {FEN}"));
    let search = e.go("go nodes 100000", &position(Some(FEN), &[]));
    let expected = ponder_of(&search);
    let moves = [search.best.as_str(), expected.as_str()];
    e.send(&format!("position fen {FEN} moves {}", moves.join(" ")));
    e.send("go ponder wtime 1000 btime 1000");
    e.no_bestmove_for(Duration::from_secs(4));
    e.send("ponderhit");
    e.bestmove(&position(Some(FEN), &moves), PROMPT);
    e.ready();
}

/// Runs each battery test above in both styles, as `harris::<test>` and `hybrid::<test>`.
macro_rules! in_both_styles {
    ($($test:ident),* $(,)?) => {
        mod harris {
            $(#[test]
            fn $test() {
                super::$test("Harris");
            })*
        }
        mod hybrid {
            $(#[test]
            fn $test() {
                super::$test("Hybrid");
            })*
        }
    };
}

in_both_styles!(
    searchmoves_hold_in_every_search,
    go_nodes_is_kept_exactly,
    a_lone_go_mate_ends_without_a_mate,
    reuse_after_the_ponder_reply_with_always_think,
    reuse_after_the_ponder_reply_without_always_think,
    misses_takebacks_and_new_games_with_always_think,
    misses_takebacks_and_new_games_without_always_think,
    idle_thinking_is_silent_and_yields_to_any_command,
    quit_and_end_of_input_end_idle_thinking,
    idle_thinking_stays_inside_the_memory_cap,
    finds_the_mate_in_two,
    finds_the_quiet_mate_in_two,
    finds_the_mate_in_three,
    the_mated_side_plays_on_and_reports_a_negative_mate,
    go_infinite_waits_for_stop_even_at_mate,
    go_ponder_waits_for_ponderhit_or_stop_even_at_mate,
    a_ponder_that_outlasted_the_movetime_moves_at_ponderhit,
    ponderhit_keeps_to_the_clock_and_keeps_the_tree,
);
